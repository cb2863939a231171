/**
 * A secret shown this once, with a copy button. It lives in the component that shows it: not in a
 * store, not in the browser's storage; when the box closes it is gone, and the API never shows it again.
 */
import { useCopy } from '../../hooks/use-copy';

export function SecretOnce({ label, value, testId, secret = true }: { label: string; value: string; testId: string; secret?: boolean }) {
  const { copied, copy } = useCopy();
  const id = `${testId}-value`;
  return (
    <div className="secret-once" data-testid={testId}>
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} data-testid={id} spellCheck={false} autoComplete="off" />
        <button type="button" onClick={() => void copy(value)} data-testid={`${testId}-copy`}>
          Copy
        </button>
      </div>
      <p className="field-hint" role="status">
        {copied === 'yes' ? 'Copied.' : copied === 'refused' ? 'The browser did not allow copying: select the field and press Ctrl+C (Cmd+C).' : secret ? 'Shown this once: copy it now.' : ''}
      </p>
    </div>
  );
}
