/**
 * "Test": pick the outcome, fill sample call fields (the agent's post-call fields, with sample
 * values) and optionally a sample contact, and run the stored workflow on the sandbox. The run is
 * then painted on the canvas step by step (Runs tab).
 */
import { OUTCOMES } from '../../../../engine/graph/outcomes';
import { useTestRunForm } from '../../hooks/use-test-run-form';
import { asDisposition } from '../../model/flow';
import { useEditor } from '../../store/context';
import { Modal } from './Modal';
import { TestContact } from './TestContact';

export function TestRunDialog() {
  const close = useEditor((s) => s.closeDialog);
  const version = useEditor((s) => s.base.version);
  const dirty = useEditor((s) => s.ops.length > 0);
  const entries = useEditor((s) => s.base.dispositionEntries);
  const { form, update, errors, refusal, starting, submit, fields, outcomes } = useTestRunForm();
  return (
    <Modal title="Test this workflow" testId="test-run-dialog" onClose={close} wide>
      <p className="sandbox-note" data-testid="test-run-sandbox">
        <strong>A test on the sandbox:</strong> the steps run for real, but on a sandbox copy of the contact. Nothing is sent to real contacts and the
        project&apos;s CRM is not touched.
      </p>
      <p className="field-hint">
        It runs version {version} as saved{dirty ? '; your unsaved changes are not part of it' : ''}.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor="test-outcome">The call ended in</label>
          <select id="test-outcome" data-testid="test-outcome" value={form.outcome} onChange={(e) => update({ outcome: e.target.value })} data-autofocus>
            {outcomes.map((o) => (
              <option key={o} value={o}>
                {OUTCOMES[o].label}
                {entries[o] ? '' : ' (no steps)'}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field test-fields">
          <legend>What the call recorded</legend>
          {fields.length === 0 && <p className="field-hint">This agent records no post-call fields.</p>}
          {fields.map((f) => {
            const id = `test-field-${f.name}`;
            const v = form.fields[f.name];
            return (
              <div key={f.name} className="test-field">
                {f.type === 'boolean' ? (
                  <label className="check">
                    <input id={id} data-testid={id} type="checkbox" checked={v === true} onChange={(e) => update({ fields: { ...form.fields, [f.name]: e.target.checked } })} />
                    {f.name}
                  </label>
                ) : (
                  <>
                    <label htmlFor={id}>
                      {f.name} <span className="field-hint">({f.type})</span>
                    </label>
                    <input
                      id={id}
                      data-testid={id}
                      value={typeof v === 'string' ? v : ''}
                      inputMode={f.type === 'number' ? 'decimal' : undefined}
                      aria-invalid={!!errors[f.name] || undefined}
                      aria-describedby={errors[f.name] ? `${id}-error` : undefined}
                      onChange={(e) => update({ fields: { ...form.fields, [f.name]: e.target.value } })}
                    />
                  </>
                )}
                {errors[f.name] && (
                  <p className="field-error" id={`${id}-error`}>
                    {errors[f.name]}
                  </p>
                )}
              </div>
            );
          })}
          <label htmlFor="test-summary">Call summary</label>
          <textarea id="test-summary" data-testid="test-summary" rows={2} value={form.callSummary} onChange={(e) => update({ callSummary: e.target.value })} />
        </fieldset>
        <TestContact form={form} update={update} errors={errors} />
        {refusal && (
          <p className="form-server-error" role="alert" data-testid="test-run-error">
            {refusal}
          </p>
        )}
        <div className="modal-actions">
          <button type="submit" className="primary" disabled={starting} data-testid="test-run-start">
            {starting ? 'Starting…' : `Run the ${asDisposition(form.outcome) ? OUTCOMES[asDisposition(form.outcome)!].label : form.outcome} path on the sandbox`}
          </button>
          <button type="button" onClick={close} data-testid="test-run-cancel">
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
