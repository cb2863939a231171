import { projectsApi } from '../api/endpoints';
import { useAsync } from '../hooks/use-async';
import { ConsoleNav } from '../components/console/ConsoleNav';
import { linkProps } from '../routing';

/** Step one: which project (a connected CRM location). */
export function ProjectsPage() {
  const projects = useAsync(() => projectsApi.list(), []);
  return (
    <>
      <ConsoleNav current="projects" />
      <main className="picker" aria-labelledby="projects-title">
        <div className="page-head">
          <h1 id="projects-title">Projects</h1>
          <a {...linkProps({ name: 'failed-runs' })} data-testid="failed-runs-link">
            Failed runs
          </a>
        </div>
        {projects.state === 'loading' && <p>Loading projects…</p>}
        {projects.state === 'error' && <p role="alert">{projects.error.message}</p>}
        {projects.state === 'done' && projects.value.length === 0 && <p>No projects yet: connect a CRM location first.</p>}
        {projects.state === 'done' && (
          <ul className="cards" data-testid="project-list">
            {projects.value.map((p) => (
              <li key={p.id}>
                <a className="card" data-testid={`project-${p.locationId}`} {...linkProps({ name: 'project', locationId: p.locationId })}>
                  <strong>{p.businessName || p.locationId}</strong>
                  <span>
                    {p.locationId} · {p.status} · {p.campaigns?.length ?? 0} campaign{p.campaigns?.length === 1 ? '' : 's'}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
