/** Labelled inputs for the step forms: every control has a label, errors are tied with aria-describedby. */
import { useId, useRef, type ReactNode } from 'react';
import type { Choice } from '../../model/crm';
import { insertAt, type TokenGroup } from '../../model/tokens';
import { Icon } from '../Icon';

function Help({ id, error, hint, warning }: { id: string; error?: string | undefined; hint?: ReactNode; warning?: string | null }) {
  return (
    <>
      {warning && !error && (
        <p className="field-warning" id={`${id}-warning`} data-testid="field-warning">
          <Icon name="warning" size={12} /> {warning}
        </p>
      )}
      {hint && !error && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode, warning?: string | null) =>
  error ? `${id}-error` : [warning && `${id}-warning`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;

export function TextField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  placeholder?: string;
  list?: string;
  type?: 'text' | 'number' | 'tel' | 'email';
  name?: string;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        list={props.list}
        aria-invalid={!!props.error}
        aria-describedby={describedBy(id, props.error, props.hint)}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <Help id={id} error={props.error} hint={props.hint} />
    </div>
  );
}

export function SelectField<T extends string>(props: { label: string; value: T; options: readonly { value: T; label: string }[]; onChange: (v: T) => void; testId?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} data-testid={props.testId} onChange={(e) => props.onChange(e.target.value as T)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A select of named choices that stores the value (an id). `empty` labels the '' choice; while
 * `loading`, it holds only the stored value (still focusable, so the keyboard path is the same).
 */
export function PickerField(props: {
  label: string;
  value: string;
  options: readonly Choice[];
  onChange: (v: string) => void;
  empty: string;
  loading?: string | null;
  error?: string | undefined;
  warning?: string | null;
  hint?: ReactNode;
  testId?: string;
}) {
  const id = useId();
  const loading = !!props.loading;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        aria-busy={loading || undefined}
        aria-invalid={!!props.error}
        aria-describedby={describedBy(id, props.error, props.hint, props.warning)}
        data-testid={props.testId}
        data-unknown={props.options.some((o) => o.unknown && o.value === props.value) || undefined}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {loading ? (
          <option value={props.value}>{props.loading}</option>
        ) : (
          <>
            <option value="">{props.empty}</option>
            {props.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </>
        )}
      </select>
      <Help id={id} error={props.error} hint={props.hint} warning={loading ? null : props.warning} />
    </div>
  );
}

/** A native select that inserts a template token into a text field at the caret. */
export function TokenPicker({ groups, label, onPick, testId }: { groups: readonly TokenGroup[]; label: string; onPick: (token: string) => void; testId?: string }) {
  return (
    <select
      className="token-picker"
      aria-label={`Insert a token into ${label}`}
      data-testid={testId ?? 'token-picker'}
      value=""
      onChange={(e) => {
        if (e.target.value) onPick(e.target.value);
      }}
    >
      <option value="">Insert token…</option>
      {groups.map((g) => (
        <optgroup key={g.label} label={g.label}>
          {g.tokens.map((t) => (
            <option key={t.token} value={t.token}>
              {t.label} — {t.token}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

/** A text field (one line or several) with a token picker that inserts where the caret is. */
export function TokenTextField(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  tokens: readonly TokenGroup[];
  error?: string | undefined;
  hint?: ReactNode;
  multiline?: boolean;
  rows?: number;
  maxLength?: number;
  testId?: string;
}) {
  const id = useId();
  const ref = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const pick = (token: string) => {
    const el = ref.current;
    const { text, caret } = insertAt(props.value, token, el?.selectionStart ?? null, el?.selectionEnd ?? null);
    props.onChange(text);
    requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(caret, caret);
    });
  };
  const common = {
    id,
    ref,
    value: props.value,
    'aria-invalid': !!props.error,
    'aria-describedby': describedBy(id, props.error, props.hint),
    'data-testid': props.testId,
    onChange: (e: { target: { value: string } }) => props.onChange(e.target.value),
  };
  return (
    <div className="field">
      <div className="field-row">
        <label htmlFor={id}>{props.label}</label>
        <TokenPicker groups={props.tokens} label={props.label} onPick={pick} testId={props.testId ? `${props.testId}-tokens` : undefined} />
      </div>
      {props.multiline ? <textarea rows={props.rows ?? 4} {...common} /> : <input type="text" {...common} />}
      {props.maxLength !== undefined && (
        <p className={`field-count${props.value.length > props.maxLength ? ' over' : ''}`} aria-live="polite">
          {props.value.length}/{props.maxLength}
        </p>
      )}
      <Help id={id} error={props.error} hint={props.hint} />
    </div>
  );
}
