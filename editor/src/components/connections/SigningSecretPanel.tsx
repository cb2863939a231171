/**
 * The secret our call and contact events are signed with (X-Signature). It can be shown once;
 * after that, rotating makes a new one (shown once) while the old one still verifies for the
 * grace period chosen, so senders can switch without losing a delivery.
 */
import { useState } from 'react';
import { agencyApi } from '../../api/agency';
import { ApiError } from '../../api/client';
import type { SigningSecret } from '../../api/types';
import { useAction } from '../../hooks/use-action';
import { graceSeconds } from '../../model/connections';
import { Failure } from '../console/Failure';
import { SecretOnce } from '../console/SecretOnce';

function Shown({ secret, onDone }: { secret: SigningSecret; onDone(): void }) {
  return (
    <div data-testid="signing-answer">
      <SecretOnce label="Signing secret" value={secret.secret} testId="signing-secret" />
      <p className="field-hint">
        Sign each delivery: header <code>{secret.header}</code>, <code>{secret.scheme}</code>.
      </p>
      {secret.previousValidUntil && (
        <p data-testid="signing-grace">
          The previous secret still verifies until <time dateTime={secret.previousValidUntil}>{new Date(secret.previousValidUntil).toLocaleString()}</time>.
        </p>
      )}
      <button type="button" className="primary" onClick={onDone} data-testid="signing-done">
        Done: I have copied it
      </button>
    </div>
  );
}

export function SigningSecretPanel() {
  const [hours, setHours] = useState(24);
  const reveal = useAction(agencyApi.revealSigningSecret);
  const rotate = useAction(agencyApi.rotateSigningSecret);
  const shown = reveal.result ?? rotate.result;
  const alreadyShown = reveal.error instanceof ApiError && reveal.error.body.code === 'SecretAlreadyShown';
  return (
    <section className="console-section" aria-labelledby="signing-title" data-testid="signing">
      <h2 id="signing-title">Call events signing secret</h2>
      <p className="field-hint">
        Your voice platform signs the call events it posts to <code>/api/events/calls</code> (and a CRM its contact events) with this secret.
      </p>
      {shown ? (
        <Shown
          secret={shown}
          onDone={() => {
            reveal.reset();
            rotate.reset();
          }}
        />
      ) : (
        <>
          <div className="modal-actions">
            <button type="button" onClick={() => void reveal.run()} disabled={reveal.busy} data-testid="signing-reveal">
              Show it (once)
            </button>
          </div>
          {alreadyShown && (
            <p data-testid="signing-already-shown">It was already shown once and is not shown again: rotate it to get a new one.</p>
          )}
          {reveal.error && !alreadyShown && <Failure error={reveal.error} what="show the signing secret" testId="signing-failure" />}
          <form
            data-testid="rotate-form"
            onSubmit={(e) => {
              e.preventDefault();
              void rotate.run(graceSeconds(hours));
            }}
          >
            <div className="field">
              <label htmlFor="rotate-grace">The old secret still verifies for (hours)</label>
              <input id="rotate-grace" type="number" min={0} max={720} value={hours} onChange={(e) => setHours(Number(e.target.value))} data-testid="rotate-grace" />
            </div>
            {rotate.error && <Failure error={rotate.error} what="rotate the signing secret" testId="rotate-failure" />}
            <div>
              <button type="submit" className="danger" disabled={rotate.busy} data-testid="rotate-submit">
                Rotate: make a new secret
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}
