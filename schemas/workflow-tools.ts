import { DocumentedPutWorkflowBody, OutcomeSpelling, PutWorkflowBody } from './workflow.js';
import { Id } from './common.js';

/** The query of agent-scoped workflow routes: which campaign of the agent (its primary one when neither is sent). */
export const TargetQuery = {
  type: 'object',
  properties: {
    locationId: { ...Id, description: "the agent's location (its CRM location id or project id); with campaignId (spec 4.12), or alone for the primary campaign" },
    campaignId: { ...Id, description: 'a campaign of the agent; omitted: its primary campaign' },
  },
} as const;

/** The starter templates' ids (server/workflow-templates.ts holds the templates; a test keeps the two in step). */
export const WORKFLOW_TEMPLATE_IDS = ['appointment-booking', 'appointment-confirmation', 'live-transfer', 'live-transfer-and-tag', 'live-transfer-and-booking', 'add-tag', 'inbound-receptionist'] as const;
export const WorkflowTemplateId = {
  enum: WORKFLOW_TEMPLATE_IDS,
  description: 'start the workflow from this starter template (GET /api/agent-builder/workflow-templates)',
  'x-error': '{at} "{value}" is not a template; GET /api/agent-builder/workflow-templates lists them',
} as const;

const scalar = { type: ['string', 'number', 'boolean', 'null'] } as const;

/** A test run: the outcome, sample call fields, and a contact (one the product knows, or sample fields). */
export const TestRunBody = {
  type: 'object',
  required: ['outcome'],
  additionalProperties: false,
  properties: {
    outcome: { ...OutcomeSpelling, description: 'the outcome whose chain runs (any spelling: VOICEMAIL, voicemail, Call Back, ...)' },
    fields: { type: 'object', maxProperties: 100, additionalProperties: scalar, description: 'sample recorded call fields, e.g. { "appointment_time": "2026-12-01T15:00:00Z" }' },
    callSummary: { type: 'string', maxLength: 20_000 },
    transcript: { type: 'string', maxLength: 200_000 },
    duration: { type: 'number', minimum: 0, maximum: 86_400 },
    contact: {
      type: 'object',
      additionalProperties: false,
      description: 'by `id` a contact this product knows (its sandbox CRM or a lead), else sample fields; absent: a sample contact',
      properties: {
        id: { type: 'string', minLength: 1, maxLength: 200 },
        firstName: { type: 'string', maxLength: 200 },
        lastName: { type: 'string', maxLength: 200 },
        email: { type: 'string', maxLength: 320 },
        phone: { type: 'string', maxLength: 32 },
        tags: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 200 } },
        fields: { type: 'object', maxProperties: 100, additionalProperties: scalar },
      },
    },
  },
} as const;

export const BusinessChange = {
  type: 'object',
  required: ['outcome', 'label', 'kind', 'text'],
  properties: {
    outcome: { type: 'string' },
    label: { type: 'string', description: "the outcome's dashboard label" },
    kind: { enum: ['started', 'stopped', 'added', 'removed', 'changed', 'condition', 'reordered'] },
    nodeId: { type: 'string' },
    text: { type: 'string' },
  },
} as const;

export const BusinessDiff = {
  type: 'object',
  required: ['from', 'to', 'changes'],
  properties: { from: { type: 'integer' }, to: { type: 'integer' }, changes: { type: 'array', items: BusinessChange } },
} as const;

/** The graph about to be saved (a PUT body without expectedVersion). */
export const ImpactBody = {
  ...PutWorkflowBody,
  required: ['nodes', 'edges', 'dispositionEntries'],
  properties: { nodes: PutWorkflowBody.properties.nodes, edges: PutWorkflowBody.properties.edges, dispositionEntries: PutWorkflowBody.properties.dispositionEntries },
} as const;

export const ImpactReport = {
  type: 'object',
  required: ['currentVersion', 'runsInFlight', 'outcomes', 'cadence'],
  properties: {
    currentVersion: { type: 'integer' },
    runsInFlight: {
      type: 'object',
      required: ['total', 'byVersion', 'note'],
      properties: {
        total: { type: 'integer' },
        byVersion: { type: 'array', items: { type: 'object', required: ['version', 'runs'], properties: { version: { type: 'integer' }, runs: { type: 'integer' } } } },
        note: { type: 'string' },
      },
    },
    outcomes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['outcome', 'label', 'changed', 'changes', 'callsLast7Days'],
        properties: { outcome: { type: 'string' }, label: { type: 'string' }, changed: { type: 'boolean' }, changes: { type: 'array', items: { type: 'string' } }, callsLast7Days: { type: 'integer' } },
      },
    },
    cadence: {
      type: ['object', 'null'],
      required: ['cadenceId', 'name', 'steps'],
      properties: {
        cadenceId: { type: 'string' },
        name: { type: 'string' },
        steps: { type: 'array', items: { type: 'object', required: ['step', 'leads'], properties: { step: { type: 'integer' }, leads: { type: 'integer' } } } },
      },
    },
  },
} as const;

export const TemplateSummary = {
  type: 'object',
  required: ['id', 'name', 'description', 'system', 'outcomes'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, system: { type: 'string' }, outcomes: { type: 'array', items: { type: 'string' } } },
} as const;

export const DocumentedImpactBody = {
  ...DocumentedPutWorkflowBody,
  required: ['nodes', 'edges', 'dispositionEntries'],
  properties: { nodes: DocumentedPutWorkflowBody.properties.nodes, edges: DocumentedPutWorkflowBody.properties.edges, dispositionEntries: DocumentedPutWorkflowBody.properties.dispositionEntries },
};
