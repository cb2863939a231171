import type { IdempotencyRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';

interface Row {
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
  lease_until: string | null;
}

/** How long a key's stored response is replayed; after that the key may be used afresh. */
const RETENTION_MS = 24 * 3600 * 1000;

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

export function idempotencyRepo(db: Db): Sync<IdempotencyRepository> {
  const get = db.prepare<[string, string], Row>(
    'SELECT fingerprint, status, body, created_at, lease_until FROM idempotency_keys WHERE agency_id = ? AND idem_key = ?',
  );
  const reserve = db.prepare(
    `INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at, holder, lease_until)
     VALUES (?, ?, ?, 0, '', ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const renew = db.prepare('UPDATE idempotency_keys SET lease_until = ? WHERE agency_id = ? AND idem_key = ? AND status = 0 AND holder = ?');
  const complete = db.prepare('UPDATE idempotency_keys SET status = ?, body = ?, lease_until = NULL WHERE agency_id = ? AND idem_key = ? AND holder = ?');
  const releaseOwn = db.prepare('DELETE FROM idempotency_keys WHERE agency_id = ? AND idem_key = ? AND status = 0 AND holder = ?');
  const remove = db.prepare('DELETE FROM idempotency_keys WHERE agency_id = ? AND idem_key = ?');
  const prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  return {
    reserve(agencyId: string, key: string, fingerprint: string, holder: string, leaseMs: number) {
      return db.transaction(() => {
        const existing = get.get(agencyId, key);
        const now = nowIso();
        const expired = existing && Date.now() - Date.parse(existing.created_at) >= RETENTION_MS;
        // In progress with its lease run out (or from before leases): its process is gone.
        const abandoned = existing && existing.status === 0 && (existing.lease_until === null || existing.lease_until < now);
        if (existing && !expired && !abandoned) {
          return { fingerprint: existing.fingerprint, status: existing.status, body: existing.status ? JSON.parse(existing.body) : null };
        }
        if (existing) remove.run(agencyId, key);
        reserve.run(agencyId, key, fingerprint, now, holder, later(leaseMs));
        return null;
      }).immediate();
    },
    renew: (agencyId: string, key: string, holder: string, leaseMs: number) => renew.run(later(leaseMs), agencyId, key, holder).changes === 1,
    complete(agencyId: string, key: string, holder: string, status: number, body: unknown): void {
      complete.run(status, JSON.stringify(body ?? null), agencyId, key, holder);
    },
    release(agencyId: string, key: string, holder: string): void {
      releaseOwn.run(agencyId, key, holder);
    },
    prune(): number {
      return prune.run(new Date(Date.now() - RETENTION_MS).toISOString()).changes;
    },
  };
}
