import type { IdempotencyRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';

interface Row {
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
}

/** How long a key's stored response is replayed; after that the key may be used afresh. */
const RETENTION_MS = 24 * 3600 * 1000;

export function idempotencyRepo(db: Db): Sync<IdempotencyRepository> {
  const get = db.prepare<[string, string], Row>(
    'SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE agency_id = ? AND idem_key = ?',
  );
  const reserve = db.prepare(
    `INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at)
     VALUES (?, ?, ?, 0, '', ?) ON CONFLICT DO NOTHING`,
  );
  const complete = db.prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE agency_id = ? AND idem_key = ?');
  const release = db.prepare('DELETE FROM idempotency_keys WHERE agency_id = ? AND idem_key = ?');
  const prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  const releaseAbandoned = db.prepare('DELETE FROM idempotency_keys WHERE status = 0');

  return {
    /**
     * Reserves the key for this request. Returns the existing record when the key is taken
     * (status 0 means its first request is still running), or null when this request owns it now.
     */
    reserve(agencyId: string, key: string, fingerprint: string): { fingerprint: string; status: number; body: unknown } | null {
      return db.transaction(() => {
        const existing = get.get(agencyId, key);
        if (existing && Date.now() - Date.parse(existing.created_at) < RETENTION_MS) {
          return {
            fingerprint: existing.fingerprint,
            status: existing.status,
            body: existing.status ? JSON.parse(existing.body) : null,
          };
        }
        if (existing) release.run(agencyId, key);
        reserve.run(agencyId, key, fingerprint, nowIso());
        return null;
      }).immediate();
    },
    complete(agencyId: string, key: string, status: number, body: unknown): void {
      complete.run(status, JSON.stringify(body ?? null), agencyId, key);
    },
    release(agencyId: string, key: string): void {
      release.run(agencyId, key);
    },
    /**
     * At start-up: reservations still marked in progress belong to a process that died mid-request
     * (one API server per SQLite file). Only asynchronous handlers can leave one (see the guard);
     * releasing it lets the client's retry run again instead of getting 409 for 24 hours.
     */
    releaseAbandoned(): number {
      return releaseAbandoned.run().changes;
    },
    prune(): number {
      return prune.run(new Date(Date.now() - RETENTION_MS).toISOString()).changes;
    },
  };
}
