import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { canAccessProject } from '../http/request-context.js';
import type { Services } from '../services.js';
import { isActive, type ApiKey, type Scope } from '../store/api-keys.js';
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
export function apiKeyRoutes(s: Services): RouteDef[] {
  const { apiKeys, projects } = s.repos;
  return [
    defineRoute({
      method: 'post', path: '/api/keys', operationId: 'createApiKey', tag: 'API keys',
      summary: 'Create an API key; its secret is shown in this answer only',
      description:
        'Scopes beyond the calling key\'s own are refused (403), as are projects it cannot reach; a `project_user` key names the projects it may ' +
        'reach (`projectIds`), an `agency_admin` key reaches all of the agency\'s. Not idempotent on purpose: a stored replay would keep the secret.',
      access, body: CreateApiKeyBody,
      responses: { 201: { description: 'the key and its secret', schema: ok(CreatedApiKey) } },
      handler: ({ ctx, caller, body }) => {
        const beyond = body.scopes.filter((sc) => !caller.scopes.has(sc as Scope));
        if (beyond.length > 0) throw new AppError('FORBIDDEN', `a key cannot grant scopes its creator lacks: ${beyond.join(', ')}`);
        // Which roles take projectIds is the body schema's rule (if/then): refused before this runs.
        const projectIds = [...(body.projectIds ?? [])];
        const resolved = projectIds.map((id) => {
          const project = projects.find(caller.agencyId, id);
          if (!project) throw notFound(`project ${id} not found`);
          if (!canAccessProject(caller, project.id)) throw new AppError('FORBIDDEN', `a key cannot grant a project its creator cannot reach: ${id}`);
          return project.id;
        });
        if (body.expiresAt !== undefined && Date.parse(body.expiresAt) <= Date.now()) throw new AppError('VALIDATION', 'body.expiresAt must be in the future');
        const { key, secret } = apiKeys.create({
          agencyId: caller.agencyId,
          name: body.name,
          role: body.role,
          scopes: body.scopes as Scope[],
          projectIds: [...new Set(resolved)],
          expiresAt: body.expiresAt === undefined ? null : new Date(body.expiresAt).toISOString(),
          createdBy: caller.keyId,
        });
        ctx.status = 201;
        ctx.set('Cache-Control', 'no-store');
        s.logger.info({ keyId: key.id, by: caller.keyId, role: key.role, scopes: key.scopes }, 'api key created');
        return { success: true, data: { key: presentKey(key), secret } };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/keys', operationId: 'listApiKeys', tag: 'API keys',
      summary: "The agency's API keys (active, expired and revoked); never a secret",
      access,
      responses: { 200: { description: 'keys', schema: ok({ type: 'array', items: ApiKeyView }) } },
      handler: ({ caller }) => ({ success: true, data: apiKeys.list(caller.agencyId).map(presentKey) }),
    }),
    defineRoute({
      method: 'delete', path: '/api/keys/:keyId', operationId: 'revokeApiKey', tag: 'API keys',
      summary: 'Revoke an API key; it is refused (401) from the next request on. A key cannot revoke itself (409 SelfRevocation)',
      access, params: { type: 'object', required: ['keyId'], properties: { keyId: Id } },
      responses: { 200: { description: 'the revoked key (revoking it again changes nothing)', schema: ok(ApiKeyView) } },
      handler: ({ caller, params }) => {
        const key = apiKeys.get(caller.agencyId, params.keyId);
        if (!key) throw notFound(`API key ${params.keyId} not found`);
        // A key revoking itself would lock its holder out in one request (a fuzzer did it, by an id
        // read from a list); another admin key or the CLI revokes it.
        if (key.id === caller.keyId) throw new AppError('CONFLICT', `API key ${key.id} is the key making this request; revoke it with another agency_admin key, or with npm run apikey revoke`, { detailCode: 'SelfRevocation' });
        if (apiKeys.revoke(caller.agencyId, key.id)) s.logger.info({ keyId: key.id, by: caller.keyId }, 'api key revoked');
        return { success: true, data: presentKey(apiKeys.get(caller.agencyId, key.id)!) };
      },
    }),
  ];
}
