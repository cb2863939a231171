/**
 * The test run's contact: a sample (fields typed here, empty ones take the sample shown) or, by id,
 * a contact this product already holds. Either way it is copied into the run's sandbox: the real
 * CRM is neither read nor written.
 */
import type { TestRunForm } from '../../model/test-run';

const SAMPLE = [
  { key: 'firstName', label: 'First name', placeholder: 'Test' },
  { key: 'lastName', label: 'Last name', placeholder: 'Contact' },
  { key: 'phone', label: 'Phone', placeholder: '+15555550123' },
  { key: 'email', label: 'Email', placeholder: 'test.contact@example.com' },
] as const;

export function TestContact({ form, update, errors }: { form: TestRunForm; update: (change: Partial<TestRunForm>) => void; errors: Record<string, string> }) {
  const existing = form.contactMode === 'existing';
  return (
    <fieldset className="field test-contact">
      <legend>The contact</legend>
      <div className="test-contact-mode" role="radiogroup" aria-label="Which contact">
        <label className="check">
          <input type="radio" name="test-contact-mode" checked={!existing} onChange={() => update({ contactMode: 'sample' })} data-testid="test-contact-sample" />
          A sample contact
        </label>
        <label className="check">
          <input type="radio" name="test-contact-mode" checked={existing} onChange={() => update({ contactMode: 'existing' })} data-testid="test-contact-existing" />
          An existing contact, by id
        </label>
      </div>
      {existing ? (
        <div className="field">
          <label htmlFor="test-contact-id">Contact ID</label>
          <input
            id="test-contact-id"
            data-testid="test-contact-id"
            value={form.contactId}
            aria-invalid={!!errors.contactId || undefined}
            onChange={(e) => update({ contactId: e.target.value })}
          />
          <p className="field-hint">Its name, phone and tags are copied into the test run; the contact itself is not changed.</p>
          {errors.contactId && <p className="field-error">{errors.contactId}</p>}
        </div>
      ) : (
        <>
          <div className="test-contact-grid">
            {SAMPLE.map((c) => (
              <div key={c.key} className="field">
                <label htmlFor={`test-contact-${c.key}`}>{c.label}</label>
                <input
                  id={`test-contact-${c.key}`}
                  data-testid={`test-contact-${c.key}`}
                  placeholder={c.placeholder}
                  value={form.contact[c.key]}
                  onChange={(e) => update({ contact: { ...form.contact, [c.key]: e.target.value } })}
                />
              </div>
            ))}
          </div>
          <div className="field">
            <label htmlFor="test-contact-fields">Other contact fields (one per line: key=value)</label>
            <textarea
              id="test-contact-fields"
              data-testid="test-contact-fields"
              rows={2}
              placeholder="callback_time=2031-03-04T15:00:00Z"
              value={form.contactFields}
              aria-invalid={!!errors.contactFields || undefined}
              onChange={(e) => update({ contactFields: e.target.value })}
            />
            {errors.contactFields && <p className="field-error">{errors.contactFields}</p>}
          </div>
        </>
      )}
    </fieldset>
  );
}
