import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './db.js';
import { newId, nowIso } from './ids.js';
import { parseJson } from './db.js';

export type Role = 'agency_admin' | 'project_user';

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
export type Scope = (typeof SCOPES)[number];

export interface ApiKey {
  id: string;
  agencyId: string;
  name: string;
  prefix: string;
  role: Role;
  scopes: Scope[];
  /** projects a project_user may reach; empty for agency_admin (all of the agency's) */
  projectIds: string[];
  createdAt: string;
  revokedAt: string | null;
}

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
});

/**
 * Keys carry 32 random bytes, so a plain SHA-256 is a sufficient one-way store: there is nothing
 * to brute-force that a slow KDF would protect.
 */
export const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function apiKeysRepo(db: Db) {
  const byHash = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE hash = ?');
  const byAgency = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE agency_id = ? ORDER BY created_at');
  const insert = db.prepare(
    `INSERT INTO api_keys (id, agency_id, name, prefix, hash, role, scopes, project_ids, created_at)
     VALUES (@id, @agencyId, @name, @prefix, @hash, @role, @scopes, @projectIds, @createdAt)`,
  );
  const revoke = db.prepare<{ id: string; agencyId: string; at: string }>(
    'UPDATE api_keys SET revoked_at = @at WHERE id = @id AND agency_id = @agencyId AND revoked_at IS NULL',
  );
  return {
    /** Returns the key record and the secret; the secret exists nowhere else afterwards. */
    create(input: { agencyId: string; name: string; role: Role; scopes: Scope[]; projectIds: string[] }) {
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
      };
      insert.run({ ...key, hash: hashKey(secret), scopes: JSON.stringify(key.scopes), projectIds: JSON.stringify(key.projectIds) });
      return { key, secret };
    },
    /** The active key for a presented secret, or undefined. */
    authenticate(secret: string): ApiKey | undefined {
      const r = byHash.get(hashKey(secret));
      if (!r || r.revoked_at) return undefined;
      return fromRow(r);
    },
    list(agencyId: string): ApiKey[] {
      return byAgency.all(agencyId).map(fromRow);
    },
    revoke(agencyId: string, id: string): boolean {
      return revoke.run({ id, agencyId, at: nowIso() }).changes === 1;
    },
  };
}
export type ApiKeysRepo = ReturnType<typeof apiKeysRepo>;
