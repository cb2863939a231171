/**
 * The agency's API keys: who has which role, scopes and projects, and whether each still works.
 * A new key's secret is shown once, in the dialog that made it, with a copy button; closing the
 * dialog forgets it. Revoking takes effect on the key's next request. The key you are signed in
 * with cannot revoke itself.
 */
import { useState } from 'react';
import type { ApiKey, CreatedApiKey } from '../api/types';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { Failure } from '../components/console/Failure';
import { SecretOnce } from '../components/console/SecretOnce';
import { Modal } from '../components/dialogs/Modal';
import { NewKeyForm } from '../components/keys/NewKeyForm';
import { useApiKeys } from '../hooks/use-api-keys';
import { TableHead } from '../components/console/TableHead';

const when = (iso: string | null) => (iso ? <time dateTime={iso}>{new Date(iso).toLocaleString()}</time> : '—');

function KeyRow({ k, me, names, onRevoke }: { k: ApiKey; me: ApiKey | null; names: Map<string, string>; onRevoke(k: ApiKey): void }) {
  const own = me?.id === k.id;
  return (
    <tr data-testid={`key-row-${k.id}`} data-status={k.status}>
      <td data-label="Name">
        <strong>{k.name}</strong>
        {own && <span className="own-key"> (you are signed in with this key)</span>}
        <br />
        <code>{k.prefix}…</code>
      </td>
      <td data-label="Role">{k.role === 'agency_admin' ? 'Agency admin' : 'Project user'}</td>
      <td data-label="Scopes" className="key-scopes">
        {k.scopes.map((s) => (
          <code key={s}>{s}</code>
        ))}
      </td>
      <td data-label="Projects">{k.role === 'agency_admin' ? 'All' : k.projectIds.map((id) => names.get(id) ?? id).join(', ')}</td>
      <td data-label="Status">
        <span className={`status status-${k.status}`}>{k.status}</span>
        {k.revokedAt && <> {when(k.revokedAt)}</>}
        {k.status === 'active' && k.expiresAt && <> until {when(k.expiresAt)}</>}
      </td>
      <td data-label="Created">{when(k.createdAt)}</td>
      <td data-label="">
        {k.status === 'active' && !own && (
          <button type="button" className="danger" onClick={() => onRevoke(k)} data-testid={`key-revoke-${k.id}`}>
            Revoke…
          </button>
        )}
      </td>
    </tr>
  );
}

export function KeysPage() {
  const { data, busy, refusal, create, revoke } = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  return (
    <>
      <ConsoleNav current="keys" />
      <main className="picker wide" aria-labelledby="keys-title" data-testid="keys-page">
        <div className="page-head">
          <h1 id="keys-title">API keys</h1>
          {data.state === 'done' && data.value.me && (
            <button type="button" className="primary" onClick={() => setCreating(true)} data-testid="key-new">
              New key…
            </button>
          )}
        </div>
        <p className="field-hint">
          A key is shown once, when it is made; the agency keeps only a hash of it. A key never gets a scope or a project the key that makes it lacks. Revoking
          works from the key&apos;s next request.
        </p>
        {data.state === 'loading' && <p data-testid="keys-loading">Loading keys…</p>}
        {data.state === 'error' && <Failure error={data.error} what="list the agency's API keys" onRetry={data.reload} />}
        {data.state === 'done' && !data.value.me && (
          <p role="alert" data-testid="keys-me-unknown">
            The key you are signed in with is not among the agency&apos;s active keys, so what it may grant is not known: new keys cannot be made here.
          </p>
        )}
        {data.state === 'done' && data.value.keys.length === 0 && <p data-testid="keys-empty">No keys yet.</p>}
        {data.state === 'done' && data.value.keys.length > 0 && (
          <table className="console-table" data-testid="keys-table">
            <TableHead columns={['Name', 'Role', 'Scopes', 'Projects', 'Status', 'Created']} actions />
            <tbody>
              {data.value.keys.map((k) => (
                <KeyRow key={k.id} k={k} me={data.value.me} names={new Map(data.value.projects.map((p) => [p.id, p.businessName || p.locationId]))} onRevoke={setRevoking} />
              ))}
            </tbody>
          </table>
        )}
        {refusal && !creating && !revoking && (
          <p role="alert" className="field-error" data-testid="keys-refusal">
            {refusal}
          </p>
        )}
      </main>
      {creating && data.state === 'done' && data.value.me && (
        <Modal title="New API key" testId="new-key-dialog" onClose={() => setCreating(false)} wide>
          <NewKeyForm
            me={data.value.me}
            projects={data.value.projects}
            busy={busy}
            refusal={refusal}
            onCancel={() => setCreating(false)}
            onCreate={async (form) => {
              const made = await create(form);
              if (!made) return;
              setCreating(false);
              setCreated(made);
            }}
          />
        </Modal>
      )}
      {created && (
        <Modal title={`Key “${created.key.name}” created`} testId="key-created" onClose={() => setCreated(null)}>
          <SecretOnce label="The API key" value={created.secret} testId="key-secret" />
          <p>Give it to whoever uses it, over a safe channel. It is not kept in this browser, and the agency keeps only a hash: if it is lost, make another.</p>
          <div className="modal-actions">
            <button type="button" className="primary" onClick={() => setCreated(null)} data-testid="key-created-done">
              Done: I have copied it
            </button>
          </div>
        </Modal>
      )}
      {revoking && (
        <Modal title={`Revoke “${revoking.name}”?`} testId="key-revoke-dialog" onClose={() => setRevoking(null)}>
          <p>
            Requests with this key are refused (401) from the next one on. This cannot be undone: make a new key if it is needed again.
          </p>
          {refusal && (
            <p role="alert" className="field-error">
              Not revoked: {refusal}
            </p>
          )}
          <div className="modal-actions">
            <button
              type="button"
              className="danger"
              disabled={busy}
              data-autofocus
              data-testid="key-revoke-confirm"
              onClick={async () => {
                if (await revoke(revoking)) setRevoking(null);
              }}
            >
              Revoke
            </button>
            <button type="button" onClick={() => setRevoking(null)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
