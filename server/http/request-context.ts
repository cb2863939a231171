import type { ApiKey, Role, Scope } from '../store/api-keys.js';
import { AppError } from './errors.js';

/** What a request is allowed to see, established by the auth middleware. */
export interface Caller {
  keyId: string;
  agencyId: string;
  role: Role;
  scopes: ReadonlySet<Scope>;
  /** null: every project of the agency (agency_admin) */
  projectIds: ReadonlySet<string> | null;
}

export function callerOf(key: ApiKey): Caller {
  return {
    keyId: key.id,
    agencyId: key.agencyId,
    role: key.role,
    scopes: new Set(key.scopes),
    projectIds: key.role === 'agency_admin' ? null : new Set(key.projectIds),
  };
}

/** 403 for a project_user reaching a project of its agency it was not given. */
export function assertProjectAccess(caller: Caller, projectId: string): void {
  if (caller.projectIds && !caller.projectIds.has(projectId)) {
    // The project is not named: it may be derived from the resource, and a project_user need not learn it.
    throw new AppError('FORBIDDEN', 'this API key has no access to the project of this resource');
  }
}

export function canAccessProject(caller: Caller, projectId: string): boolean {
  return !caller.projectIds || caller.projectIds.has(projectId);
}
