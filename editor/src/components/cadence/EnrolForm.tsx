/**
 * Put a contact in the campaign's queue: one the product knows, by its id, or a new one by its
 * fields (created or updated in the project's CRM location first). The enrolment rules apply
 * (active tags, no inactive tag, a dialable phone): a refusal says which.
 */
import { useState } from 'react';
import { powerDialerApi } from '../../api/power-dialer';
import type { Campaign } from '../../api/types';
import { useAction } from '../../hooks/use-action';
import { Failure } from '../console/Failure';

export function EnrolForm({ campaign, onEnrolled }: { campaign: Campaign; onEnrolled(): void }) {
  const [mode, setMode] = useState<'new' | 'known'>('new');
  const [contactId, setContactId] = useState('');
  const [contact, setContact] = useState({ firstName: '', lastName: '', phone: '', email: '', timezone: '', tags: campaign.activeTags.join(', ') });
  const enrol = useAction(powerDialerApi.enrol);
  const set = (change: Partial<typeof contact>) => setContact((c) => ({ ...c, ...change }));
  const field = (k: keyof typeof contact, label: string, hint?: string) => (
    <div className="field">
      <label htmlFor={`enrol-${k}`}>{label}</label>
      <input id={`enrol-${k}`} value={contact[k]} onChange={(e) => set({ [k]: e.target.value })} autoComplete="off" data-testid={`enrol-${k}`} />
      {hint && <p className="field-hint">{hint}</p>}
    </div>
  );
  return (
    <form
      data-testid="enrol-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const tags = contact.tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const body =
          mode === 'known'
            ? { campaignId: campaign.id, contactId: contactId.trim() }
            : {
                campaignId: campaign.id,
                contact: {
                  ...(contact.firstName.trim() && { firstName: contact.firstName.trim() }),
                  ...(contact.lastName.trim() && { lastName: contact.lastName.trim() }),
                  ...(contact.phone.trim() && { phone: contact.phone.trim() }),
                  ...(contact.email.trim() && { email: contact.email.trim() }),
                  ...(contact.timezone.trim() && { timezone: contact.timezone.trim() }),
                  tags,
                },
              };
        if (await enrol.run(body)) onEnrolled();
      }}
    >
      <fieldset className="field">
        <legend>Which contact</legend>
        <label className="choice">
          <input type="radio" name="enrol-mode" checked={mode === 'new'} onChange={() => setMode('new')} data-testid="enrol-mode-new" />A contact given here (created or updated in the CRM)
        </label>
        <label className="choice">
          <input type="radio" name="enrol-mode" checked={mode === 'known'} onChange={() => setMode('known')} data-testid="enrol-mode-known" />A contact already in the CRM, by its id
        </label>
      </fieldset>
      {mode === 'known' ? (
        <div className="field">
          <label htmlFor="enrol-contact-id">Contact ID</label>
          <input id="enrol-contact-id" value={contactId} onChange={(e) => setContactId(e.target.value)} autoComplete="off" data-testid="enrol-contact-id" />
        </div>
      ) : (
        <>
          {field('firstName', 'First name')}
          {field('lastName', 'Last name')}
          {field('phone', 'Phone', 'E.164 (+15125550123), or a US/Canadian number.')}
          {field('email', 'Email')}
          {field('timezone', 'Time zone', 'IANA name (America/Chicago); read when the campaign calls people in their own zone.')}
          {field('tags', 'Tags', `Comma-separated. The campaign enrols contacts tagged ${campaign.activeTags.join(' or ') || '(no active tag set)'}.`)}
        </>
      )}
      {enrol.error && <Failure error={enrol.error} what="enrol this contact" testId="enrol-failure" />}
      {enrol.result && (
        <p role="status" data-testid="enrol-result">
          {enrol.result.created ? 'Enrolled' : 'Already in the queue'}: {enrol.result.data.fullName || enrol.result.data.firstName || enrol.result.data.phone}, attempt {enrol.result.data.cadenceStep + 1},{' '}
          {enrol.result.data.callStatus.replaceAll('_', ' ')}.
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={enrol.busy} data-testid="enrol-submit">
          {enrol.busy ? 'Enrolling…' : 'Enrol'}
        </button>
      </div>
    </form>
  );
}
