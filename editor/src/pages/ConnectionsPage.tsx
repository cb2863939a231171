/**
 * Where the agency's connections are kept: each project's CRM location (status, the CRM's reason
 * when disconnected, reconnect), connecting a new GoHighLevel location, Twilio, Vapi, and the
 * signing secret of our call events. Credentials and secrets are sent, never read back.
 */
import { useState } from 'react';
import type { Project } from '../api/types';
import { ConnectLocationForm } from '../components/connections/ConnectLocationForm';
import { ProjectStatus } from '../components/connections/ProjectStatus';
import { SigningSecretPanel } from '../components/connections/SigningSecretPanel';
import { TwilioPanel } from '../components/connections/TwilioPanel';
import { VapiPanel } from '../components/connections/VapiPanel';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { Failure } from '../components/console/Failure';
import { useConnections } from '../hooks/use-connections';
import { CRM_NAMES, disconnectedAt } from '../model/connections';
import { linkProps } from '../routing';
import { TableHead } from '../components/console/TableHead';

export function ConnectionsPage() {
  const data = useConnections();
  const [connected, setConnected] = useState<Project | null>(null);
  return (
    <>
      <ConsoleNav current="connections" />
      <main className="picker wide" aria-labelledby="connections-title" data-testid="connections-page">
        <h1 id="connections-title">Connections</h1>
        {data.state === 'loading' && <p data-testid="connections-loading">Loading the agency&apos;s connections…</p>}
        {data.state === 'error' && <Failure error={data.error} what="read the agency's connections" onRetry={data.reload} />}
        {data.state === 'done' && (
          <>
            <section className="console-section" aria-labelledby="locations-title" data-testid="locations">
              <h2 id="locations-title">CRM locations</h2>
              <p className="field-hint">
                {data.value.agency.liveProjects} of {data.value.agency.planLimit} live projects the plan allows.
              </p>
              {data.value.projects.length === 0 ? (
                <p data-testid="locations-empty">No location is connected yet: connect one below.</p>
              ) : (
                <table className="console-table" data-testid="locations-table">
                  <TableHead columns={['Project', 'CRM', 'Status']} actions />
                  <tbody>
                    {data.value.projects.map((p) => (
                      <tr key={p.id} data-testid={`location-${p.locationId}`}>
                        <td data-label="Project">
                          <strong>{p.businessName || p.locationId}</strong>
                          <br />
                          <span className="field-hint">{p.locationId}</span>
                        </td>
                        <td data-label="CRM">{CRM_NAMES[p.crm]}</td>
                        <td data-label="Status">
                          <ProjectStatus project={p} since={disconnectedAt(p, data.value.alerts)} />
                        </td>
                        <td data-label="">
                          {p.crm === 'crm_a' && (
                            <a {...linkProps({ name: 'project-connection', locationId: p.locationId })} data-testid={`manage-${p.locationId}`}>
                              {p.status === 'disconnected' ? 'Reconnect…' : 'Connection…'}
                            </a>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <h3>Connect a GoHighLevel location</h3>
              {connected && (
                <p role="status" data-testid="connected-note">
                  Connected {connected.businessName || connected.locationId} ({connected.status}).
                </p>
              )}
              <ConnectLocationForm
                onConnected={(p) => {
                  setConnected(p);
                  data.reload();
                }}
              />
            </section>
            <TwilioPanel agency={data.value.agency} onChanged={data.reload} />
            <VapiPanel agency={data.value.agency} onChanged={data.reload} />
            <SigningSecretPanel />
          </>
        )}
      </main>
    </>
  );
}
