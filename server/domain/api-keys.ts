import type { Logger } from 'pino';
import type { ApiKey, Scope, Store } from '../store/index.js';
import type { CreateApiKeyBody } from '../../schemas/api-key.js';
import { canAccessProject, type Actor } from './actor.js';
import { conflict, forbidden, invalid, notFound } from './errors.js';

/**
 * API keys (ARCHITECTURE.md "Tenancy, keys and roles"): an agency admin creates keys (the secret
 * exists in that one answer only), lists them (never a secret) and revokes them (effective on the
 * next request). A key never grants more than its creator has: its scopes are a subset of the
 * creator's, its projects ones the creator reaches.
 */
export async function createApiKey(store: Store, actor: Actor, body: CreateApiKeyBody, logger: Logger): Promise<{ key: ApiKey; secret: string }> {
  const beyond = body.scopes.filter((sc) => !actor.scopes.has(sc as Scope));
  if (beyond.length > 0) throw forbidden(`a key cannot grant scopes its creator lacks: ${beyond.join(', ')}`);
  // Which roles take projectIds is the body schema's rule (if/then): refused before this runs.
  const resolved: string[] = [];
  for (const id of body.projectIds ?? []) {
    const project = await store.projects.find(actor.agencyId, id);
    if (!project) throw notFound(`project ${id} not found`);
    if (!canAccessProject(actor, project.id)) throw forbidden(`a key cannot grant a project its creator cannot reach: ${id}`);
    resolved.push(project.id);
  }
  if (body.expiresAt !== undefined && Date.parse(body.expiresAt) <= Date.now()) throw invalid('body.expiresAt must be in the future');
  const made = await store.apiKeys.create({
    agencyId: actor.agencyId,
    name: body.name,
    role: body.role,
    scopes: body.scopes as Scope[],
    projectIds: [...new Set(resolved)],
    expiresAt: body.expiresAt === undefined ? null : new Date(body.expiresAt).toISOString(),
    createdBy: actor.keyId,
  });
  logger.info({ keyId: made.key.id, by: actor.keyId, role: made.key.role, scopes: made.key.scopes }, 'api key created');
  return made;
}

/** Revokes a key of the agency; a key cannot revoke itself. Revoking twice changes nothing. */
export async function revokeApiKey(store: Store, actor: Actor, keyId: string, logger: Logger): Promise<ApiKey> {
  const key = await store.apiKeys.get(actor.agencyId, keyId);
  if (!key) throw notFound(`API key ${keyId} not found`);
  // A key revoking itself would lock its holder out in one request (a fuzzer did it, by an id
  // read from a list); another admin key or the CLI revokes it.
  if (key.id === actor.keyId) throw conflict(`API key ${key.id} is the key making this request; revoke it with another agency_admin key, or with npm run apikey revoke`, 'SelfRevocation');
  if (await store.apiKeys.revoke(actor.agencyId, key.id)) logger.info({ keyId: key.id, by: actor.keyId }, 'api key revoked');
  return (await store.apiKeys.get(actor.agencyId, key.id))!;
}
