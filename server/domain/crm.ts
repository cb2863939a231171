import type { Services } from '../services.js';
import type { ProjectRecord } from '../store/index.js';
import { vendorFailure } from '../providers/vendor-errors.js';
import type { Actor } from './actor.js';
import { loadAgent } from './agents.js';
import { notFound } from './errors.js';
import { assertCrmUsable } from './projects.js';

/** The agent's project, connected to its CRM (a disconnected one cannot be read). */
async function projectOfAgent(s: Services, actor: Actor, agentId: string): Promise<ProjectRecord> {
  const agent = await loadAgent(s.store, actor, agentId);
  const p = await s.store.projects.get(actor.agencyId, agent.projectId);
  if (!p) throw notFound('the project of this agent no longer exists');
  assertCrmUsable(p);
  return p;
}

export type CrmSetupRead = 'customValues' | 'customFields' | 'pipelines' | 'calendars';
const WORDS: Record<CrmSetupRead, string> = { customValues: 'custom values', customFields: 'custom fields', pipelines: 'pipelines', calendars: 'calendars' };

/**
 * A setup read of the agent's CRM location for the editor's pickers (spec 4.10, 4.11): the real
 * CRM when the project is connected to one (cached briefly), the sandbox otherwise.
 */
export async function readCrmSetup<K extends CrmSetupRead>(s: Services, actor: Actor, agentId: string, what: K): Promise<Awaited<ReturnType<Services['providers']['directory'][K]>>> {
  const project = await projectOfAgent(s, actor, agentId);
  try {
    return (await s.providers.directory[what](actor.agencyId, project.locationId)) as never;
  } catch (err) {
    throw vendorFailure(err, `reading the CRM's ${WORDS[what]}`);
  }
}
