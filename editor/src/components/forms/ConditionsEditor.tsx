/** Conditions of an `if` or a switch case: rows of field / operator / value, matched all or any. */
import { useId } from 'react';
import { CONDITION_OPERATORS } from '../../../../schemas/workflow';
import type { Condition } from '../../model/types';
import { errorAt, type FieldError } from '../../model/validation';

const OP_LABELS: Record<(typeof CONDITION_OPERATORS)[number], string> = {
  eq: 'equals',
  neq: 'does not equal',
  contains: 'contains',
  not_contains: 'does not contain',
  exists: 'is present',
  not_exists: 'is missing',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  in: 'is one of',
};

const needsValue = (op: string) => op !== 'exists' && op !== 'not_exists';

/** The text shown for a condition's value. */
function valueText(c: Condition): string {
  if (c.value === undefined || c.value === null) return '';
  if (Array.isArray(c.value)) return c.value.join(', ');
  return String(c.value);
}

/** The value a condition stores for what was typed: a list for `in`, a number for comparisons when numeric. */
function parseValue(op: string, text: string): unknown {
  if (op === 'in') return text.split(',').map((s) => s.trim()).filter(Boolean);
  if (['gt', 'gte', 'lt', 'lte'].includes(op) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

export function MatchField({ value, onChange }: { value: 'all' | 'any' | undefined; onChange: (v: 'all' | 'any') => void }) {
  const name = useId();
  return (
    <fieldset className="field match">
      <legend>Match</legend>
      <label>
        <input type="radio" name={name} checked={(value ?? 'all') === 'all'} onChange={() => onChange('all')} /> all conditions
      </label>
      <label>
        <input type="radio" name={name} checked={value === 'any'} onChange={() => onChange('any')} /> any condition
      </label>
    </fieldset>
  );
}

export function ConditionsEditor(props: {
  conditions: Condition[];
  onChange: (next: Condition[]) => void;
  errors: readonly FieldError[];
  /** path of the conditions array in the config, e.g. `conditions` or `cases.0.conditions` */
  path: string;
  fieldPaths: readonly string[];
  testId?: string;
  /** prefixes the rows' test ids, e.g. `case-0-` */
  testIdPrefix?: string;
}) {
  const tp = props.testIdPrefix ?? '';
  const listId = useId();
  const { conditions, onChange } = props;
  const change = (i: number, c: Condition) => onChange(conditions.map((x, k) => (k === i ? c : x)));
  return (
    <fieldset className="conditions" data-testid={props.testId}>
      <legend>Conditions</legend>
      <datalist id={listId}>
        {props.fieldPaths.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      {conditions.map((c, i) => {
        const at = `${props.path}.${i}`;
        const fieldError = errorAt(props.errors, `${at}.field`);
        const valueError = errorAt(props.errors, `${at}.value`) ?? errorAt(props.errors, at);
        return (
          <div className="condition" key={i} role="group" aria-label={`Condition ${i + 1}`}>
            <label className="sr-only" htmlFor={`${listId}-f${i}`}>
              Field of condition {i + 1}
            </label>
            <input
              id={`${listId}-f${i}`}
              list={listId}
              placeholder="call.fields.callback_time"
              value={c.field ?? ''}
              aria-invalid={!!fieldError}
              data-testid={`${tp}condition-${i}-field`}
              onChange={(e) => change(i, { ...c, field: e.target.value })}
            />
            <label className="sr-only" htmlFor={`${listId}-o${i}`}>
              Operator of condition {i + 1}
            </label>
            <select
              id={`${listId}-o${i}`}
              value={c.op}
              data-testid={`${tp}condition-${i}-op`}
              onChange={(e) => {
                const op = e.target.value as Condition['op'];
                const { value: _v, ...rest } = c;
                change(i, needsValue(op) ? ({ ...rest, op, value: parseValue(op, valueText(c)) } as Condition) : ({ ...rest, op } as Condition));
              }}
            >
              {CONDITION_OPERATORS.map((op) => (
                <option key={op} value={op}>
                  {OP_LABELS[op]}
                </option>
              ))}
            </select>
            {needsValue(c.op) && (
              <>
                <label className="sr-only" htmlFor={`${listId}-v${i}`}>
                  Value of condition {i + 1}
                </label>
                <input
                  id={`${listId}-v${i}`}
                  placeholder={c.op === 'in' ? 'a, b, c' : 'value'}
                  value={valueText(c)}
                  aria-invalid={!!valueError}
                  data-testid={`${tp}condition-${i}-value`}
                  onChange={(e) => change(i, { ...c, value: parseValue(c.op, e.target.value) } as Condition)}
                />
              </>
            )}
            <button type="button" className="icon-button" aria-label={`Remove condition ${i + 1}`} disabled={conditions.length <= 1} onClick={() => onChange(conditions.filter((_, k) => k !== i))}>
              ×
            </button>
            {(fieldError || valueError) && (
              <p className="field-error" role="alert">
                {fieldError ? `Field ${fieldError}` : `Value ${valueError}`}
              </p>
            )}
          </div>
        );
      })}
      <button type="button" className="link-button" onClick={() => onChange([...conditions, { field: '', op: 'eq', value: '' } as Condition])}>
        + Add condition
      </button>
    </fieldset>
  );
}
