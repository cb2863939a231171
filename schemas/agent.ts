import type { FromSchema } from 'json-schema-to-ts';
import { DateTime, Id } from './common.js';
import { WorkflowTemplateId } from './workflow-tools.js';

/** Spec 2.11: the Agents module's campaign types and installable capabilities. */
export const AGENT_TYPES = ['outreach', 'inbound', 'appointment'] as const;
export const CAPABILITIES = ['appointment_booking', 'live_transfer', 'add_tag'] as const;

export const PostCallField = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    type: { enum: ['text', 'number', 'boolean', 'datetime', 'enum'] },
    description: { type: 'string' },
    /** platform-managed fields are kept on every update (spec 2.11) */
    platformManaged: { type: 'boolean' },
  },
} as const;

export const Agent = {
  type: 'object',
  required: ['id', 'name', 'agentType', 'locationId', 'projectId', 'campaignId', 'capabilities', 'postCallFields', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    agentType: { enum: AGENT_TYPES },
    locationId: { type: 'string' },
    projectId: { type: 'string' },
    /** the agent's primary campaign */
    campaignId: { type: ['string', 'null'] },
    capabilities: { type: 'array', items: { enum: CAPABILITIES }, description: 'the same list as `campaign.capabilities`, kept at the top level for clients that read it here' },
    campaign: {
      type: 'object',
      description: "spec 2.11: the campaign facet, the agent's primary campaign with what the agent can do there",
      required: ['id', 'agentType', 'capabilities'],
      properties: {
        id: { type: ['string', 'null'], description: 'the primary campaign id (as `campaignId`)' },
        agentType: { type: 'string', description: 'the legacy template id the campaign was cloned from (spec 2.3)' },
        capabilities: { type: 'array', items: { enum: CAPABILITIES } },
      },
    },
    /** outcomes a call with this agent can end in (spec 2.11 gating) */
    outcomes: { type: 'array', items: { type: 'string' } },
    postCallFields: { type: 'array', items: PostCallField },
    voice: { type: 'string' },
    prompt: { type: 'string' },
    vapiAssistantId: { type: 'string', description: "the Vapi assistant that speaks for this agent when the agency's voice platform is Vapi" },
    createdAt: DateTime,
    updatedAt: DateTime,
  },
} as const;
export type Agent = FromSchema<typeof Agent>;

// Spec 7: an unknown agentType is refused with the list of the valid types (`x-error` words it).
const AgentTypeParam = { enum: AGENT_TYPES, 'x-error': `{at} {value} is not valid; valid types: ${AGENT_TYPES.join(', ')}` } as const;
export const CreateAgentBody = {
  type: 'object',
  required: ['name', 'agentType', 'locationId'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    agentType: AgentTypeParam,
    locationId: Id,
    capabilityIds: { type: 'array', items: { enum: CAPABILITIES }, uniqueItems: true, description: 'installed capabilities; a Reminder (`appointment`) agent always has its fixed template\'s (omit, or send exactly those)' },
    postCallFields: { type: 'array', items: PostCallField, maxItems: 100 },
    voice: { type: 'string' },
    prompt: { type: 'string', maxLength: 100000 },
    vapiAssistantId: { type: 'string', minLength: 1, maxLength: 100, description: 'the Vapi assistant id (Vapi dashboard: Assistants)' },
    workflowTemplateId: WorkflowTemplateId,
  },
  // A Reminder (`appointment`) agent resolves to its fixed template (spec 4.13,
  // server/catalog.ts AGENT_TYPE_CATALOG; test/api/spec-conformance.test.ts holds the two in step).
  if: { required: ['agentType'], properties: { agentType: { const: 'appointment' } } },
  then: {
    properties: {
      capabilityIds: {
        const: ['appointment_booking'],
        'x-error': 'body.capabilityIds: a appointment agent has the fixed template appointment_confirmation with the capabilities [appointment_booking]; omit body.capabilityIds or send exactly those',
      },
    },
  },
} as const;
export type CreateAgentBody = FromSchema<typeof CreateAgentBody>;

export const PatchAgentBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: CreateAgentBody.properties.name,
    capabilityIds: CreateAgentBody.properties.capabilityIds,
    postCallFields: CreateAgentBody.properties.postCallFields,
    voice: { type: 'string' },
    prompt: CreateAgentBody.properties.prompt,
    vapiAssistantId: { ...CreateAgentBody.properties.vapiAssistantId, type: ['string', 'null'], description: 'the Vapi assistant id; null removes it' },
  },
} as const;
export type PatchAgentBody = FromSchema<typeof PatchAgentBody>;

export const ListAgentsQuery = {
  type: 'object',
  properties: { agentType: AgentTypeParam, locationId: { type: 'string' } },
} as const;
