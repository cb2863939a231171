import type { Migration } from './index.js';

/**
 * Claims that hold across processes, by lease instead of by process lifetime:
 * - `idempotency_keys.holder` / `lease_until`: an Idempotency-Key claim still in progress belongs
 *   to the request that holds it, which renews the lease while it runs; a claim whose lease ran
 *   out (its process died) is taken over by the next request with the key. Claims stored before
 *   have no lease: they count as run out, as they were released at the next start before.
 * - `leases`: named leases (one OAuth token refresh per project at a time, across processes).
 */
export const m015Leases: Migration = {
  name: 'leases',
  up(db) {
    db.exec(`
      ALTER TABLE idempotency_keys ADD COLUMN holder TEXT;
      ALTER TABLE idempotency_keys ADD COLUMN lease_until TEXT;
      CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
