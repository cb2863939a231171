import type { FromSchema } from 'json-schema-to-ts';
import { CallingWindowSetting } from './cadence.js';
import { DateTime, E164, Id } from './common.js';
import { WorkflowTemplateId } from './workflow-tools.js';

/** The seven legacy template ids the Campaigns and Projects modules keep as `agentType` (spec 2.3, 7). */
export const LEGACY_AGENT_TYPES = [
  'appointment_confirmation',
  'appointment_booking',
  'live_transfer',
  'live_transfer_and_tag',
  'live_transfer_and_booking',
  'add_tag',
  'inbound_receptionist',
] as const;

export const WRITABLE_DIALING = ['s2l', 's2l_pd', 'pd'] as const;

export const TransferRoute = {
  type: 'object',
  required: ['id', 'number', 'condition'],
  properties: { id: { type: 'string' }, number: { type: 'string' }, condition: { type: 'string' } },
} as const;

export const CampaignConfig = {
  type: 'object',
  properties: {
    cadenceId: { type: 'string' },
    calendarId: { type: 'string' },
    transferNumber: { type: 'string' },
    advancedRouting: { type: 'boolean' },
    transferRoutes: { type: 'array', items: TransferRoute },
  },
} as const;

/** Spec 2.3. */
export const Campaign = {
  type: 'object',
  required: ['id', 'name', 'activeTags', 'inactiveTags', 'dialing', 'agentId', 'fromNumbers', 'active', 'config', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    activeTags: { type: 'array', items: { type: 'string' } },
    inactiveTags: { type: 'array', items: { type: 'string' } },
    dialing: { enum: ['s2l', 's2l_pd', 'pd', 'reactivation', null] },
    agentType: { enum: [...LEGACY_AGENT_TYPES, null] },
    agentId: { type: 'string' },
    fromNumbers: { type: 'array', items: E164 },
    active: { type: 'boolean' },
    callingWindow: CallingWindowSetting,
    multipleTimezoneCheck: { type: 'boolean' },
    dropOutsideWindow: { type: 'boolean' },
    config: CampaignConfig,
    createdAt: DateTime,
    updatedAt: DateTime,
  },
} as const;
export type Campaign = FromSchema<typeof Campaign>;

const tags = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, maxItems: 100 } as const;

// Spec 7 wants a message listing the valid values, and a retired value named as retired: the
// rule is the schema's, the words its `x-error` (server/http/validation.ts).
const WritableDialing = {
  enum: WRITABLE_DIALING,
  description: 'dispatch mode; `reactivation` and `confirmation` are retired (read-only) and null is refused: omit the field to leave it unchanged',
  'x-error': {
    null: '{at} cannot be null; omit it to leave it unchanged. Valid values: s2l, s2l_pd, pd',
    reactivation: '{at} "reactivation" is retired and can no longer be written. Valid values: s2l, s2l_pd, pd',
    confirmation: '{at} "confirmation" is retired and can no longer be written. Valid values: s2l, s2l_pd, pd',
    '*': '{at} {value} is not valid. Valid values: s2l, s2l_pd, pd',
  },
} as const;
const LegacyAgentType = {
  enum: [...LEGACY_AGENT_TYPES, null],
  description: 'the legacy template id (spec 2.3); null for none',
  'x-error': `{at} {value} is not valid; valid types: ${LEGACY_AGENT_TYPES.join(', ')}`,
} as const;

export const CreateCampaignBody = {
  type: 'object',
  required: ['name', 'agentId'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    agentId: Id,
    activeTags: tags,
    inactiveTags: tags,
    dialing: WritableDialing,
    agentType: LegacyAgentType,
    fromNumbers: { type: 'array', items: E164, maxItems: 50 },
    active: { type: 'boolean' },
    callingWindow: CallingWindowSetting,
    multipleTimezoneCheck: { type: 'boolean' },
    dropOutsideWindow: { type: 'boolean' },
    config: CampaignConfig,
    workflowTemplateId: WorkflowTemplateId,
  },
} as const;
export type CreateCampaignBody = FromSchema<typeof CreateCampaignBody>;

export const PatchCampaignBody = {
  type: 'object',
  additionalProperties: false,
  properties: (({ workflowTemplateId: _t, ...rest }) => rest)(CreateCampaignBody.properties),
} as const;
export type PatchCampaignBody = FromSchema<typeof PatchCampaignBody>;
