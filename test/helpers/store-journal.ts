import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EffectJournal, JournalEntry } from '../../engine/ports.js';
import { openDb } from '../../server/store/sqlite/db.js';
import { storeEffectJournal } from '../../server/store/sqlite/effect-journal.js';

/**
 * The product's own effect journal on a real SQLite file (a fresh one per call), with a log of the
 * calls made on it and a way to plant an entry as a crashed or timed-out earlier attempt would have
 * left it, for adapter tests.
 */
export function storeJournal(now?: () => Date) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-journal-'));
  const db = openDb(path.join(dir, 'app.db'));
  const inner = storeEffectJournal(db, now);
  const calls: string[] = [];
  const journal: EffectJournal = {
    lookup: async (a, k) => (calls.push(`lookup ${k}`), inner.lookup(a, k)),
    begin: async (a, k, kind) => (calls.push(`begin ${k}`), inner.begin(a, k, kind)),
    complete: async (a, k, kind, r) => (calls.push(`complete ${k}`), inner.complete(a, k, kind, r)),
    abandon: async (a, k) => (calls.push(`abandon ${k}`), inner.abandon(a, k)),
  };
  const read = db.prepare<[string, string], { state: string; result: string; created_at: string; attempts: number }>(
    'SELECT state, result, created_at, attempts FROM port_effects WHERE agency_id = ? AND idempotency_key = ?',
  );
  const plant = db.prepare("INSERT INTO port_effects (agency_id, idempotency_key, kind, result, created_at, state, attempts) VALUES (?, ?, 'seeded', ?, ?, ?, ?)");
  return {
    journal,
    calls,
    /** the stored entry, as lookup reads it */
    entry(agencyId: string, key: string): JournalEntry | null {
      const r = read.get(agencyId, key);
      if (!r) return null;
      return r.state === 'done' ? { state: 'done', result: JSON.parse(r.result) } : { state: 'pending', startedAt: r.created_at, attempts: r.attempts };
    },
    seed(agencyId: string, key: string, e: JournalEntry): void {
      if (e.state === 'done') plant.run(agencyId, key, JSON.stringify(e.result ?? null), new Date().toISOString(), 'done', 1);
      else plant.run(agencyId, key, 'null', e.startedAt, 'pending', e.attempts);
    },
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type StoreJournal = ReturnType<typeof storeJournal>;
