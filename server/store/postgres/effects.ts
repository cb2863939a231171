import type { EffectJournal, JournalEntry } from '../../../engine/ports.js';
import type { EffectsRepository } from '../index.js';
import { nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

/** The embedded adapters' effects, by idempotency key, one key space per agency. */
export function effectsRepo(sql: Sql): EffectsRepository {
  return {
    async result(agencyId, key) {
      const r = await sql.one<{ result: string }>("SELECT result FROM port_effects WHERE agency_id = $1 AND idempotency_key = $2 AND state = 'done'", [agencyId, key]);
      return r ? { value: parseJson<unknown>(r.result, 'port_effects.result') } : undefined;
    },
    async record(agencyId, key, kind, result) {
      await sql.run('INSERT INTO port_effects (idempotency_key, agency_id, kind, result, created_at) VALUES ($1, $2, $3, $4, $5)', [key, agencyId, kind, JSON.stringify(result ?? null), nowIso()]);
    },
    countWithPrefix: async (agencyId, prefix) =>
      (await sql.one<{ n: number }>('SELECT count(*)::int AS n FROM port_effects WHERE agency_id = $1 AND substr(idempotency_key, 1, length($2)) = $2', [agencyId, prefix]))!.n,
  };
}

/** The journal of vendor calls, on the same table as the embedded adapters' effects (see the SQLite one). */
export function storeEffectJournal(sql: Sql, now: () => Date = () => new Date()): EffectJournal {
  return {
    async lookup(agencyId, key): Promise<JournalEntry | null> {
      const r = await sql.one<{ state: string; result: string; created_at: string; attempts: number }>(
        'SELECT state, result, created_at, attempts FROM port_effects WHERE agency_id = $1 AND idempotency_key = $2',
        [agencyId, key],
      );
      if (!r) return null;
      return r.state === 'done' ? { state: 'done', result: parseJson(r.result, 'port_effects.result') } : { state: 'pending', startedAt: r.created_at, attempts: r.attempts };
    },
    async begin(agencyId, key, kind) {
      await sql.run(
        `INSERT INTO port_effects (agency_id, idempotency_key, kind, result, created_at, state, attempts) VALUES ($1, $2, $3, 'null', $4, 'pending', 1)
         ON CONFLICT (agency_id, idempotency_key) DO UPDATE SET attempts = port_effects.attempts + 1 WHERE port_effects.state = 'pending'`,
        [agencyId, key, kind, now().toISOString()],
      );
    },
    async complete(agencyId, key, kind, result) {
      await sql.run(
        `INSERT INTO port_effects (agency_id, idempotency_key, kind, result, created_at, state, attempts) VALUES ($1, $2, $3, $4, $5, 'done', 1)
         ON CONFLICT (agency_id, idempotency_key) DO UPDATE SET state = 'done', result = excluded.result, kind = excluded.kind`,
        [agencyId, key, kind, JSON.stringify(result ?? null), now().toISOString()],
      );
    },
    async abandon(agencyId, key) {
      await sql.run("DELETE FROM port_effects WHERE agency_id = $1 AND idempotency_key = $2 AND state = 'pending'", [agencyId, key]);
    },
  };
}
