/**
 * Form fields backed by the project's CRM: pipeline and stage (move-stage), calendar
 * (book-appointment), contact field (set-field), and the notice a form shows when the CRM cannot
 * be read. When a list cannot be read, the field is a free-text input, so the step stays editable.
 */
import { useId, useMemo } from 'react';
import { useCrm, useCrmLoads, useCrmStore, useFieldPaths } from '../../hooks/use-crm';
import { calendarChoices, contactFieldChoices, pipelineChoices, stageChoices } from '../../model/crm';
import { contactPath } from '../../model/tokens';
import type { CrmLoad, CrmResource } from '../../store/crm-store';
import { PickerField, TextField } from './fields';

const WHAT: Record<CrmResource, string> = {
  pipelines: 'pipelines',
  calendars: 'calendars',
  customFields: 'custom fields',
  customValues: 'custom values',
};

const listFrom = <T,>(load: CrmLoad<T>): T | undefined => (load.status === 'done' || load.status === 'loading' ? load.value : undefined);
const loadingText = (load: CrmLoad<unknown>, what: string) => (listFrom(load) === undefined ? `Loading ${what}…` : null);

/** move-stage: a pipeline by name, then one of its stages by name; ids are stored. */
export function PipelineStageFields(props: { pipelineId: string; stageId: string; onChange: (next: { pipelineId: string; stageId: string }) => void; errors: { pipelineId?: string | undefined; stageId?: string | undefined } }) {
  const load = useCrm('pipelines');
  const { pipelineId, stageId, onChange, errors } = props;
  if (load.status === 'error') {
    return (
      <>
        <TextField label="Pipeline ID" value={pipelineId} error={errors.pipelineId} testId="field-pipelineId" onChange={(v) => onChange({ pipelineId: v, stageId })} />
        <TextField label="Stage ID" value={stageId} error={errors.stageId} testId="field-stageId" onChange={(v) => onChange({ pipelineId, stageId: v })} />
      </>
    );
  }
  const pipelines = listFrom(load) ?? [];
  const loading = loadingText(load, 'pipelines');
  const pipelineList = pipelineChoices(pipelines, pipelineId);
  const stageList = stageChoices(pipelines, pipelineId, stageId);
  return (
    <>
      <PickerField
        label="Pipeline"
        value={pipelineId}
        options={pipelineList.options}
        empty="Choose a pipeline…"
        loading={loading}
        warning={pipelineList.warning}
        error={errors.pipelineId}
        testId="field-pipelineId"
        // Stage ids belong to their pipeline: a new pipeline starts without a stage.
        onChange={(v) => onChange({ pipelineId: v, stageId: v === pipelineId ? stageId : '' })}
      />
      <PickerField
        label="Stage"
        value={stageId}
        options={stageList.options}
        empty={pipelineId ? 'Choose a stage…' : 'Choose a pipeline first'}
        loading={loading}
        warning={stageList.warning}
        error={errors.stageId}
        testId="field-stageId"
        onChange={(v) => onChange({ pipelineId, stageId: v })}
      />
    </>
  );
}

/** book-appointment: one of the location's calendars, or none for the campaign's calendar. */
export function CalendarField(props: { calendarId: string; onChange: (v: string) => void; error?: string | undefined }) {
  const load = useCrm('calendars');
  const hint = "The campaign's calendar when empty.";
  if (load.status === 'error') {
    return <TextField label="Calendar ID (optional)" hint={hint} value={props.calendarId} error={props.error} testId="field-calendarId" onChange={props.onChange} />;
  }
  const list = calendarChoices(listFrom(load) ?? [], props.calendarId);
  return (
    <PickerField
      label="Calendar"
      value={props.calendarId}
      options={list.options}
      empty="The campaign's calendar"
      loading={loadingText(load, 'calendars')}
      warning={list.warning}
      error={props.error}
      testId="field-calendarId"
      onChange={props.onChange}
    />
  );
}

/**
 * set-field: a custom field chosen by name (its path is stored), and the path itself as text, for
 * a standard field or one the list lacks.
 */
export function ContactFieldField(props: { field: string; onChange: (v: string) => void; error?: string | undefined }) {
  const load = useCrm('customFields');
  const paths = useFieldPaths();
  const listId = useId();
  const fields = listFrom(load);
  const choices = useMemo(() => contactFieldChoices(fields ?? []), [fields]);
  const chosen = fields?.find((f) => contactPath(f) === props.field);
  const datalist = (
    <datalist id={listId}>
      {paths
        .filter((p) => p.startsWith('contact.'))
        .map((p) => (
          <option key={p} value={p} />
        ))}
    </datalist>
  );
  if (load.status === 'error') {
    return (
      <>
        {datalist}
        <TextField label="Contact field" placeholder="contact.callback_time" list={listId} value={props.field} error={props.error} testId="field-field" onChange={props.onChange} />
      </>
    );
  }
  const hint = chosen
    ? `Custom field “${chosen.name}”${chosen.dataType ? ` (${chosen.dataType.toLowerCase()})` : ''}.`
    : props.field
      ? "Not one of this location's custom fields: written to the contact as typed."
      : 'Choose a custom field above, or type a field, e.g. contact.callback_time.';
  return (
    <>
      {datalist}
      <PickerField
        label="Contact field"
        value={chosen ? props.field : ''}
        options={choices}
        empty={props.field && !chosen ? 'Another field (typed below)' : 'Choose a custom field…'}
        loading={loadingText(load, 'custom fields')}
        testId="field-field-picker"
        onChange={(v) => v && props.onChange(v)}
      />
      <TextField label="Field key" placeholder="contact.callback_time" list={listId} value={props.field} error={props.error} hint={hint} testId="field-field" onChange={props.onChange} />
    </>
  );
}

/**
 * Above a form that reads the CRM: why its lists are missing (the project must be reconnected,
 * the key may not read the CRM, or the read failed, with Retry), or where they come from, with
 * Refresh.
 */
export function CrmNotice({ resources }: { resources: readonly CrmResource[] }) {
  const crm = useCrmStore();
  const loads = useCrmLoads(resources);
  if (resources.length === 0) return null;
  const failed = resources.map((r, i) => ({ r, load: loads[i]! })).filter((x) => x.load.status === 'error');
  const again = (which: readonly CrmResource[]) => () => {
    for (const r of which) crm.getState().refresh(r);
  };
  const kinds = new Set(failed.map((f) => (f.load.status === 'error' ? f.load.failure.kind : 'failed')));
  const firstMessage = failed.map((f) => (f.load.status === 'error' ? f.load.failure.message : '')).find(Boolean) ?? '';
  const names = (list: readonly CrmResource[]) => {
    const words = list.map((r) => WHAT[r]);
    return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : (words[0] ?? '');
  };
  if (kinds.has('disconnected')) {
    return (
      <div className="crm-notice crm-notice-warn" role="status" data-testid="crm-disconnected">
        <p>
          <strong>This project's CRM connection needs to be reconnected</strong> before its {names(resources)} can be listed here. You can still type
          ids and keys below.
        </p>
        <p className="crm-notice-detail">{firstMessage}</p>
        <button type="button" className="link-button" data-testid="crm-retry" onClick={again(failed.map((f) => f.r))}>
          Check again
        </button>
      </div>
    );
  }
  if (kinds.has('forbidden')) {
    return (
      <div className="crm-notice crm-notice-warn" role="status" data-testid="crm-forbidden">
        <p>This API key may not read the CRM (it needs the crm:read scope), so its {names(failed.map((f) => f.r))} are not listed. You can still type ids and keys below.</p>
      </div>
    );
  }
  if (failed.length > 0) {
    return (
      <div className="crm-notice crm-notice-error" role="alert" data-testid="crm-failed">
        <p>
          Could not read the CRM's {names(failed.map((f) => f.r))}: {firstMessage}
        </p>
        <button type="button" className="link-button" data-testid="crm-retry" onClick={again(failed.map((f) => f.r))}>
          Retry
        </button>
      </div>
    );
  }
  const busy = loads.some((l) => l.status === 'loading' || l.status === 'idle');
  return (
    <p className="crm-source" data-testid="crm-source" aria-busy={busy || undefined}>
      {busy ? `Reading ${names(resources)} from the CRM…` : `${names(resources)[0]!.toUpperCase()}${names(resources).slice(1)} from the project's CRM.`}{' '}
      <button type="button" className="link-button" data-testid="crm-refresh" disabled={busy} onClick={again(resources)}>
        Refresh
      </button>
    </p>
  );
}
