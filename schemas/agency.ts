import { DateTime, VISIBLE_ASCII } from './common.js';

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
      required: ['smsCarrier', 'voicePlatform', 'vapiOutcomeField'],
      properties: {
        smsCarrier: { enum: ['crm', 'twilio'], description: "the SMS carrier of projects that set none: the CRM's conversations, or Twilio" },
        voicePlatform: { enum: ['sandbox', 'vapi'] },
        vapiOutcomeField: { type: 'string' },
        alertWebhookUrl: { type: 'string' },
        alertEmail: { type: 'string' },
        vapiOutcomeMap: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    credentials: { type: 'array', items: CredentialSummarySchema },
  },
} as const;

export const UpdateAgencyBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    smsCarrier: { enum: ['crm', 'twilio'] },
    voicePlatform: { enum: ['sandbox', 'vapi'], description: 'where the dialer places calls; vapi needs the agency\'s Vapi credentials' },
    vapiOutcomeField: { type: 'string', minLength: 1, maxLength: 100, description: "the key of a Vapi report's analysis.structuredData that holds the call's outcome (default `outcome`)" },
    alertWebhookUrl: { type: ['string', 'null'], format: 'uri', pattern: '^https?://', maxLength: 2000, description: 'failure alerts are POSTed here, signed like our events (X-Signature); a public address only (loopback, private, link-local and other internal addresses are refused, here and at every delivery; redirects are not followed); null removes it' },
    alertEmail: { type: ['string', 'null'], format: 'email', maxLength: 320, description: 'failure alerts are emailed here; null removes it' },
    vapiOutcomeMap: {
      type: 'object',
      maxProperties: 50,
      additionalProperties: { enum: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'TRANSFER', 'RESCHEDULE'] },
      description: "the agent's own outcome words -> our outcomes, e.g. { \"booked\": \"SUCCESS\" }",
    },
  },
} as const;

/** The agency's Vapi account: the private API key (placing calls) and the secret its server messages are verified with. */
export const VapiCredentialInput = {
  type: 'object',
  required: ['apiKey'],
  additionalProperties: false,
  properties: {
    apiKey: { type: 'string', minLength: 8, maxLength: 512, pattern: VISIBLE_ASCII, description: 'Vapi dashboard: API Keys, the private key' },
    serverSecret: { type: 'string', minLength: 16, maxLength: 512, pattern: VISIBLE_ASCII, description: 'the secret of the Vapi credential server messages are signed with; omit it and one is generated and shown once' },
    secretKind: { enum: ['hmac', 'secret'], default: 'hmac', description: 'hmac: an HMAC credential (x-signature, x-timestamp); secret: the legacy X-Vapi-Secret header' },
  },
} as const;

/** Answer of a Vapi credential change: the summary, the server URL to give Vapi, and a generated secret once. */
export const VapiCredentialAnswer = {
  type: 'object',
  required: ['credential', 'serverUrl', 'secretKind'],
  properties: {
    credential: CredentialSummarySchema,
    serverUrl: { type: 'string', description: "Vapi's Server URL for this agency" },
    secretKind: { enum: ['hmac', 'secret'] },
    serverSecret: { type: 'string', description: 'present only when generated: shown this once' },
    previousSecretValidUntil: { type: 'string', format: 'date-time', description: 'the replaced secret still verifies until then' },
  },
} as const;

/** A webhook signing secret, shown once. */
export const SigningSecretAnswer = {
  type: 'object',
  required: ['secret', 'header', 'scheme'],
  properties: {
    secret: { type: 'string' },
    header: { const: 'X-Signature' },
    scheme: { type: 'string' },
    previousValidUntil: { type: 'string', format: 'date-time', description: 'after a rotation, the previous secret verifies until then' },
  },
} as const;

/** Twilio's account SID and auth token (Basic auth of the Messages API), and optionally a Messaging Service. */
export const TwilioCredentialInput = {
  type: 'object',
  required: ['accountSid', 'authToken'],
  additionalProperties: false,
  properties: {
    accountSid: { type: 'string', pattern: '^AC[0-9a-fA-F]{32}$' },
    authToken: { type: 'string', minLength: 16, maxLength: 128, pattern: VISIBLE_ASCII },
    messagingServiceSid: { type: 'string', pattern: '^MG[0-9a-fA-F]{32}$', description: 'sends from this Messaging Service when a step has no caller ID' },
  },
} as const;

/** A failure alert and how its delivery went. */
export const AlertSchema = {
  type: 'object',
  required: ['id', 'kind', 'payload', 'createdAt', 'dispatchedAt', 'deliveredAt', 'emailedAt', 'attempts', 'lastError'],
  properties: {
    id: { type: 'string' },
    kind: { enum: ['run.failed', 'project.disconnected'] },
    payload: { type: 'object' },
    createdAt: DateTime,
    dispatchedAt: { type: ['string', 'null'] },
    deliveredAt: { type: ['string', 'null'], description: 'when the webhook was delivered' },
    emailedAt: { type: ['string', 'null'] },
    attempts: { type: 'integer', description: 'webhook delivery attempts so far' },
    lastError: { type: ['string', 'null'] },
  },
} as const;
