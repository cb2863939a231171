import { DateTime } from './common.js';

/** What may be shown of a stored vendor credential: never a token, key or secret. */
export const CredentialSummarySchema = {
  type: 'object',
  required: ['provider', 'owner', 'hint', 'updatedAt'],
  additionalProperties: false,
  properties: {
    provider: { enum: ['gohighlevel', 'twilio', 'vapi'] },
    owner: { type: 'string', description: "'agency', or the project it belongs to" },
    hint: { type: 'string', description: 'e.g. the last digits of an account id' },
    updatedAt: DateTime,
  },
} as const;

export const AgencySettingsSchema = {
  type: 'object',
  required: ['id', 'name', 'planLimit', 'liveProjects', 'settings', 'credentials'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    planLimit: { type: 'integer' },
    liveProjects: { type: 'integer' },
    settings: {
      type: 'object',
      required: ['smsCarrier'],
      properties: { smsCarrier: { enum: ['crm', 'twilio'], description: "the SMS carrier of projects that set none: the CRM's conversations, or Twilio" } },
    },
    credentials: { type: 'array', items: CredentialSummarySchema },
  },
} as const;

export const UpdateAgencyBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { smsCarrier: { enum: ['crm', 'twilio'] } },
} as const;

/** Twilio's account SID and auth token (Basic auth of the Messages API), and optionally a Messaging Service. */
export const TwilioCredentialInput = {
  type: 'object',
  required: ['accountSid', 'authToken'],
  additionalProperties: false,
  properties: {
    accountSid: { type: 'string', pattern: '^AC[0-9a-fA-F]{32}$' },
    authToken: { type: 'string', minLength: 16, maxLength: 128 },
    messagingServiceSid: { type: 'string', pattern: '^MG[0-9a-fA-F]{32}$', description: 'sends from this Messaging Service when a step has no caller ID' },
  },
} as const;
