/**
 * Connect a GoHighLevel location as a project: its id and a Private Integration token, verified
 * against the location before anything is stored (the project's name and time zone are read from
 * it). The token is sent once and never shown or kept here after the request.
 */
import { useState } from 'react';
import { projectsApi } from '../../api/endpoints';
import type { Project } from '../../api/types';
import { useAction } from '../../hooks/use-action';
import { Failure } from '../console/Failure';

export function ConnectLocationForm({ onConnected }: { onConnected(p: Project): void }) {
  const [locationId, setLocationId] = useState('');
  const [token, setToken] = useState('');
  const connect = useAction(projectsApi.connect);
  return (
    <form
      data-testid="connect-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const project = await connect.run({ crm: 'crm_a', locationId: locationId.trim(), credentials: { token: token.trim() } });
        setToken('');
        if (project) {
          setLocationId('');
          onConnected(project);
        }
      }}
    >
      <div className="field">
        <label htmlFor="connect-location">Location ID</label>
        <input id="connect-location" value={locationId} onChange={(e) => setLocationId(e.target.value)} autoComplete="off" spellCheck={false} data-testid="connect-location" />
        <p className="field-hint">GoHighLevel: Settings › Business Profile, the Location ID.</p>
      </div>
      <div className="field">
        <label htmlFor="connect-token">Private Integration token</label>
        <input id="connect-token" type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" data-testid="connect-token" />
        <p className="field-hint">GoHighLevel: Settings › Private Integrations, a token with contacts, opportunities, calendars and conversations. Verified now, stored sealed, never shown again.</p>
      </div>
      {connect.error && <Failure error={connect.error} what="connect this location" testId="connect-failure" />}
      <div>
        <button type="submit" className="primary" disabled={connect.busy || !locationId.trim() || !token.trim()} data-testid="connect-submit">
          {connect.busy ? 'Checking the token…' : 'Connect'}
        </button>
      </div>
    </form>
  );
}
