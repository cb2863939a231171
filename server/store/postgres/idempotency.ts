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
     * Claims the key in statements that are each atomic, so two requests with one key never both
     * own it, on any number of connections:
     * 1. insert the claim; a racing insert waits for the other's transaction, then inserts nothing;
     * 2. else take over an expired record in one conditional UPDATE (of two takeovers, the second
     *    waits for the first, re-reads the row and finds it fresh);
     * 3. else answer the record as it is now. A record released between two steps is claimed again.
     */
    async reserve(agencyId, key, fingerprint) {
      for (;;) {
        const at = nowIso();
        if ((await sql.run("INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at) VALUES ($1, $2, $3, 0, '', $4) ON CONFLICT DO NOTHING", [agencyId, key, fingerprint, at])) === 1) return null;
        const cutoff = new Date(Date.now() - RETENTION_MS).toISOString();
        const replaced = await sql.run(
          "UPDATE idempotency_keys SET fingerprint = $3, status = 0, body = '', created_at = $4 WHERE agency_id = $1 AND idem_key = $2 AND created_at <= $5",
          [agencyId, key, fingerprint, at, cutoff],
        );
        if (replaced === 1) return null;
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
