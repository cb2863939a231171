import { normalizeOutcome, OUTCOMES } from '../../../engine/graph/outcomes.js';
import { AGENT_TYPES } from '../../../schemas/agent.js';
import { legacyAgentType } from '../../catalog.js';
import type { CallRecordDoc, Store, StoredCall } from '../../store/index.js';
import { canAccessProject, type Actor } from '../actor.js';
import { invalid, notFound } from '../errors.js';
import { calendarDate } from './calendar-date.js';

/**
 * Spec 2.6, for records stored before it was settled too: `agentType` in the legacy template
 * vocabulary (never an Agents-module type such as `outreach`), `date` in the project's time zone.
 */
async function callDoc(store: Store, agencyId: string, c: StoredCall): Promise<CallRecordDoc & { reviewed: boolean }> {
  const doc = { ...c.doc, reviewed: c.reviewed };
  if ((AGENT_TYPES as readonly string[]).includes(doc.agentType)) {
    doc.agentType = legacyAgentType(doc.agentType, (await store.agents.get(agencyId, c.agentId))?.capabilities ?? []);
  }
  if (c.timezone) doc.date = calendarDate(doc.dateTime, c.timezone);
  return doc;
}

async function loadCall(store: Store, actor: Actor, callId: string): Promise<StoredCall> {
  const call = await store.calls.get(actor.agencyId, callId);
  // Spec 4.9: not found both when absent and when the actor may not see its project.
  if (!call || !canAccessProject(actor, call.projectId)) throw notFound(`call ${callId} not found`);
  return call;
}

export const getCall = async (store: Store, actor: Actor, callId: string) => callDoc(store, actor.agencyId, await loadCall(store, actor, callId));

export interface CallListRequest {
  excludeReviewed?: 'true' | 'false';
  disposition?: string;
  campaignId?: string;
  from?: string;
  to?: string;
  cursor?: string;
  limit?: number;
}

/** Calls, newest first, with the spec's filters and an opaque cursor (keyset pagination). */
export async function listCalls(store: Store, actor: Actor, query: CallListRequest) {
  let disposition: string | null = null;
  if (query.disposition !== undefined) {
    const outcome = normalizeOutcome(query.disposition);
    if (!outcome) throw invalid(`query.disposition "${query.disposition}" is not a known outcome`);
    disposition = OUTCOMES[outcome].type;
  }
  let cursorAt: string | null = null;
  let cursorId: string | null = null;
  if (query.cursor) {
    const [at, id] = Buffer.from(query.cursor, 'base64url').toString().split('|');
    if (!at || !id || Number.isNaN(Date.parse(at))) throw invalid('query.cursor is not a cursor this API returned');
    cursorAt = at;
    cursorId = id;
  }
  const page = await store.calls.list({
    agencyId: actor.agencyId,
    projects: actor.projectIds ? JSON.stringify([...actor.projectIds]) : null,
    excludeReviewed: query.excludeReviewed === 'true' ? 1 : 0,
    disposition,
    campaignId: query.campaignId ?? null,
    from: query.from ? new Date(query.from).toISOString() : null,
    to: query.to ? new Date(query.to).toISOString() : null,
    cursorAt,
    cursorId,
    limit: query.limit ?? 25,
  });
  return {
    calls: await Promise.all(page.calls.map((c) => callDoc(store, actor.agencyId, c))),
    nextCursor: page.next ? Buffer.from(`${page.next.at}|${page.next.id}`).toString('base64url') : null,
  };
}

export async function markReviewed(store: Store, actor: Actor, callId: string, reviewed: boolean) {
  await loadCall(store, actor, callId);
  await store.calls.setReviewed(actor.agencyId, callId, reviewed);
  return getCall(store, actor, callId);
}
