/** A project's CRM connection in a few words: its status, and for a disconnected one why and since when. */
import type { Project } from '../../api/types';
import { STATUS_TEXT } from '../../model/connections';

const when = (iso: string) => <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;

export function ProjectStatus({ project, since }: { project: Project; since: string | null }) {
  return (
    <div className="project-status" data-testid={`status-${project.locationId}`} data-status={project.status}>
      <span className={`status status-${project.status}`}>{project.status}</span> <span className="field-hint">{STATUS_TEXT[project.status]}</span>
      {project.status === 'disconnected' && (
        <p className="disconnected-reason" data-testid={`reason-${project.locationId}`}>
          {project.disconnectedReason ? <>The CRM answered: “{project.disconnectedReason}”</> : 'The CRM gave no reason.'}
          {since ? <> Since {when(since)}.</> : <> Last changed {when(project.updatedAt)}.</>}
        </p>
      )}
    </div>
  );
}
