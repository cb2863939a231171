import { randomBytes } from 'node:crypto';
import type { ApiKeysRepository } from '../index.js';
import { isActive, type ApiKey, type Role, type Scope } from '../records.js';
import { newId, nowIso } from '../../ids.js';
import { hashKey } from '../shared.js';
import { parseJson, type Sql } from './sql.js';

interface Row {
  id: string;
  agency_id: string;
  name: string;
  prefix: string;
  role: Role;
  scopes: string;
  project_ids: string;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  created_by: string | null;
}

const COLUMNS = 'id, agency_id, name, prefix, role, scopes, project_ids, created_at, revoked_at, expires_at, created_by';
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

/** What the store's repositories share across its transactions: how many secrets were looked up. */
export interface ApiKeysState {
  lookups: number;
}

/**
 * API keys on Postgres. A presented secret is looked up on every request (by its hash's unique
 * index): another process may revoke a key at any moment, and Postgres has no cheap signal of
 * another connection's commit like SQLite's `data_version`, so no process keeps a copy.
 */
export function apiKeysRepo(sql: Sql, state: ApiKeysState): ApiKeysRepository {
  return {
    async create(input) {
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
      await sql.run(
        `INSERT INTO api_keys (id, agency_id, name, prefix, hash, role, scopes, project_ids, created_at, expires_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [key.id, key.agencyId, key.name, key.prefix, hashKey(secret), key.role, JSON.stringify(key.scopes), JSON.stringify(key.projectIds), key.createdAt, key.expiresAt, key.createdBy],
      );
      return { key, secret };
    },
    async authenticate(secret) {
      state.lookups += 1;
      const r = await sql.one<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE hash = $1`, [hashKey(secret)]);
      if (!r || r.revoked_at) return undefined;
      const key = fromRow(r);
      return isActive(key) ? key : undefined;
    },
    async get(agencyId, id) {
      const r = await sql.one<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE agency_id = $1 AND id = $2`, [agencyId, id]);
      return r ? fromRow(r) : undefined;
    },
    list: async (agencyId) => (await sql.rows<Row>(`SELECT ${COLUMNS} FROM api_keys WHERE agency_id = $1 ORDER BY created_at, id`, [agencyId])).map(fromRow),
    revoke: async (agencyId, id) => (await sql.run('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND agency_id = $3 AND revoked_at IS NULL', [nowIso(), id, agencyId])) === 1,
    lookups: async () => state.lookups,
  };
}
