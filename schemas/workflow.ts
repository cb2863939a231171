import type { FromSchema } from 'json-schema-to-ts';
import { DateTime, E164, Id } from './common.js';

/**
 * Campaign workflow shapes (spec 2.10, 4.12; ARCHITECTURE.md "Workflow shapes").
 *
 * Request bodies are deliberately permissive on a node's `type` (any string) and on its `config`
 * (any object): the graph validator in engine/graph checks both against the per-type schemas
 * below, so that a removed type, a stand-in or a bad config field gets a message naming the node
 * and the field instead of a generic "must match a schema in anyOf".
 */

/** The six raw dispositions, in canonical (dashboard lane) order. */
export const DISPOSITIONS = ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'TRANSFER', 'RESCHEDULE'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/**
 * Any spelling of an outcome the API accepts (engine/graph/outcomes.ts `normalizeOutcome`): the raw
 * disposition, its dashboard type or label, in any letter case, with spaces, underscores and
 * hyphens anywhere between letters ("Call Back", "call_back", "callBack"). Every form of an outcome
 * squashes to its raw disposition without underscores, so one letter-by-letter pattern per outcome
 * states the rule exactly (JSON Schema has no case-insensitive flag).
 */
const anyCaseLetters = (word: string) =>
  [...word.toLowerCase().replace(/_/g, '')].map((c) => `[${c}${c.toUpperCase()}]`).join('[\\s_-]*');
export const OUTCOME_SPELLING_PATTERN = `^[\\s_-]*(${DISPOSITIONS.map(anyCaseLetters).join('|')})[\\s_-]*$`;
export const OutcomeSpelling = {
  type: 'string',
  pattern: OUTCOME_SPELLING_PATTERN,
  description: 'an outcome: VOICEMAIL, SUCCESS, CALLBACK, NO_ACTION, TRANSFER or RESCHEDULE, its dashboard type or label, in any letter case',
  'x-error': '{at} "{value}" is not a known outcome; use VOICEMAIL, SUCCESS, CALLBACK, NO_ACTION, TRANSFER or RESCHEDULE (any case) or a dashboard label',
} as const;

export const ACTION_TYPES = [
  'add-tag',
  'remove-tag',
  'set-field',
  'move-stage',
  'add-note',
  'send-sms',
  'send-email',
  'book-appointment',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const BRANCH_TYPES = ['if', 'switch'] as const;
export type BranchType = (typeof BRANCH_TYPES)[number];

export const NODE_TYPES = [...ACTION_TYPES, ...BRANCH_TYPES] as const;
export type NodeType = (typeof NODE_TYPES)[number];

/** Refused on write since the July 2026 change list (spec 9). */
export const REMOVED_NODE_TYPES = ['post-webhook', 'enroll-in-campaign', 'requeue-pd'] as const;

export const CONDITION_OPERATORS = ['eq', 'neq', 'contains', 'not_contains', 'exists', 'not_exists', 'gt', 'gte', 'lt', 'lte', 'in'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const WARNING_CODES = [
  'UNREACHABLE_NODE',
  'DRAFT_NODE_SKIPPED',
  'OUTCOME_NOT_EMITTABLE',
  'SMS_WITHOUT_CALLER_ID',
  'APPOINTMENT_WITHOUT_CALENDAR',
  'BRANCH_HANDLE_UNCONNECTED',
  'TAG_ADDED_AND_REMOVED',
] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

const Label = { type: 'string', maxLength: 200 } as const;
const Match = { type: 'string', enum: ['all', 'any'] } as const;
const ExpectedVersion = { type: 'integer', minimum: 0 } as const;

// ---------------------------------------------------------------------------------------------
// Conditions and branch configs
// ---------------------------------------------------------------------------------------------

/**
 * `{ field, op, value? }`. `field` is a dotted path into the run context (`call.fields.<key>`,
 * `call.duration`, `call.disposition`, `contact.tags`, `contact.<field>`). Every operator except
 * `exists`/`not_exists` needs a `value`; `in` needs an array; `gt`..`lte` a number or numeric text.
 */
export const Condition = {
  type: 'object',
  required: ['field', 'op'],
  additionalProperties: false,
  properties: {
    field: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[^.\\s]+(\\.[^.\\s]+)*$' },
    op: { type: 'string', enum: CONDITION_OPERATORS },
    value: {},
  },
  allOf: [
    {
      if: { type: 'object', required: ['op'], properties: { op: { enum: ['eq', 'neq', 'contains', 'not_contains', 'gt', 'gte', 'lt', 'lte', 'in'] } } },
      then: { type: 'object', required: ['value'], properties: { value: {} } },
    },
    {
      if: { type: 'object', required: ['op'], properties: { op: { const: 'in' } } },
      then: { type: 'object', properties: { value: { type: 'array' } } },
    },
    {
      if: { type: 'object', required: ['op'], properties: { op: { enum: ['gt', 'gte', 'lt', 'lte'] } } },
      then: { type: 'object', properties: { value: { type: ['number', 'string'] } } },
    },
  ],
} as const;
export type Condition = FromSchema<typeof Condition>;

const Conditions = { type: 'array', minItems: 1, maxItems: 50, items: Condition } as const;

/** `if` node: `true` handle when the conditions match (all of them, or any), else `false`. */
export const IfConfig = {
  type: 'object',
  required: ['match', 'conditions'],
  additionalProperties: false,
  properties: { match: Match, conditions: Conditions },
} as const;
export type IfConfig = FromSchema<typeof IfConfig>;

/** A case id is a handle name; `default` is reserved for the fall-through handle. */
const CaseId = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;

export const SwitchCase = {
  type: 'object',
  required: ['id', 'label', 'match', 'conditions'],
  additionalProperties: false,
  properties: { id: CaseId, label: { type: 'string', minLength: 1, maxLength: 200 }, match: Match, conditions: Conditions },
} as const;
export type SwitchCase = FromSchema<typeof SwitchCase>;

/**
 * Stored `switch` node: the first case whose conditions match picks its handle (the case id),
 * otherwise `default`. A top-level `match` is only the default an appended router gave its cases.
 */
export const SwitchConfig = {
  type: 'object',
  required: ['cases'],
  additionalProperties: false,
  properties: { match: Match, cases: { type: 'array', minItems: 1, maxItems: 20, items: SwitchCase } },
} as const;
export type SwitchConfig = FromSchema<typeof SwitchConfig>;

// ---------------------------------------------------------------------------------------------
// Action configs. Text fields may hold template tokens such as {{contact.firstName}}.
// ---------------------------------------------------------------------------------------------

const Tags = { type: 'array', minItems: 1, maxItems: 50, uniqueItems: true, items: { type: 'string', minLength: 1, maxLength: 100 } } as const;

export const AddTagConfig = {
  type: 'object',
  required: ['tags'],
  additionalProperties: false,
  properties: { tags: Tags },
} as const;
export type AddTagConfig = FromSchema<typeof AddTagConfig>;

export const RemoveTagConfig = AddTagConfig;
export type RemoveTagConfig = FromSchema<typeof RemoveTagConfig>;

export const SetFieldConfig = {
  type: 'object',
  required: ['field', 'value'],
  additionalProperties: false,
  properties: {
    field: { type: 'string', minLength: 1, maxLength: 200 },
    value: { type: ['string', 'number', 'boolean', 'null'] },
  },
} as const;
export type SetFieldConfig = FromSchema<typeof SetFieldConfig>;

export const MoveStageConfig = {
  type: 'object',
  required: ['pipelineId', 'stageId'],
  additionalProperties: false,
  properties: { pipelineId: Id, stageId: Id },
} as const;
export type MoveStageConfig = FromSchema<typeof MoveStageConfig>;

export const AddNoteConfig = {
  type: 'object',
  required: ['body'],
  additionalProperties: false,
  properties: { body: { type: 'string', minLength: 1, maxLength: 10000 } },
} as const;
export type AddNoteConfig = FromSchema<typeof AddNoteConfig>;

export const SendSmsConfig = {
  type: 'object',
  required: ['body'],
  additionalProperties: false,
  properties: {
    body: { type: 'string', minLength: 1, maxLength: 1600 },
    /** caller ID to send from; the campaign's pool is used when absent */
    fromNumber: E164,
  },
} as const;
export type SendSmsConfig = FromSchema<typeof SendSmsConfig>;

export const SendEmailConfig = {
  type: 'object',
  required: ['subject', 'body'],
  additionalProperties: false,
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 300 },
    body: { type: 'string', minLength: 1, maxLength: 50000 },
    /** an address or a template token; the contact's email when absent */
    to: { type: 'string', minLength: 1, maxLength: 320 },
  },
} as const;
export type SendEmailConfig = FromSchema<typeof SendEmailConfig>;

export const BookAppointmentConfig = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** the campaign's `config.calendarId` when absent */
    calendarId: Id,
    /** the `call.fields` key holding the start time */
    startField: { type: 'string', minLength: 1, maxLength: 200 },
    durationMinutes: { type: 'integer', minimum: 5, maximum: 480 },
  },
} as const;
export type BookAppointmentConfig = FromSchema<typeof BookAppointmentConfig>;

/** The config schema of every writable node type; the graph validator compiles these once. */
export const nodeConfigSchemas = {
  'add-tag': AddTagConfig,
  'remove-tag': RemoveTagConfig,
  'set-field': SetFieldConfig,
  'move-stage': MoveStageConfig,
  'add-note': AddNoteConfig,
  'send-sms': SendSmsConfig,
  'send-email': SendEmailConfig,
  'book-appointment': BookAppointmentConfig,
  if: IfConfig,
  switch: SwitchConfig,
} as const satisfies Record<NodeType, { type: 'object' }>;

// ---------------------------------------------------------------------------------------------
// Graph
// ---------------------------------------------------------------------------------------------

const Position = {
  type: 'object',
  required: ['x', 'y'],
  additionalProperties: false,
  properties: { x: { type: 'number' }, y: { type: 'number' } },
} as const;

/** A stored node. `config` is `{}` for an unfinished draft, which runs skip. */
export const WorkflowNode = {
  type: 'object',
  required: ['id', 'type', 'config', 'position'],
  additionalProperties: false,
  properties: {
    id: Id,
    type: { type: 'string', enum: NODE_TYPES },
    label: Label,
    config: { type: 'object' },
    position: Position,
  },
} as const;
export type WorkflowNode = FromSchema<typeof WorkflowNode>;

/** `sourceHandle`: `true`/`false` out of an `if`, a case id or `default` out of a `switch`, absent otherwise. */
export const WorkflowEdge = {
  type: 'object',
  required: ['id', 'source', 'target'],
  additionalProperties: false,
  properties: { id: Id, source: Id, target: Id, sourceHandle: { type: 'string', minLength: 1 } },
} as const;
export type WorkflowEdge = FromSchema<typeof WorkflowEdge>;

/** Outcome (raw disposition, upper case) -> the node where its chain starts. */
export const DispositionEntries = {
  type: 'object',
  propertyNames: { enum: DISPOSITIONS },
  additionalProperties: Id,
} as const;
export type DispositionEntries = FromSchema<typeof DispositionEntries>;

export const Workflow = {
  type: 'object',
  required: ['agentId', 'campaignId', 'locationId', 'version', 'nodes', 'edges', 'dispositionEntries', 'updatedAt'],
  properties: {
    agentId: Id,
    campaignId: Id,
    locationId: Id,
    version: { type: 'integer', minimum: 0 },
    nodes: { type: 'array', items: WorkflowNode },
    edges: { type: 'array', items: WorkflowEdge },
    dispositionEntries: DispositionEntries,
    updatedAt: DateTime,
  },
} as const;
export type Workflow = FromSchema<typeof Workflow>;

/** A graph issue worth knowing that was not refused; `code` is stable. */
export const Warning = {
  type: 'object',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', enum: WARNING_CODES },
    message: { type: 'string' },
    nodeId: { type: 'string' },
    outcome: { type: 'string', enum: DISPOSITIONS },
  },
} as const;
export type Warning = FromSchema<typeof Warning>;

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

/** An action to append: `{ type, label?, config }`. The server derives id, edges and position. */
export const AppendActionNode = {
  type: 'object',
  required: ['type', 'config'],
  additionalProperties: false,
  properties: { type: { type: 'string', minLength: 1, maxLength: 100 }, label: Label, config: { type: 'object' } },
} as const;
export type AppendActionNode = FromSchema<typeof AppendActionNode>;

/** A router case: its conditions and the actions of its own chain. `id` defaults to `case-<n>`. */
export const AppendRouterCase = {
  type: 'object',
  required: ['label', 'conditions', 'nodes'],
  additionalProperties: false,
  properties: {
    id: CaseId,
    label: { type: 'string', minLength: 1, maxLength: 200 },
    match: Match,
    conditions: Conditions,
    nodes: { type: 'array', maxItems: 100, items: AppendActionNode },
  },
} as const;

export const AppendRouterConfig = {
  type: 'object',
  required: ['cases'],
  additionalProperties: false,
  properties: {
    /** default `match` for cases that do not say (else `all`) */
    match: Match,
    cases: { type: 'array', minItems: 1, maxItems: 20, items: AppendRouterCase },
    default: {
      type: 'object',
      required: ['nodes'],
      additionalProperties: false,
      properties: { nodes: { type: 'array', maxItems: 100, items: AppendActionNode } },
    },
  },
} as const;
export type AppendRouterConfig = FromSchema<typeof AppendRouterConfig>;

/** A router: expands to one `switch` node plus a linear chain per case (and `default`). */
export const AppendRouterNode = {
  type: 'object',
  required: ['type', 'config'],
  additionalProperties: false,
  properties: { type: { const: 'switch' }, label: Label, config: AppendRouterConfig },
} as const;
export type AppendRouterNode = FromSchema<typeof AppendRouterNode>;

export const AppendNode = { anyOf: [AppendRouterNode, AppendActionNode] } as const;
export type AppendNode = FromSchema<typeof AppendNode>;

export const AppendNodesBody = {
  type: 'object',
  required: ['nodes'],
  additionalProperties: false,
  properties: {
    nodes: { type: 'array', minItems: 1, maxItems: 100, items: AppendNode },
    expectedVersion: ExpectedVersion,
  },
} as const;
export type AppendNodesBody = FromSchema<typeof AppendNodesBody>;

/** A node as PUT sends it: `position` may be left out (the layout places it). */
export const PutNode = {
  type: 'object',
  required: ['id', 'type', 'config'],
  additionalProperties: false,
  properties: {
    id: Id,
    type: { type: 'string', minLength: 1, maxLength: 100 },
    label: Label,
    config: { type: 'object' },
    position: Position,
  },
} as const;
export type PutNode = FromSchema<typeof PutNode>;

/** An edge as PUT sends it: a `null` sourceHandle (React Flow's "no handle") means none. */
export const PutEdge = {
  type: 'object',
  required: ['id', 'source', 'target'],
  additionalProperties: false,
  properties: { id: Id, source: Id, target: Id, sourceHandle: { type: ['string', 'null'] } },
} as const;
export type PutEdge = FromSchema<typeof PutEdge>;

export const PutWorkflowBody = {
  type: 'object',
  // Spec 4.12: "send expectedVersion". A whole-graph replace without it could silently undo another writer.
  required: ['nodes', 'edges', 'dispositionEntries', 'expectedVersion'],
  additionalProperties: false,
  properties: {
    nodes: { type: 'array', maxItems: 1000, items: PutNode },
    edges: { type: 'array', maxItems: 2000, items: PutEdge },
    /** keys checked by the graph validator (upper-case dispositions), values are node ids */
    dispositionEntries: { type: 'object', additionalProperties: { type: 'string' } },
    expectedVersion: ExpectedVersion,
  },
} as const;
export type PutWorkflowBody = FromSchema<typeof PutWorkflowBody>;

/**
 * Merge into existing nodes: `label` replaces (null removes it); `config` is merged key by key
 * (arrays replaced, a `null` value removes the key). Neither type nor wiring can change here.
 */
export const PatchNode = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: Id, label: { type: ['string', 'null'], maxLength: 200 }, config: { type: 'object' } },
} as const;
export type PatchNode = FromSchema<typeof PatchNode>;

export const PatchWorkflowBody = {
  type: 'object',
  required: ['nodes'],
  additionalProperties: false,
  properties: {
    nodes: { type: 'array', minItems: 1, maxItems: 1000, items: PatchNode },
    expectedVersion: ExpectedVersion,
  },
} as const;
export type PatchWorkflowBody = FromSchema<typeof PatchWorkflowBody>;

/** Point an outcome at an existing node, or clear it with `null`. */
export const SwitchOutcomeBody = {
  type: 'object',
  required: ['nodeId'],
  additionalProperties: false,
  properties: { nodeId: { type: ['string', 'null'], minLength: 1 }, expectedVersion: ExpectedVersion },
} as const;
export type SwitchOutcomeBody = FromSchema<typeof SwitchOutcomeBody>;

// ---------------------------------------------------------------------------------------------
// The same bodies with every per-type rule stated, for the OpenAPI document. Requests are
// validated in two stages (the permissive bodies above, then the graph validator with
// `nodeConfigSchemas`), so a refusal names the node and the field; the rules are the same ones,
// and test/api/openapi.test.ts holds the two stages and these schemas to agreement.
// ---------------------------------------------------------------------------------------------

/** An unfinished draft (PUT only): a node saved with an empty config, which runs skip. */
const DraftConfig = { type: 'object', maxProperties: 0, description: 'an unfinished draft: runs skip it' } as const;

const typedNode = (type: NodeType, config: object, extra: Record<string, object> = {}, required: string[] = []) => ({
  type: 'object',
  title: type,
  required: [...required, 'type', 'config'],
  additionalProperties: false,
  properties: { ...extra, type: { const: type }, label: Label, config },
});

/** An action as append takes it: its config complete (drafts are saved with PUT). */
export const DocumentedAppendAction = { oneOf: ACTION_TYPES.map((t) => typedNode(t, { ...nodeConfigSchemas[t], minProperties: 1, description: 'at least one setting: an empty config is a draft, saved only with PUT' })) };

export const DocumentedAppendNodesBody = {
  ...AppendNodesBody,
  properties: {
    ...AppendNodesBody.properties,
    nodes: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        anyOf: [
          {
            ...AppendRouterNode,
            properties: {
              ...AppendRouterNode.properties,
              config: {
                ...AppendRouterConfig,
                properties: {
                  ...AppendRouterConfig.properties,
                  cases: { ...AppendRouterConfig.properties.cases, items: { ...AppendRouterCase, properties: { ...AppendRouterCase.properties, nodes: { type: 'array', maxItems: 100, items: DocumentedAppendAction } } } },
                  default: { ...AppendRouterConfig.properties.default, properties: { nodes: { type: 'array', maxItems: 100, items: DocumentedAppendAction } } },
                },
              },
            },
          },
          DocumentedAppendAction,
        ],
      },
    },
  },
};

/** A node as PUT sends it: any writable type, its config complete or an empty draft. */
export const DocumentedPutNode = { oneOf: NODE_TYPES.map((t) => typedNode(t, { anyOf: [nodeConfigSchemas[t], DraftConfig] }, { id: Id, position: Position }, ['id'])) };

export const DocumentedPutWorkflowBody = {
  ...PutWorkflowBody,
  properties: { ...PutWorkflowBody.properties, nodes: { type: 'array', maxItems: 1000, items: DocumentedPutNode }, dispositionEntries: DispositionEntries },
};

/** PATCH merges into a node's config key by key: any keys of its type's config (null removes one). */
export const DocumentedPatchWorkflowBody = {
  ...PatchWorkflowBody,
  properties: {
    ...PatchWorkflowBody.properties,
    nodes: { type: 'array', minItems: 1, maxItems: 1000, items: { ...PatchNode, properties: { ...PatchNode.properties, config: { type: 'object', additionalProperties: true, description: "keys of the node type's config to set; null removes a key" } } } },
  },
};
