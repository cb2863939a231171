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

export function idempotencyRepo(sql: Sql): IdempotencyRepository {
  return {
    /**
     * Claims the key in one statement, atomic however many connections race: insert the claim,
     * or take over a record older than the retention, or leave a fresh record as it is. A racing
     * statement waits for the other's transaction, then decides on what it committed (READ
     * COMMITTED re-checks the takeover's condition on the row as it is then). When nothing was
     * claimed, the record is answered as it is; one released meanwhile is claimed again.
     */
    async reserve(agencyId, key, fingerprint) {
      for (;;) {
        const claimed = await sql.run(
          `INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at) VALUES ($1, $2, $3, 0, '', $4)
           ON CONFLICT (agency_id, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint, status = 0, body = '', created_at = excluded.created_at
           WHERE idempotency_keys.created_at <= $5`,
          [agencyId, key, fingerprint, nowIso(), new Date(Date.now() - RETENTION_MS).toISOString()],
        );
        if (claimed === 1) return null;
        const existing = await sql.one<Row>('SELECT fingerprint, status, body FROM idempotency_keys WHERE agency_id = $1 AND idem_key = $2', [agencyId, key]);
        if (existing) return claimOf(existing);
      }
    },
    async complete(agencyId, key, status, body) {
      await sql.run('UPDATE idempotency_keys SET status = $1, body = $2 WHERE agency_id = $3 AND idem_key = $4', [status, JSON.stringify(body ?? null), agencyId, key]);
    },
    async release(agencyId, key) {
      await sql.run('DELETE FROM idempotency_keys WHERE agency_id = $1 AND idem_key = $2', [agencyId, key]);
    },
    releaseAbandoned: () => sql.run('DELETE FROM idempotency_keys WHERE status = 0'),
    prune: () => sql.run('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(Date.now() - RETENTION_MS).toISOString()]),
  };
}
