import { agentsApi, projectsApi } from '../api/endpoints';
import { useAsync } from '../hooks/use-async';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { linkProps } from '../routing';

/** Step two: which campaign (and so which agent's workflow). */
export function ProjectPage({ locationId }: { locationId: string }) {
  const data = useAsync(() => Promise.all([projectsApi.campaigns(locationId), agentsApi.list(locationId)]), [locationId]);
  return (
    <>
      <ConsoleNav current="projects" />
      <main className="picker" aria-labelledby="campaigns-title">
        <nav aria-label="Breadcrumb" className="crumbs">
          <a {...linkProps({ name: 'projects' })}>Projects</a> › {locationId}
        </nav>
        <div className="page-head">
          <h1 id="campaigns-title">Campaigns</h1>
          <a {...linkProps({ name: 'project-connection', locationId })} data-testid="project-connection-link">
            CRM connection
          </a>
        </div>
        {data.state === 'loading' && <p>Loading campaigns…</p>}
        {data.state === 'error' && <p role="alert">{data.error.message}</p>}
        {data.state === 'done' && data.value[0].length === 0 && <p>No campaigns in this project yet.</p>}
        {data.state === 'done' && (
          <ul className="cards" data-testid="campaign-list">
            {data.value[0].map((c) => {
              const agent = data.value[1].find((a) => a.id === c.agentId);
              return (
                <li key={c.id}>
                  <a className="card" data-testid={`campaign-${c.id}`} {...linkProps({ name: 'agent', agentId: c.agentId, campaignId: c.id, locationId })}>
                    <strong>{c.name}</strong>
                    <span>
                      Agent {agent?.name ?? c.agentId} · {c.active ? 'active' : 'paused'}
                    </span>
                  </a>
                  <p className="card-links">
                    <a {...linkProps({ name: 'cadence', locationId, campaignId: c.id })} data-testid={`cadence-link-${c.id}`}>
                      Cadence status
                    </a>
                    <a {...linkProps({ name: 'calls', filters: { campaignId: c.id } })} data-testid={`calls-link-${c.id}`}>
                      Calls
                    </a>
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </main>
    </>
  );
}
