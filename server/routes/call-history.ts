import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { canAccessProject } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { StoredCall } from '../store/calls.js';
import { CallRecord } from '../../schemas/call.js';
import { Id, ok } from '../../schemas/common.js';
import { OutcomeSpelling } from '../../schemas/workflow.js';
import { normalizeOutcome, OUTCOMES } from '../../engine/graph/outcomes.js';
import { AGENT_TYPES } from '../../schemas/agent.js';
import { legacyAgentType } from '../catalog.js';
import { calendarDate } from '../calls/accept-call-ended.js';

const anyRole = ['agency_admin', 'project_user'] as const;
const CallIdParams = { type: 'object', required: ['callId'], properties: { callId: Id } } as const;

// `excludeReviewed` is text on purpose: spec 7 wants exactly "true" or "false", nothing coerced.
const ListCallsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    excludeReviewed: { enum: ['true', 'false'], description: 'exactly `true` or `false`', 'x-error': '{at} must be exactly "true" or "false", got "{value}"' },
    disposition: OutcomeSpelling,
    campaignId: Id,
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    cursor: { type: 'string', maxLength: 500, description: 'opaque: the nextCursor of the previous page, as returned; any other value is a 400' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
  },
} as const;

export function callHistoryRoutes(s: Services): RouteDef[] {
  const { calls } = s.repos;
  /**
   * Spec 2.6, for records stored before it was settled too: `agentType` in the legacy template
   * vocabulary (never an Agents-module type such as `outreach`), `date` in the project's time zone.
   */
  const presenter = (agencyId: string) => (c: StoredCall) => {
    const doc = { ...c.doc, reviewed: c.reviewed };
    if ((AGENT_TYPES as readonly string[]).includes(doc.agentType)) {
      doc.agentType = legacyAgentType(doc.agentType, s.repos.agents.get(agencyId, c.agentId)?.capabilities ?? []);
    }
    if (c.timezone) doc.date = calendarDate(doc.dateTime, c.timezone);
    return doc;
  };
  const load = (agencyId: string, callId: string, caller: Parameters<typeof canAccessProject>[0]) => {
    const call = calls.get(agencyId, callId);
    // Spec 4.9: 404 both when absent and when the caller may not see its project.
    if (!call || !canAccessProject(caller, call.projectId)) throw notFound(`call ${callId} not found`);
    return call;
  };
  return [
    defineRoute({
      method: 'get', path: '/api/call-history/by-call-id/:callId', operationId: 'getCallByCallId', tag: 'Call history',
      summary: 'One call by platform call id, with transcript and recorded fields',
      access: { scope: 'calls:read', roles: anyRole }, params: CallIdParams,
      responses: { 200: { description: 'the call', schema: ok(CallRecord) } },
      handler: ({ caller, params }) => ({ success: true, data: presenter(caller.agencyId)(load(caller.agencyId, params.callId, caller)) }),
    }),
    defineRoute({
      method: 'get', path: '/api/call-history', operationId: 'listCalls', tag: 'Call history',
      summary: 'Calls, newest first, with filters and cursor pagination',
      access: { scope: 'calls:read', roles: anyRole }, query: ListCallsQuery,
      responses: {
        200: {
          description: 'a page of calls',
          schema: ok({ type: 'object', required: ['calls', 'nextCursor'], properties: { calls: { type: 'array', items: CallRecord }, nextCursor: { type: ['string', 'null'] } } }),
        },
      },
      handler: ({ caller, query }) => {
        let disposition: string | null = null;
        if (query.disposition !== undefined) {
          const outcome = normalizeOutcome(query.disposition);
          if (!outcome) throw new AppError('VALIDATION', `query.disposition "${query.disposition}" is not a known outcome`);
          disposition = OUTCOMES[outcome].type;
        }
        let cursorAt: string | null = null;
        let cursorId: string | null = null;
        if (query.cursor) {
          const [at, id] = Buffer.from(query.cursor, 'base64url').toString().split('|');
          if (!at || !id || Number.isNaN(Date.parse(at))) throw new AppError('VALIDATION', 'query.cursor is not a cursor this API returned');
          cursorAt = at;
          cursorId = id;
        }
        const page = calls.list({
          agencyId: caller.agencyId,
          projects: caller.projectIds ? JSON.stringify([...caller.projectIds]) : null,
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
          success: true,
          data: { calls: page.calls.map(presenter(caller.agencyId)), nextCursor: page.next ? Buffer.from(`${page.next.at}|${page.next.id}`).toString('base64url') : null },
        };
      },
    }),
    defineRoute({
      method: 'patch', path: '/api/call-history/by-call-id/:callId', operationId: 'markCallReviewed', tag: 'Call history',
      summary: 'Mark a call reviewed (or not)',
      access: { scope: 'calls:write', roles: anyRole }, params: CallIdParams,
      body: { type: 'object', required: ['reviewed'], additionalProperties: false, properties: { reviewed: { type: 'boolean' } } },
      responses: { 200: { description: 'the call', schema: ok(CallRecord) } },
      handler: ({ caller, params, body }) => {
        load(caller.agencyId, params.callId, caller);
        calls.setReviewed(caller.agencyId, params.callId, body.reviewed);
        return { success: true, data: presenter(caller.agencyId)(load(caller.agencyId, params.callId, caller)) };
      },
    }),
  ];
}
