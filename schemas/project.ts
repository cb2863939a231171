import type { FromSchema } from 'json-schema-to-ts';
import { CallingWindowSetting } from './cadence.js';
import { DateTime, Id } from './common.js';
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
  },
} as const;
export type Project = FromSchema<typeof Project>;

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
  },
} as const;
export type CreateProjectBody = FromSchema<typeof CreateProjectBody>;

/** Spec 4.1: no required field, additional properties allowed. */
export const UpdateProjectBody = {
  type: 'object',
  properties: {
    agencyName: { type: 'string' },
    active: { type: 'boolean' },
    callbacksHandledByHuman: { type: 'boolean' },
    multipleTimezoneCheck: { type: 'boolean' },
    businessName: { type: 'string' },
    businessNameOverridden: { type: 'boolean' },
    callingWindowOverride: CallingWindowSetting,
    knowledgeBase: { type: 'string' },
  },
} as const;
export type UpdateProjectBody = FromSchema<typeof UpdateProjectBody>;
