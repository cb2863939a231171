/**
 * One project's CRM connection: its status (live, stopped, or disconnected with what the CRM
 * answered and since when), what was read from the location, and reconnecting with a new token.
 * A key that may not reconnect sees the status only.
 */
import { agencyApi } from '../api/agency';
import { ApiError } from '../api/client';
import { projectsApi } from '../api/endpoints';
import type { Alert } from '../api/types';
import { ProjectStatus } from '../components/connections/ProjectStatus';
import { ReconnectForm } from '../components/connections/ReconnectForm';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { Failure } from '../components/console/Failure';
import { useCaller } from '../hooks/use-caller';
import { useResource } from '../hooks/use-resource';
import { CRM_NAMES, disconnectedAt } from '../model/connections';
import { linkProps } from '../routing';

/** The alerts, for when a disconnection was noticed; a key that may not read them gets none. */
const alertsIfAllowed = (): Promise<Alert[]> => agencyApi.alerts().catch((err: unknown) => (err instanceof ApiError && err.isForbidden ? [] : Promise.reject(err)));

const LOCATION_FIELDS = [
  ['name', 'Name'],
  ['timezone', 'Time zone'],
  ['phone', 'Phone'],
  ['email', 'Email'],
  ['address', 'Address'],
  ['city', 'City'],
  ['website', 'Website'],
] as const;

export function ProjectConnectionPage({ locationId }: { locationId: string }) {
  const caller = useCaller();
  const data = useResource(async () => {
    const [project, alerts] = await Promise.all([projectsApi.get(locationId), caller?.agency ? alertsIfAllowed() : Promise.resolve([])]);
    return { project, alerts };
  }, [locationId, caller?.agency]);
  const mayReconnect = caller?.key ? caller.key.role === 'agency_admin' && caller.key.scopes.includes('projects:write') : !!caller?.agency;
  return (
    <>
      <ConsoleNav current="connections" />
      <main className="picker" aria-labelledby="project-connection-title" data-testid="project-connection-page">
        <nav aria-label="Breadcrumb" className="crumbs">
          {caller?.agency ? <a {...linkProps({ name: 'connections' })}>Connections</a> : <a {...linkProps({ name: 'projects' })}>Projects</a>} › {locationId}
        </nav>
        <h1 id="project-connection-title">CRM connection</h1>
        {data.state === 'loading' && <p>Loading the project…</p>}
        {data.state === 'error' && <Failure error={data.error} what="read this project" onRetry={data.reload} />}
        {data.state === 'done' && (
          <>
            <section className="console-section" aria-labelledby="project-status-title">
              <h2 id="project-status-title">{data.value.project.businessName || locationId}</h2>
              <ProjectStatus project={data.value.project} since={disconnectedAt(data.value.project, data.value.alerts)} />
              <dl className="facts">
                <dt>CRM</dt>
                <dd>{CRM_NAMES[data.value.project.crm]}</dd>
                <dt>Location ID</dt>
                <dd>{data.value.project.locationId}</dd>
                {LOCATION_FIELDS.map(([k, label]) => {
                  const v = data.value.project.crm_a?.[k];
                  return v ? [<dt key={`${k}-t`}>{label}</dt>, <dd key={`${k}-d`}>{v}</dd>] : null;
                })}
              </dl>
              <a {...linkProps({ name: 'project', locationId })}>The project&apos;s campaigns</a>
            </section>
            {data.value.project.crm === 'crm_a' && mayReconnect && (
              <section className="console-section" aria-labelledby="reconnect-title">
                <h2 id="reconnect-title">{data.value.project.status === 'disconnected' ? 'Reconnect' : 'Replace the token'}</h2>
                <ReconnectForm project={data.value.project} onReconnected={data.reload} />
              </section>
            )}
          </>
        )}
      </main>
    </>
  );
}
