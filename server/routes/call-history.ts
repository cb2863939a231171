import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { CallRecord } from '../../schemas/call.js';
import { Id, ok } from '../../schemas/common.js';
import { OutcomeSpelling } from '../../schemas/workflow.js';
import { getCall, listCalls, markReviewed } from '../domain/calls/history.js';

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

export function callHistoryRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'get', path: '/api/call-history/by-call-id/:callId', operationId: 'getCallByCallId', tag: 'Call history',
      summary: 'One call by platform call id, with transcript and recorded fields',
      access: { scope: 'calls:read', roles: anyRole }, params: CallIdParams,
      responses: { 200: { description: 'the call', schema: ok(CallRecord) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: await getCall(services.store, caller, params.callId) }),
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
      handler: async ({ caller, query, services }) => ({ success: true, data: await listCalls(services.store, caller, query) }),
    }),
    defineRoute({
      method: 'patch', path: '/api/call-history/by-call-id/:callId', operationId: 'markCallReviewed', tag: 'Call history',
      summary: 'Mark a call reviewed (or not)',
      access: { scope: 'calls:write', roles: anyRole }, params: CallIdParams,
      body: { type: 'object', required: ['reviewed'], additionalProperties: false, properties: { reviewed: { type: 'boolean' } } },
      responses: { 200: { description: 'the call', schema: ok(CallRecord) } },
      handler: async ({ caller, params, body, services }) => ({ success: true, data: await markReviewed(services.store, caller, params.callId, body.reviewed) }),
    }),
  ];
}
