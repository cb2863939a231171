/** What the connections pages say about a project's CRM link and the agency's vendor accounts. Pure. */
import type { Agency, Alert, CredentialSummary, Project } from '../api/types';

/** When the project was found disconnected: the newest `project.disconnected` alert naming it, if any. */
export function disconnectedAt(project: Pick<Project, 'id' | 'status'>, alerts: readonly Alert[]): string | null {
  if (project.status !== 'disconnected') return null;
  const mine = alerts.filter((a) => a.kind === 'project.disconnected' && (a.payload as { projectId?: unknown }).projectId === project.id);
  return mine.map((a) => a.createdAt).sort().at(-1) ?? null;
}

/** The agency-wide credential of a vendor, when set (a summary: never the secret). */
export function credentialOf(agency: Pick<Agency, 'credentials'>, provider: CredentialSummary['provider']): CredentialSummary | null {
  return agency.credentials.find((c) => c.provider === provider && c.owner === 'agency') ?? null;
}

export const CRM_NAMES: Record<Project['crm'], string> = { crm_a: 'GoHighLevel', crm_b: 'CRM B' };

/** The status as a sentence's start, for people (the badge shows the raw word). */
export const STATUS_TEXT: Record<Project['status'], string> = {
  live: 'Live: connected and dialling',
  stopped: 'Stopped: connected, not dialling (takes no plan slot)',
  disconnected: 'Disconnected: the CRM refused the credential; reconnect it with a new one',
};

/** Hours of grace for a rotation, as the API takes it (seconds, at most 30 days). */
export function graceSeconds(hours: number): number {
  return Math.max(0, Math.min(720, Math.round(hours))) * 3600;
}
