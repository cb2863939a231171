/**
 * What a new API key may be given: never a scope or project its creator lacks (the API refuses
 * them, 403), so the form offers only those. Pure.
 */
import type { ApiKey, Project, Role, Scope } from '../api/types';

/** Scopes grouped by what they reach, in the order the API lists them (`projects:read` → group `projects`). */
export function scopeGroups(scopes: readonly Scope[]): { group: string; scopes: Scope[] }[] {
  const groups = new Map<string, Scope[]>();
  for (const s of scopes) {
    const group = s.split(':')[0]!;
    groups.set(group, [...(groups.get(group) ?? []), s]);
  }
  return [...groups].map(([group, list]) => ({ group, scopes: list }));
}

/** The roles a key may give: an agency_admin key may make either; a project_user key cannot reach keys at all. */
export function grantableRoles(creator: Pick<ApiKey, 'role'>): Role[] {
  return creator.role === 'agency_admin' ? ['agency_admin', 'project_user'] : [];
}

/** The projects a new project_user key may be given: those its creator reaches (an agency_admin: all of the agency's). */
export function grantableProjects(creator: Pick<ApiKey, 'role' | 'projectIds'>, projects: readonly Project[]): Project[] {
  return creator.role === 'agency_admin' ? [...projects] : projects.filter((p) => creator.projectIds.includes(p.id));
}

export interface NewKeyForm {
  name: string;
  role: Role;
  scopes: Scope[];
  projectIds: string[];
  /** yyyy-mm-dd, or '' for never */
  expires: string;
}

/** What is missing before the form can be sent, by field; {} when it can. */
export function newKeyProblems(form: NewKeyForm, now: Date): Partial<Record<keyof NewKeyForm, string>> {
  const problems: Partial<Record<keyof NewKeyForm, string>> = {};
  if (!form.name.trim()) problems.name = 'Name the key (who or what uses it).';
  if (form.scopes.length === 0) problems.scopes = 'Choose at least one scope.';
  if (form.role === 'project_user' && form.projectIds.length === 0) problems.projectIds = 'A project key needs at least one project.';
  if (form.expires && Date.parse(`${form.expires}T23:59:59Z`) <= now.getTime()) problems.expires = 'Choose a day in the future, or leave it empty.';
  return problems;
}

/** The request body: projects only for a project_user key; an expiry at the end of the chosen day (UTC). */
export function newKeyBody(form: NewKeyForm) {
  return {
    name: form.name.trim(),
    role: form.role,
    scopes: form.scopes,
    ...(form.role === 'project_user' && { projectIds: form.projectIds }),
    ...(form.expires && { expiresAt: `${form.expires}T23:59:59Z` }),
  };
}
