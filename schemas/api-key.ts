import type { FromSchema } from 'json-schema-to-ts';
import { DateTime, Id } from './common.js';

/** Scopes of spec section 5, and the ones this service adds for the areas the spec leaves out. */
export const SCOPES = [
  'projects:read',
  'projects:write',
  'projects:delete',
  'phone_numbers:write',
  'power_dialer:read',
  'power_dialer:write',
  'calls:read',
  'calls:write',
  'crm:read',
  'agents:read',
  'agents:write',
  'workflows:read',
  'workflows:write',
  'keys:write',
  'agency:read',
  'agency:write',
  'webhooks:write',
] as const;

export const ROLES = ['agency_admin', 'project_user'] as const;

/** An API key as the API shows it: never its secret, never its hash. */
export const ApiKeyView = {
  type: 'object',
  required: ['id', 'name', 'prefix', 'role', 'scopes', 'projectIds', 'status', 'createdAt', 'expiresAt', 'revokedAt', 'createdBy'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    prefix: { type: 'string', description: 'the first characters of the secret, to recognise a key' },
    role: { enum: ROLES },
    scopes: { type: 'array', items: { enum: SCOPES } },
    projectIds: { type: 'array', items: { type: 'string' }, description: 'the projects a project_user key may reach; empty for agency_admin (all of the agency)' },
    status: { enum: ['active', 'revoked', 'expired'] },
    createdAt: DateTime,
    expiresAt: { type: ['string', 'null'], format: 'date-time' },
    revokedAt: { type: ['string', 'null'], format: 'date-time' },
    createdBy: { type: ['string', 'null'], description: 'the id of the key that created this one over the API; null for keys made with the CLI' },
  },
} as const;

export const CreateApiKeyBody = {
  type: 'object',
  required: ['name', 'role', 'scopes'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    role: { enum: ROLES },
    scopes: { type: 'array', minItems: 1, maxItems: SCOPES.length, uniqueItems: true, items: { enum: SCOPES }, description: 'at most the scopes of the key that creates it' },
    projectIds: { type: 'array', maxItems: 1000, uniqueItems: true, items: Id, description: 'required for project_user (projects of the agency); not allowed for agency_admin' },
    expiresAt: { ...DateTime, description: 'when the key stops working (in the future); omitted: never' },
  },
  // The then-schemas constrain projectIds alone: `additionalProperties: true` says so, where a
  // validator that closes every object schema by default (Redocly's example check) would refuse
  // the body's other fields there.
  allOf: [
    {
      if: { required: ['role'], properties: { role: { const: 'agency_admin' } } },
      then: { additionalProperties: true, properties: { projectIds: { type: 'array', maxItems: 0, 'x-error': '{at}: an agency_admin key reaches every project of the agency; send projectIds only for a project_user key' } } },
    },
    {
      if: { required: ['role'], properties: { role: { const: 'project_user' } } },
      then: { required: ['projectIds'], additionalProperties: true, properties: { projectIds: { type: 'array', minItems: 1, 'x-error': '{at}: a project_user key needs at least one project' } } },
    },
  ],
} as const;
export type CreateApiKeyBody = FromSchema<typeof CreateApiKeyBody>;

export const CreatedApiKey = {
  type: 'object',
  required: ['key', 'secret'],
  properties: {
    key: ApiKeyView,
    secret: { type: 'string', description: 'the key itself: shown this once, stored only as a hash' },
  },
} as const;
