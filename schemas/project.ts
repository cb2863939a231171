import type { FromSchema } from 'json-schema-to-ts';
import { CallingWindowSetting } from './cadence.js';
import { DateTime, Id, VISIBLE_ASCII } from './common.js';
import { Campaign } from './campaign.js';

const nullableString = { type: ['string', 'null'] } as const;

export const CrmAConnection = {
  type: ['object', 'null'],
  properties: {
    id: nullableString,
    name: nullableString,
    timezone: nullableString,
    country: nullableString,
    phone: nullableString,
    address: nullableString,
    city: nullableString,
    state: nullableString,
    postalCode: nullableString,
    email: nullableString,
    website: nullableString,
  },
} as const;

export const CrmBConnection = {
  type: 'object',
  required: ['accountId'],
  properties: {
    accountId: { type: 'string' },
    accountName: nullableString,
    accountTimezone: nullableString,
    subdomain: { type: 'string' },
  },
} as const;

/**
 * A GoHighLevel (crm_a) location's credential, as sent when connecting or reconnecting: a Private
 * Integration token, or OAuth tokens of a marketplace app (refreshed before they expire when
 * GHL_CLIENT_ID / GHL_CLIENT_SECRET are set). Stored sealed, never returned.
 */
export const CrmCredentialInput = {
  oneOf: [
    {
      type: 'object',
      title: 'Private Integration token',
      required: ['token'],
      additionalProperties: false,
      properties: { token: { type: 'string', minLength: 8, maxLength: 4096, pattern: VISIBLE_ASCII, description: "the location's Private Integration token" } },
    },
    {
      type: 'object',
      title: 'OAuth tokens',
      required: ['accessToken', 'refreshToken', 'expiresAt'],
      additionalProperties: false,
      properties: {
        accessToken: { type: 'string', minLength: 8, maxLength: 8192, pattern: VISIBLE_ASCII },
        refreshToken: { type: 'string', minLength: 8, maxLength: 8192, pattern: VISIBLE_ASCII },
        expiresAt: { type: 'string', format: 'date-time', description: 'when the access token expires' },
      },
    },
  ],
} as const;

/** Spec 2.1. Additional properties may appear on a project. */
export const Project = {
  type: 'object',
  required: ['id', 'crm', 'locationId', 'active', 'status', 'installed', 'campaigns', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    crm: { enum: ['crm_a', 'crm_b'] },
    locationId: { type: 'string' },
    companyId: { type: 'string' },
    timezone: nullableString,
    agencyName: nullableString,
    agencyId: nullableString,
    active: { type: 'boolean' },
    status: { enum: ['live', 'stopped', 'disconnected'] },
    installed: { type: 'boolean' },
    callbacksHandledByHuman: { type: 'boolean' },
    multipleTimezoneCheck: { type: 'boolean' },
    callingWindowOverride: CallingWindowSetting,
    knowledgeBase: { type: 'string' },
    businessName: nullableString,
    businessNameOverridden: { type: 'boolean' },
    campaigns: { type: 'array', items: Campaign },
    uninstalledAt: DateTime,
    createdAt: DateTime,
    updatedAt: DateTime,
    crm_a: CrmAConnection,
    crm_b: CrmBConnection,
    smsCarrier: { enum: ['crm', 'twilio'], description: "the carrier of the project's SMS; absent: the agency's default" },
    disconnectedReason: { type: 'string', description: 'why the project is disconnected (what the CRM answered), until a reconnect' },
  },
} as const;
export type Project = FromSchema<typeof Project>;

/** Reconnect: new credentials on the same project (campaigns, agents, workflows and history kept). */
export const ReconnectProjectBody = {
  type: 'object',
  required: ['credentials'],
  additionalProperties: false,
  properties: { credentials: CrmCredentialInput },
} as const;

/** Connect a CRM location (install). Not in the spec: ARCHITECTURE.md "Projects". */
export const CreateProjectBody = {
  type: 'object',
  required: ['crm', 'locationId'],
  additionalProperties: false,
  properties: {
    crm: { enum: ['crm_a', 'crm_b'] },
    locationId: Id,
    companyId: { type: 'string' },
    timezone: { type: 'string', minLength: 1 },
    agencyName: { type: 'string' },
    businessName: { type: 'string' },
    active: { type: 'boolean', default: true },
    callbacksHandledByHuman: { type: 'boolean' },
    multipleTimezoneCheck: { type: 'boolean' },
    callingWindowOverride: CallingWindowSetting,
    knowledgeBase: { type: 'string' },
    crm_a: { type: 'object', additionalProperties: false, properties: CrmAConnection.properties },
    crm_b: CrmBConnection,
    credentials: { ...CrmCredentialInput, description: "crm_a only: the location's credential; the product then acts on the real location (verified on connect, crm_a filled from it). Without it the project runs on the embedded sandbox CRM." },
    smsCarrier: { enum: ['crm', 'twilio'] },
  },
} as const;
export type CreateProjectBody = FromSchema<typeof CreateProjectBody>;

/** Spec 4.1: no required field, additional properties allowed. */
export const UpdateProjectBody = {
  type: 'object',
  description:
    'Fields the server owns (id, agencyId, crm, locationId, status, installed, campaigns, createdAt, updatedAt, uninstalledAt, crm_a, crm_b, ' +
    'disconnectedReason, credentials) are accepted only with their current value (a read-modify-write client); another value is a 400 naming the field. ' +
    'Other additional properties are stored and read back.',
  properties: {
    agencyName: { type: 'string' },
    timezone: { type: ['string', 'null'], minLength: 1, description: 'IANA time zone name' },
    companyId: { type: 'string' },
    active: { type: 'boolean' },
    callbacksHandledByHuman: { type: 'boolean' },
    multipleTimezoneCheck: { type: 'boolean' },
    businessName: { type: 'string' },
    businessNameOverridden: { type: 'boolean' },
    callingWindowOverride: CallingWindowSetting,
    knowledgeBase: { type: 'string' },
    smsCarrier: { enum: ['crm', 'twilio'], description: "the carrier of the project's SMS (Twilio needs the agency's Twilio credentials)" },
  },
} as const;
export type UpdateProjectBody = FromSchema<typeof UpdateProjectBody>;
