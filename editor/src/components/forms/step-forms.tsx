/** One form per step type. Each edits a config object; the side panel validates it with the JSON Schema. */
import type { ComponentType } from 'react';
import { useFieldPaths, useTokens } from '../../hooks/use-crm';
import type { Condition, NodeConfigs, NodeType, SwitchCase } from '../../model/types';
import { errorAt, type FieldError } from '../../model/validation';
import { fieldPaths } from '../../model/tokens';
import { useEditor } from '../../store/context';
import type { CrmResource } from '../../store/crm-store';
import { ConditionsEditor, MatchField } from './ConditionsEditor';
import { CalendarField, ContactFieldField, PipelineStageFields } from './crm-fields';
import { TextField, TokenTextField } from './fields';

/** A form edits a possibly incomplete config (the form's working copy; the schema says when it is complete). */
export type Loose<C> = { [K in keyof C]?: C[K] };

export interface FormProps<T extends NodeType> {
  value: Loose<NodeConfigs[T]>;
  onChange: (next: Loose<NodeConfigs[T]>) => void;
  errors: readonly FieldError[];
}

/** Drops keys whose value is '' or undefined, so optional fields left blank are not sent. */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined)) as T;
}

const splitTags = (s: string) =>
  s
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

function TagsForm({ value, onChange, errors }: FormProps<'add-tag'>) {
  return (
    <TextField
      label="Tags"
      hint="Separate tags with commas."
      value={(value.tags ?? []).join(', ')}
      error={errorAt(errors, 'tags') ?? errors.find((e) => e.path.startsWith('tags.'))?.message}
      testId="field-tags"
      onChange={(v) => onChange({ ...value, tags: splitTags(v) as NodeConfigs['add-tag']['tags'] })}
    />
  );
}

function SetFieldForm({ value, onChange, errors }: FormProps<'set-field'>) {
  const tokens = useTokens();
  return (
    <>
      <ContactFieldField field={value.field ?? ''} error={errorAt(errors, 'field')} onChange={(field) => onChange({ ...value, field })} />
      <TokenTextField label="Value" tokens={tokens} value={value.value === undefined || value.value === null ? '' : String(value.value)} error={errorAt(errors, 'value')} testId="field-value" onChange={(v) => onChange({ ...value, value: v })} />
    </>
  );
}

function MoveStageForm({ value, onChange, errors }: FormProps<'move-stage'>) {
  return (
    <PipelineStageFields
      pipelineId={value.pipelineId ?? ''}
      stageId={value.stageId ?? ''}
      errors={{ pipelineId: errorAt(errors, 'pipelineId'), stageId: errorAt(errors, 'stageId') }}
      onChange={(ids) => onChange({ ...value, ...ids })}
    />
  );
}

function NoteForm({ value, onChange, errors }: FormProps<'add-note'>) {
  const tokens = useTokens();
  return <TokenTextField label="Note" multiline tokens={tokens} value={value.body ?? ''} maxLength={10000} error={errorAt(errors, 'body')} testId="field-body" onChange={(v) => onChange({ ...value, body: v })} />;
}

function SmsForm({ value, onChange, errors }: FormProps<'send-sms'>) {
  const tokens = useTokens();
  const body = value.body ?? '';
  const segments = Math.max(1, Math.ceil(body.length / 160));
  return (
    <>
      <TokenTextField
        label="Message"
        multiline
        tokens={tokens}
        value={body}
        maxLength={1600}
        hint={`${segments} SMS segment${segments === 1 ? '' : 's'} before tokens are filled in.`}
        error={errorAt(errors, 'body')}
        testId="field-body"
        onChange={(v) => onChange({ ...value, body: v })}
      />
      <TextField
        label="Send from (optional)"
        type="tel"
        placeholder="+15125550100"
        hint="The campaign's caller ID when empty."
        value={value.fromNumber ?? ''}
        error={errorAt(errors, 'fromNumber')}
        testId="field-fromNumber"
        onChange={(v) => onChange(compact({ ...value, fromNumber: v }))}
      />
    </>
  );
}

function EmailForm({ value, onChange, errors }: FormProps<'send-email'>) {
  const tokens = useTokens();
  return (
    <>
      <TokenTextField label="Subject" tokens={tokens} value={value.subject ?? ''} error={errorAt(errors, 'subject')} testId="field-subject" onChange={(v) => onChange({ ...value, subject: v })} />
      <TokenTextField label="Body" multiline rows={6} tokens={tokens} value={value.body ?? ''} error={errorAt(errors, 'body')} testId="field-body" onChange={(v) => onChange({ ...value, body: v })} />
      <TokenTextField label="To (optional)" tokens={tokens} hint="The contact's email when empty." value={value.to ?? ''} error={errorAt(errors, 'to')} testId="field-to" onChange={(v) => onChange(compact({ ...value, to: v }))} />
    </>
  );
}

function AppointmentForm({ value, onChange, errors }: FormProps<'book-appointment'>) {
  const listId = 'appointment-fields';
  const agent = useEditor((s) => s.deps.agent);
  return (
    <>
      <datalist id={listId}>
        {fieldPaths(agent, [])
          .filter((p) => p.startsWith('call.fields.'))
          .map((p) => (
            <option key={p} value={p.slice('call.fields.'.length)} />
          ))}
      </datalist>
      <CalendarField calendarId={value.calendarId ?? ''} error={errorAt(errors, 'calendarId')} onChange={(v) => onChange(compact({ ...value, calendarId: v }))} />
      <TextField
        label="Start time from call field (optional)"
        placeholder="appointment_time"
        list={listId}
        value={value.startField ?? ''}
        error={errorAt(errors, 'startField')}
        testId="field-startField"
        onChange={(v) => onChange(compact({ ...value, startField: v }))}
      />
      <TextField
        label="Duration in minutes (optional)"
        type="number"
        placeholder="30"
        value={value.durationMinutes === undefined ? '' : String(value.durationMinutes)}
        error={errorAt(errors, 'durationMinutes')}
        testId="field-durationMinutes"
        onChange={(v) => onChange(compact({ ...value, durationMinutes: v === '' ? undefined : Number(v) }))}
      />
    </>
  );
}

function IfForm({ value, onChange, errors }: FormProps<'if'>) {
  const paths = useFieldPaths();
  return (
    <>
      <MatchField value={value.match} onChange={(match) => onChange({ ...value, match })} />
      <ConditionsEditor
        path="conditions"
        conditions={(value.conditions ?? []) as Condition[]}
        errors={errors}
        fieldPaths={paths}
        testId="if-conditions"
        onChange={(conditions) => onChange({ ...value, conditions: conditions as NodeConfigs['if']['conditions'] })}
      />
      <p className="field-hint">Calls that match take the “true” handle, all others the “false” handle.</p>
    </>
  );
}

/** A case id unique in the switch, usable as a handle name. */
function newCaseId(cases: readonly SwitchCase[]): string {
  let n = cases.length + 1;
  while (cases.some((c) => c.id === `case-${n}`)) n++;
  return `case-${n}`;
}

function SwitchForm({ value, onChange, errors }: FormProps<'switch'>) {
  const paths = useFieldPaths();
  const cases = (value.cases ?? []) as SwitchCase[];
  const set = (next: SwitchCase[]) => onChange({ ...value, cases: next as NodeConfigs['switch']['cases'] });
  return (
    <>
      {cases.map((c, i) => (
        <fieldset className="case" key={c.id} data-testid={`case-${i}`}>
          <legend>
            Case {i + 1} <code>{c.id}</code>
          </legend>
          <TextField label="Case label" testId={`case-${i}-label`} value={c.label} error={errorAt(errors, `cases.${i}.label`)} onChange={(label) => set(cases.map((x, k) => (k === i ? { ...x, label } : x)))} />
          <MatchField value={c.match} onChange={(match) => set(cases.map((x, k) => (k === i ? { ...x, match } : x)))} />
          <ConditionsEditor
            path={`cases.${i}.conditions`}
            testIdPrefix={`case-${i}-`}
            conditions={c.conditions as Condition[]}
            errors={errors}
            fieldPaths={paths}
            onChange={(conditions) => set(cases.map((x, k) => (k === i ? ({ ...x, conditions } as SwitchCase) : x)))}
          />
          <button type="button" className="link-button danger" disabled={cases.length <= 1} onClick={() => set(cases.filter((_, k) => k !== i))}>
            Remove case {i + 1}
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        className="link-button"
        data-testid="add-case"
        onClick={() => set([...cases, { id: newCaseId(cases), label: `Case ${cases.length + 1}`, match: 'all', conditions: [{ field: '', op: 'eq', value: '' }] } as SwitchCase])}
      >
        + Add case
      </button>
      <p className="field-hint">The first matching case picks its handle; calls matching none take “otherwise”.</p>
    </>
  );
}

export const STEP_FORMS: { [T in NodeType]: ComponentType<FormProps<T>> } = {
  'add-tag': TagsForm,
  'remove-tag': TagsForm as ComponentType<FormProps<'remove-tag'>>,
  'set-field': SetFieldForm,
  'move-stage': MoveStageForm,
  'add-note': NoteForm,
  'send-sms': SmsForm,
  'send-email': EmailForm,
  'book-appointment': AppointmentForm,
  if: IfForm,
  switch: SwitchForm,
};

/** What each form reads from the CRM (its notice says when that cannot be read). */
export const STEP_CRM_READS: { [T in NodeType]: readonly CrmResource[] } = {
  'add-tag': [],
  'remove-tag': [],
  'set-field': ['customFields', 'customValues'],
  'move-stage': ['pipelines'],
  'add-note': ['customValues', 'customFields'],
  'send-sms': ['customValues', 'customFields'],
  'send-email': ['customValues', 'customFields'],
  'book-appointment': ['calendars'],
  if: ['customFields'],
  switch: ['customFields'],
};
