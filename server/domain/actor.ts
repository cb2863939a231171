import type { ApiKey, Role, Scope } from '../store/index.js';
import { forbidden } from './errors.js';

/** Spec 7: the power dialer's refusal says, in so many words, that the caller has no access to the project. */
export const NO_PROJECT_ACCESS = 'You do not have access to this project';

/** Who asks, and what they may see: an API key's agency, role, scopes and projects. */
export interface Actor {
  keyId: string;
  agencyId: string;
  role: Role;
  scopes: ReadonlySet<Scope>;
  /** null: every project of the agency (agency_admin) */
  projectIds: ReadonlySet<string> | null;
}

export function actorOf(key: ApiKey): Actor {
  return {
    keyId: key.id,
    agencyId: key.agencyId,
    role: key.role,
    scopes: new Set(key.scopes),
    projectIds: key.role === 'agency_admin' ? null : new Set(key.projectIds),
  };
}

/** FORBIDDEN for a project_user reaching a project of its agency it was not given. */
export function assertProjectAccess(actor: Actor, projectId: string): void {
  if (actor.projectIds && !actor.projectIds.has(projectId)) {
    // The project is not named: it may be derived from the resource, and a project_user need not learn it.
    throw forbidden('this API key has no access to the project of this resource');
  }
}

export function canAccessProject(actor: Actor, projectId: string): boolean {
  return !actor.projectIds || actor.projectIds.has(projectId);
}
