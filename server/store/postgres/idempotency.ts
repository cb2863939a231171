import type { IdempotencyClaim, IdempotencyRepository } from '../index.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';

interface Row {
  fingerprint: string;
  status: number;
  body: string;
}

/** How long a key's stored response is replayed; after that the key may be used afresh. */
const RETENTION_MS = 24 * 3600 * 1000;

const claimOf = (r: Row): IdempotencyClaim => ({ fingerprint: r.fingerprint, status: r.status, body: r.status ? JSON.parse(r.body) : null });
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

export function idempotencyRepo(sql: Sql): IdempotencyRepository {
  return {
    /**
     * Claims the key in one statement, atomic however many connections race: insert the claim,
     * or take over a record older than the retention or a claim in progress whose lease ran out,
     * or leave the record as it is. A racing statement waits for the other's transaction, then
     * decides on what it committed (READ COMMITTED re-checks the takeover's condition on the row
     * as it is then). When nothing was claimed, the record is answered as it is; one released
     * meanwhile is claimed again.
     */
    async reserve(agencyId, key, fingerprint, holder, leaseMs) {
      for (;;) {
        const now = nowIso();
        const claimed = await sql.run(
          `INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at, holder, lease_until) VALUES ($1, $2, $3, 0, '', $4, $6, $7)
           ON CONFLICT (agency_id, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, body = '', created_at = excluded.created_at,
             holder = excluded.holder, lease_until = excluded.lease_until
           WHERE idempotency_keys.created_at <= $5
              OR (idempotency_keys.status = 0 AND (idempotency_keys.lease_until IS NULL OR idempotency_keys.lease_until < $4))`,
          [agencyId, key, fingerprint, now, new Date(Date.now() - RETENTION_MS).toISOString(), holder, later(leaseMs)],
        );
        if (claimed === 1) return null;
        const existing = await sql.one<Row>('SELECT fingerprint, status, body FROM idempotency_keys WHERE agency_id = $1 AND idem_key = $2', [agencyId, key]);
        if (existing) return claimOf(existing);
      }
    },
    renew: async (agencyId, key, holder, leaseMs) =>
      (await sql.run('UPDATE idempotency_keys SET lease_until = $1 WHERE agency_id = $2 AND idem_key = $3 AND status = 0 AND holder = $4', [later(leaseMs), agencyId, key, holder])) === 1,
    async complete(agencyId, key, holder, status, body) {
      await sql.run('UPDATE idempotency_keys SET status = $1, body = $2, lease_until = NULL WHERE agency_id = $3 AND idem_key = $4 AND holder = $5', [status, JSON.stringify(body ?? null), agencyId, key, holder]);
    },
    async release(agencyId, key, holder) {
      await sql.run('DELETE FROM idempotency_keys WHERE agency_id = $1 AND idem_key = $2 AND status = 0 AND holder = $3', [agencyId, key, holder]);
    },
    prune: () => sql.run('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(Date.now() - RETENTION_MS).toISOString()]),
  };
}
