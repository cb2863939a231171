import type { CredentialsRepository } from '../index.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';
import { credentialFromRow as fromRow, type CredentialRow as Row } from '../rows.js';

export function credentialsRepo(sql: Sql): CredentialsRepository {
  return {
    async get(agencyId, owner, provider) {
      const r = await sql.one<Row>('SELECT * FROM credentials WHERE agency_id = $1 AND owner = $2 AND provider = $3', [agencyId, owner, provider]);
      return r ? fromRow(r) : undefined;
    },
    list: async (agencyId) => (await sql.rows<Row>('SELECT * FROM credentials WHERE agency_id = $1 ORDER BY owner, provider', [agencyId])).map(fromRow),
    async put(c) {
      await sql.run(
        `INSERT INTO credentials (agency_id, owner, provider, sealed, key_id, hint, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (agency_id, owner, provider) DO UPDATE SET sealed = excluded.sealed, key_id = excluded.key_id, hint = excluded.hint, updated_at = excluded.updated_at`,
        [c.agencyId, c.owner, c.provider, c.sealed, c.keyId, c.hint, nowIso()],
      );
    },
    remove: async (agencyId, owner, provider) => (await sql.run('DELETE FROM credentials WHERE agency_id = $1 AND owner = $2 AND provider = $3', [agencyId, owner, provider])) === 1,
  };
}
