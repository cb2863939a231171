/**
 * The agency's Vapi account (the dialer's voice platform): whether it is set, and a form for its
 * private API key (verified with Vapi first). The answer gives the agency's server URL and, unless
 * a secret of one's own was sent, a generated one, shown here once with copy buttons and the steps
 * to paste them in Vapi; when the panel's *Done* is pressed, they are gone.
 */
import { useState } from 'react';
import { agencyApi } from '../../api/agency';
import type { Agency, VapiConnected } from '../../api/types';
import { useAction } from '../../hooks/use-action';
import { credentialOf } from '../../model/connections';
import { Failure } from '../console/Failure';
import { SecretOnce } from '../console/SecretOnce';
import { CredentialStatus } from './CredentialStatus';

function WhatToPasteInVapi({ answer, onDone }: { answer: VapiConnected; onDone(): void }) {
  const hmac = answer.secretKind === 'hmac';
  return (
    <div className="vapi-answer" data-testid="vapi-answer">
      <SecretOnce label="Server URL" value={answer.serverUrl} testId="vapi-server-url" secret={false} />
      {answer.serverSecret ? (
        <SecretOnce label={hmac ? 'Secret of the HMAC credential' : 'X-Vapi-Secret'} value={answer.serverSecret} testId="vapi-secret" />
      ) : (
        <p>The secret is the one you sent.</p>
      )}
      {answer.previousSecretValidUntil && (
        <p data-testid="vapi-grace">
          The previous secret still verifies until <time dateTime={answer.previousSecretValidUntil}>{new Date(answer.previousSecretValidUntil).toLocaleString()}</time>: change it in Vapi before then.
        </p>
      )}
      <h3>In Vapi</h3>
      <ol className="steps-list" data-testid="vapi-steps">
        {hmac ? (
          <li>
            Create a credential of type <strong>HMAC</strong> with the secret above and its defaults: SHA-256, hex, header <code>x-signature</code>, timestamp on in
            header <code>x-timestamp</code>, payload <code>{'{timestamp}.{body}'}</code>.
          </li>
        ) : (
          <li>
            Use the secret above as the <code>X-Vapi-Secret</code> of the server (the legacy header).
          </li>
        )}
        <li>Set the assistant&apos;s (or the phone number&apos;s) <strong>Server URL</strong> to the server URL above{hmac ? ', with that credential' : ''}.</li>
        <li>Give each agent its Vapi assistant id, and register each caller ID with its Vapi phone-number id (docs/providers.md, Vapi, step 3).</li>
        <li>Name the assistant&apos;s structured-data field that holds the call&apos;s outcome (agency setting <code>vapiOutcomeField</code>, default <code>outcome</code>).</li>
      </ol>
      <button type="button" className="primary" onClick={onDone} data-testid="vapi-done">
        Done: I have pasted them in Vapi
      </button>
    </div>
  );
}

export function VapiPanel({ agency, onChanged }: { agency: Agency; onChanged(): void }) {
  const cred = credentialOf(agency, 'vapi');
  const [apiKey, setApiKey] = useState('');
  const [secretKind, setSecretKind] = useState<'hmac' | 'secret'>('hmac');
  const [ownSecret, setOwnSecret] = useState('');
  const save = useAction(agencyApi.putVapi);
  return (
    <section className="console-section" aria-labelledby="vapi-title" data-testid="vapi">
      <h2 id="vapi-title">Vapi (voice)</h2>
      <CredentialStatus cred={cred} testId="vapi-status">
        Calls are placed on: {agency.settings.voicePlatform === 'vapi' ? 'Vapi' : 'the sandbox voice platform'}.
      </CredentialStatus>
      {save.result ? (
        <WhatToPasteInVapi
          answer={save.result}
          onDone={() => {
            save.reset();
            onChanged();
          }}
        />
      ) : (
        <form
          data-testid="vapi-form"
          onSubmit={async (e) => {
            e.preventDefault();
            const ok = await save.run({ apiKey: apiKey.trim(), secretKind, ...(ownSecret.trim() && { serverSecret: ownSecret.trim() }) });
            setApiKey('');
            setOwnSecret('');
            if (ok) onChanged();
          }}
        >
          <div className="field">
            <label htmlFor="vapi-key">Private API key</label>
            <input id="vapi-key" type="password" value={apiKey} onChange={(e) => setApiKey(e.target.value)} autoComplete="off" data-testid="vapi-key" />
            <p className="field-hint">Vapi: API Keys, the private key. Verified now, stored sealed, never shown again.</p>
          </div>
          <div className="field">
            <label htmlFor="vapi-kind">How Vapi signs its messages</label>
            <select id="vapi-kind" value={secretKind} onChange={(e) => setSecretKind(e.target.value as 'hmac' | 'secret')} data-testid="vapi-kind">
              <option value="hmac">An HMAC credential (x-signature, x-timestamp)</option>
              <option value="secret">The legacy X-Vapi-Secret header</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="vapi-own-secret">A secret of your own (optional)</label>
            <input id="vapi-own-secret" type="password" value={ownSecret} onChange={(e) => setOwnSecret(e.target.value)} autoComplete="off" data-testid="vapi-own-secret" />
            <p className="field-hint">Empty: one is generated and shown once. Replacing a secret keeps the old one valid for a grace period.</p>
          </div>
          {save.error && <Failure error={save.error} what="save the Vapi account" testId="vapi-failure" />}
          <div>
            <button type="submit" className="primary" disabled={save.busy || !apiKey.trim()} data-testid="vapi-submit">
              {save.busy ? 'Checking with Vapi…' : cred ? 'Replace' : 'Connect Vapi'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
