/** Reconnect a project with a new token: the same project (campaigns, agents, workflows and history kept). */
import { useState } from 'react';
import { projectsApi } from '../../api/endpoints';
import type { Project } from '../../api/types';
import { useAction } from '../../hooks/use-action';
import { Failure } from '../console/Failure';

export function ReconnectForm({ project, onReconnected }: { project: Project; onReconnected(p: Project): void }) {
  const [token, setToken] = useState('');
  const reconnect = useAction((t: string) => projectsApi.reconnect(project.id, { token: t }));
  return (
    <form
      data-testid="reconnect-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const saved = await reconnect.run(token.trim());
        setToken('');
        if (saved) onReconnected(saved);
      }}
    >
      <div className="field">
        <label htmlFor="reconnect-token">New Private Integration token for {project.locationId}</label>
        <input id="reconnect-token" type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" data-testid="reconnect-token" />
        <p className="field-hint">Verified against this location first. Runs that failed because the old credential was refused can then be retried from Failed runs.</p>
      </div>
      {reconnect.error && <Failure error={reconnect.error} what="reconnect this project" testId="reconnect-failure" />}
      <div>
        <button type="submit" className="primary" disabled={reconnect.busy || !token.trim()} data-testid="reconnect-submit">
          {reconnect.busy ? 'Checking the token…' : 'Reconnect'}
        </button>
      </div>
    </form>
  );
}
