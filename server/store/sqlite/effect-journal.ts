import type { EffectJournal, JournalEntry } from '../../../engine/ports.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';

/**
 * The effect journal of vendor calls, on the same `port_effects` table as the embedded adapters'
 * effects (one key space per agency): a row is `pending` from just before a vendor call until its
 * result is recorded (`done`) or the vendor definitely refused (the row goes). `created_at` of a
 * pending row is when its first attempt began; later attempts keep it and count themselves.
 */
export function storeEffectJournal(db: Db, now: () => Date = () => new Date()): Sync<EffectJournal> {
  const lookup = db.prepare<[string, string], { state: string; result: string; created_at: string; attempts: number }>(
    'SELECT state, result, created_at, attempts FROM port_effects WHERE agency_id = ? AND idempotency_key = ?',
  );
  const begin = db.prepare(
    `INSERT INTO port_effects (agency_id, idempotency_key, kind, result, created_at, state, attempts) VALUES (?, ?, ?, 'null', ?, 'pending', 1)
     ON CONFLICT (agency_id, idempotency_key) DO UPDATE SET attempts = attempts + 1 WHERE state = 'pending'`,
  );
  const complete = db.prepare(
    `INSERT INTO port_effects (agency_id, idempotency_key, kind, result, created_at, state, attempts) VALUES (@agencyId, @key, @kind, @result, @at, 'done', 1)
     ON CONFLICT (agency_id, idempotency_key) DO UPDATE SET state = 'done', result = excluded.result, kind = excluded.kind`,
  );
  const abandon = db.prepare("DELETE FROM port_effects WHERE agency_id = ? AND idempotency_key = ? AND state = 'pending'");
  return {
    lookup(agencyId, key): JournalEntry | null {
      const r = lookup.get(agencyId, key);
      if (!r) return null;
      return r.state === 'done'
        ? { state: 'done', result: parseJson(r.result, 'port_effects.result') }
        : { state: 'pending', startedAt: r.created_at, attempts: r.attempts };
    },
    begin(agencyId, key, kind) {
      begin.run(agencyId, key, kind, now().toISOString());
    },
    complete(agencyId, key, kind, result) {
      complete.run({ agencyId, key, kind, result: JSON.stringify(result ?? null), at: now().toISOString() });
    },
    abandon(agencyId, key) {
      abandon.run(agencyId, key);
    },
  };
}
