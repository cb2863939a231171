import { DocumentedImpactBody, ImpactBody, TargetQuery } from './workflow-tools.js';
import { ACTION_TYPES } from './workflow.js';

export const REPLAY_MAX_CALLS = 200;
export const REPLAY_MAX_DAYS = 30;

const common = {
  fromVersion: { type: 'integer', minimum: 0, description: 'the first graph: this stored version (0: the empty workflow); absent: the current version' },
  toVersion: { type: 'integer', minimum: 0, description: 'the second graph: this stored version. Send it or `graph`, not both' },
  days: { type: 'integer', minimum: 1, maximum: REPLAY_MAX_DAYS, default: 7, description: 'replay the calls of this many last days' },
  limit: { type: 'integer', minimum: 1, maximum: REPLAY_MAX_CALLS, default: REPLAY_MAX_CALLS, description: 'at most this many calls, the most recent first' },
} as const;

/** Two graphs (stored versions, or the current one and a graph not saved) and which calls. */
export const StartReplayBody = {
  type: 'object',
  additionalProperties: false,
  properties: { ...common, graph: { ...ImpactBody, description: 'the second graph, not saved (the editor\'s unsaved changes): as a PUT body without expectedVersion. Send it or `toVersion`, not both' } },
} as const;

export const DocumentedStartReplayBody = {
  ...StartReplayBody,
  properties: { ...common, graph: { ...DocumentedImpactBody, description: StartReplayBody.properties.graph.description } },
};

export const ReplayParams = {
  type: 'object',
  required: ['agentId', 'replayId'],
  properties: { agentId: { type: 'string', minLength: 1, maxLength: 200 }, replayId: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const ReplayQuery = {
  type: 'object',
  properties: {
    ...TargetQuery.properties,
    calls: { enum: ['all', 'changed', 'none'], default: 'all', description: 'which calls to list: all, only those that changed, or none (progress and the summary only)' },
  },
} as const;

const DryRunStep = {
  type: 'object',
  required: ['nodeId', 'type', 'status'],
  properties: {
    nodeId: { type: 'string' },
    type: { type: 'string' },
    label: { type: 'string' },
    status: { enum: ['acted', 'evaluated', 'skipped'], description: '`acted`: an action it would perform; `evaluated`: a branch; `skipped`: a draft' },
    handle: { type: 'string', description: 'a branch: the way it would take (`true`, `false`, a case id, `default`)' },
  },
} as const;

const DryRunEffect = {
  type: 'object',
  required: ['nodeId', 'type', 'key', 'text', 'detail'],
  properties: {
    nodeId: { type: 'string' },
    type: { enum: ACTION_TYPES },
    key: { type: 'string', description: 'what the effect is, compared between the graphs: `send-sms`, `add-tag:vm-left`, `move-stage:<stageId>`' },
    text: { type: 'string', description: 'in words: `SMS "Hi Ana, …"`, `tag vm-left`' },
    detail: { type: 'string', description: 'what may differ under the same key (the SMS text, the value set)' },
  },
} as const;

const DryRun = {
  type: ['object', 'null'],
  required: ['path', 'effects'],
  description: 'the path the run would take and what it would do, nothing performed; null when the call could not be replayed',
  properties: { path: { type: 'array', items: DryRunStep }, effects: { type: 'array', items: DryRunEffect } },
} as const;

const ReplayCall = {
  type: 'object',
  required: ['seq', 'executionId', 'callId', 'outcome', 'at', 'leadName', 'changed', 'error', 'contactRead', 'before', 'after', 'difference'],
  properties: {
    seq: { type: 'integer', minimum: 1 },
    executionId: { type: 'string', description: 'the real run of the call' },
    callId: { type: 'string' },
    outcome: { type: 'string' },
    at: { type: 'string', description: 'when the call ended' },
    leadName: { type: 'string' },
    changed: { type: 'boolean' },
    error: { type: ['string', 'null'], description: 'why the call could not be replayed' },
    contactRead: { type: 'boolean', description: "the run's stored input lacked the contact: it was read from the CRM, once" },
    before: DryRun,
    after: DryRun,
    difference: {
      type: ['object', 'null'],
      required: ['gained', 'lost', 'altered', 'pathChanged'],
      properties: {
        gained: { type: 'array', items: DryRunEffect, description: 'effects under the second graph only' },
        lost: { type: 'array', items: DryRunEffect, description: 'effects under the first graph only' },
        altered: { type: 'array', items: { type: 'object', required: ['before', 'after'], properties: { before: DryRunEffect, after: DryRunEffect } } },
        pathChanged: { type: 'boolean' },
      },
    },
  },
} as const;

const Side = {
  type: 'object',
  required: ['version', 'label'],
  properties: { version: { type: ['integer', 'null'], description: 'null: a graph not saved' }, label: { type: 'string' } },
} as const;

export const Replay = {
  type: 'object',
  required: ['id', 'campaignId', 'agentId', 'from', 'to', 'since', 'maxCalls', 'status', 'total', 'done', 'changed', 'error', 'createdAt', 'finishedAt', 'summary', 'calls'],
  properties: {
    id: { type: 'string' },
    campaignId: { type: 'string' },
    agentId: { type: 'string' },
    from: Side,
    to: Side,
    since: { type: 'string', format: 'date-time', description: 'calls whose run started since' },
    maxCalls: { type: 'integer' },
    status: { enum: ['running', 'done', 'cancelled', 'failed'] },
    total: { type: ['integer', 'null'], description: 'how many calls it replays; null until they are listed' },
    done: { type: 'integer', description: 'calls replayed so far' },
    changed: { type: 'integer', description: 'calls whose path or effects differ' },
    error: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: ['string', 'null'] },
    summary: {
      type: 'object',
      required: ['lines', 'unchanged'],
      properties: {
        lines: {
          type: 'array',
          description: 'the differences in words, e.g. "12 calls would now get an SMS", "3 calls would no longer be tagged vm-left"',
          items: {
            type: 'object',
            required: ['kind', 'key', 'calls', 'text'],
            properties: { kind: { enum: ['gained', 'lost', 'altered', 'path'] }, key: { type: 'string' }, calls: { type: 'integer' }, text: { type: 'string' } },
          },
        },
        unchanged: { type: 'integer', description: 'calls replayed with the same path and effects under both graphs' },
      },
    },
    calls: { type: 'array', items: ReplayCall },
  },
} as const;
