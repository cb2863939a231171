import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import { isActive, type ApiKey } from '../store/index.js';
import { createApiKey, revokeApiKey } from '../domain/api-keys.js';
import { ApiKeyView, CreateApiKeyBody, CreatedApiKey } from '../../schemas/api-key.js';
import { Id, ok } from '../../schemas/common.js';

const access = { scope: 'keys:write', roles: ['agency_admin'] } as const;

export const presentKey = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  role: k.role,
  scopes: k.scopes,
  projectIds: k.projectIds,
  status: k.revokedAt ? ('revoked' as const) : isActive(k) ? ('active' as const) : ('expired' as const),
  createdAt: k.createdAt,
  expiresAt: k.expiresAt,
  revokedAt: k.revokedAt,
  createdBy: k.createdBy,
});

/**
 * API keys over HTTP (ARCHITECTURE.md "Tenancy, keys and roles"): an agency admin with `keys:write`
 * creates keys (the secret is in that one answer only), lists them (never a secret) and revokes
 * them (effective on the next request, see `apiKeysRepo`). A key never grants more than its
 * creator has: its scopes are a subset of the creator's, its projects ones the creator reaches.
 */
export function apiKeyRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'post', path: '/api/keys', operationId: 'createApiKey', tag: 'API keys',
      summary: 'Create an API key; its secret is shown in this answer only',
      description:
        'Scopes beyond the calling key\'s own are refused (403), as are projects it cannot reach; a `project_user` key names the projects it may ' +
        'reach (`projectIds`), an `agency_admin` key reaches all of the agency\'s. Not idempotent on purpose: a stored replay would keep the secret.',
      access, body: CreateApiKeyBody,
      responses: { 201: { description: 'the key and its secret', schema: ok(CreatedApiKey) } },
      handler: async ({ ctx, caller, body, services }) => {
        const { key, secret } = await createApiKey(services.store, caller, body, services.logger);
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
        return { success: true, data: { key: presentKey(key), secret } };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/keys', operationId: 'listApiKeys', tag: 'API keys',
      summary: "The agency's API keys (active, expired and revoked); never a secret",
      access,
      responses: { 200: { description: 'keys', schema: ok({ type: 'array', items: ApiKeyView }) } },
      handler: async ({ caller, services }) => ({ success: true, data: (await services.store.apiKeys.list(caller.agencyId)).map(presentKey) }),
    }),
    defineRoute({
      method: 'delete', path: '/api/keys/:keyId', operationId: 'revokeApiKey', tag: 'API keys',
      summary: 'Revoke an API key; it is refused (401) from the next request on. A key cannot revoke itself (409 SelfRevocation)',
      access, params: { type: 'object', required: ['keyId'], properties: { keyId: Id } },
      responses: { 200: { description: 'the revoked key (revoking it again changes nothing)', schema: ok(ApiKeyView) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: presentKey(await revokeApiKey(services.store, caller, params.keyId, services.logger)) }),
    }),
  ];
}
