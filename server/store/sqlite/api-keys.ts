import type { ApiKeysRepository } from '../index.js';
import type { Sync } from './sync.js';
import { isActive, type ApiKey, type Role, type Scope } from '../records.js';
import { randomBytes } from 'node:crypto';
import { hashKey } from '../shared.js';
import type { Db } from './db.js';
import { newId, nowIso } from '../../ids.js';
import { parseJson } from './db.js';



interface Row {
  id: string;
  agency_id: string;
  name: string;
  prefix: string;
  hash: string;
  role: Role;
  scopes: string;
  project_ids: string;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  created_by: string | null;
}

const fromRow = (r: Row): ApiKey => ({
  id: r.id,
  agencyId: r.agency_id,
  name: r.name,
  prefix: r.prefix,
  role: r.role,
  scopes: parseJson<Scope[]>(r.scopes, 'api_keys.scopes'),
  projectIds: parseJson<string[]>(r.project_ids, 'api_keys.project_ids'),
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  expiresAt: r.expires_at,
  createdBy: r.created_by,
});


/** How many presented secrets' lookups are kept (each entry is one key record). */
const CACHE_LIMIT = 10_000;

export { hashKey };

export function apiKeysRepo(db: Db): Sync<ApiKeysRepository> {
  const byHash = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE hash = ?');
  const byAgency = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE agency_id = ? ORDER BY created_at, id');
  const byId = db.prepare<[string, string], Row>('SELECT * FROM api_keys WHERE agency_id = ? AND id = ?');
  const insert = db.prepare(
    `INSERT INTO api_keys (id, agency_id, name, prefix, hash, role, scopes, project_ids, created_at, expires_at, created_by)
     VALUES (@id, @agencyId, @name, @prefix, @hash, @role, @scopes, @projectIds, @createdAt, @expiresAt, @createdBy)`,
  );
  // Changes only when another connection (the CLI, a worker process) committed to the database.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();

  /**
   * Lookups of presented secrets, by hash, so a busy key costs one query, not one per request.
   * Revocation is effective at once: a revoke through this repository drops the key's entry
   * before it returns, and a commit by any other connection (`npm run apikey -- revoke`, another
   * process on the same file) changes `PRAGMA data_version`, which empties the whole cache before
   * the next lookup. Expiry is checked on every use.
   */
  const cache = new Map<string, ApiKey>();
  let cachedAt = dataVersion.get() as number;
  let lookups = 0;
  const revoke = db.prepare<{ id: string; agencyId: string; at: string }>(
    'UPDATE api_keys SET revoked_at = @at WHERE id = @id AND agency_id = @agencyId AND revoked_at IS NULL',
  );
  return {
    /** Returns the key record and the secret; the secret exists nowhere else afterwards. */
    create(input: { agencyId: string; name: string; role: Role; scopes: Scope[]; projectIds: string[]; expiresAt?: string | null; createdBy?: string | null }) {
      const secret = `vck_${randomBytes(32).toString('base64url')}`;
      const key: ApiKey = {
        id: newId('key'),
        agencyId: input.agencyId,
        name: input.name,
        prefix: secret.slice(0, 10),
        role: input.role,
        scopes: [...new Set(input.scopes)],
        projectIds: input.role === 'project_user' ? [...new Set(input.projectIds)] : [],
        createdAt: nowIso(),
        revokedAt: null,
        expiresAt: input.expiresAt ?? null,
        createdBy: input.createdBy ?? null,
      };
      insert.run({ ...key, hash: hashKey(secret), scopes: JSON.stringify(key.scopes), projectIds: JSON.stringify(key.projectIds) });
      return { key, secret };
    },
    /** The active key for a presented secret, or undefined. */
    authenticate(secret: string): ApiKey | undefined {
      const version = dataVersion.get() as number;
      if (version !== cachedAt) {
        cache.clear();
        cachedAt = version;
      }
      const hash = hashKey(secret);
      let key = cache.get(hash);
      if (!key) {
        lookups += 1;
        const r = byHash.get(hash);
        if (!r || r.revoked_at) return undefined;
        key = fromRow(r);
        if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
        cache.set(hash, key);
      }
      return isActive(key) ? key : undefined;
    },
    get(agencyId: string, id: string): ApiKey | undefined {
      const r = byId.get(agencyId, id);
      return r ? fromRow(r) : undefined;
    },
    list(agencyId: string): ApiKey[] {
      return byAgency.all(agencyId).map(fromRow);
    },
    revoke(agencyId: string, id: string): boolean {
      const changed = revoke.run({ id, agencyId, at: nowIso() }).changes === 1;
      for (const [hash, key] of cache) if (key.id === id) cache.delete(hash);
      return changed;
    },
    /** How many presented secrets were looked up in the table (the rest came from the cache). */
    lookups: () => lookups,
  };
}
