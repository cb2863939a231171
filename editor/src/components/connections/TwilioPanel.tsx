/**
 * The agency's Twilio account (the SMS carrier of projects that choose it): whether it is set
 * (the account's last digits and when), and a form to set or replace it (verified with Twilio
 * first). The auth token is sent once and never read back.
 */
import { useState } from 'react';
import { agencyApi } from '../../api/agency';
import type { Agency } from '../../api/types';
import { useAction } from '../../hooks/use-action';
import { credentialOf } from '../../model/connections';
import { Failure } from '../console/Failure';
import { CredentialStatus } from './CredentialStatus';

export function TwilioPanel({ agency, onChanged }: { agency: Agency; onChanged(): void }) {
  const cred = credentialOf(agency, 'twilio');
  const [accountSid, setAccountSid] = useState('');
  const [authToken, setAuthToken] = useState('');
  const [service, setService] = useState('');
  const save = useAction(agencyApi.putTwilio);
  return (
    <section className="console-section" aria-labelledby="twilio-title" data-testid="twilio">
      <h2 id="twilio-title">Twilio (SMS)</h2>
      <CredentialStatus cred={cred} testId="twilio-status" notSet="SMS go through each project's CRM.">
        Projects send SMS through: {agency.settings.smsCarrier === 'twilio' ? 'Twilio' : 'their CRM'} (unless a project chooses otherwise).
      </CredentialStatus>
      <form
        data-testid="twilio-form"
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await save.run({ accountSid: accountSid.trim(), authToken: authToken.trim(), ...(service.trim() && { messagingServiceSid: service.trim() }) });
          setAuthToken('');
          if (ok) {
            setAccountSid('');
            setService('');
            onChanged();
          }
        }}
      >
        <div className="field">
          <label htmlFor="twilio-sid">Account SID</label>
          <input id="twilio-sid" value={accountSid} onChange={(e) => setAccountSid(e.target.value)} autoComplete="off" spellCheck={false} placeholder="AC…" data-testid="twilio-sid" />
        </div>
        <div className="field">
          <label htmlFor="twilio-token">Auth token</label>
          <input id="twilio-token" type="password" value={authToken} onChange={(e) => setAuthToken(e.target.value)} autoComplete="off" data-testid="twilio-token" />
        </div>
        <div className="field">
          <label htmlFor="twilio-service">Messaging Service SID (optional)</label>
          <input id="twilio-service" value={service} onChange={(e) => setService(e.target.value)} autoComplete="off" spellCheck={false} placeholder="MG…" data-testid="twilio-service" />
          <p className="field-hint">Used when a step has no caller ID to send from.</p>
        </div>
        {save.error && <Failure error={save.error} what="save the Twilio account" testId="twilio-failure" />}
        <div>
          <button type="submit" className="primary" disabled={save.busy || !accountSid.trim() || !authToken.trim()} data-testid="twilio-submit">
            {save.busy ? 'Checking with Twilio…' : cred ? 'Replace' : 'Connect Twilio'}
          </button>
        </div>
      </form>
    </section>
  );
}
