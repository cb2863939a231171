import type { Db } from './db.js';
import { nowIso } from './ids.js';

/**
 * Keys are unique per agency (the table's key is agency + idempotency key), so two agencies whose
 * outside ids make the same key never share an effect.
 *
 * Exactly-once effects for the embedded adapters: in one transaction, return the result recorded
 * under the idempotency key, or perform the effect and record its result. A retried activity thus
 * finds its first attempt's result instead of tagging or texting twice.
 */
export function effectsRepo(db: Db) {
  const get = db.prepare<[string, string], { result: string }>("SELECT result FROM port_effects WHERE agency_id = ? AND idempotency_key = ? AND state = 'done'");
  const put = db.prepare('INSERT INTO port_effects (idempotency_key, agency_id, kind, result, created_at) VALUES (?, ?, ?, ?, ?)');
  const count = db.prepare<{ agencyId: string; prefix: string }, { n: number }>(
    'SELECT count(*) AS n FROM port_effects WHERE agency_id = @agencyId AND substr(idempotency_key, 1, length(@prefix)) = @prefix',
  );
  // Made once: better-sqlite3 builds a wrapper per `db.transaction` call.
  const onceTx = db.transaction((key: string, agencyId: string, kind: string, perform: () => unknown) => {
    const prior = get.get(agencyId, key);
    if (prior) return JSON.parse(prior.result) as unknown;
    const result = perform();
    put.run(key, agencyId, kind, JSON.stringify(result ?? null), nowIso());
    return result;
  });
  return {
    once<T>(key: string, agencyId: string, kind: string, perform: () => T): T {
      return onceTx.immediate(key, agencyId, kind, perform) as T;
    },
    /** effects recorded under keys that start with `prefix` (a run's or a call's), for tests and diagnostics */
    countWithPrefix: (agencyId: string, prefix: string) => count.get({ agencyId, prefix })!.n,
  };
}
export type EffectsRepo = ReturnType<typeof effectsRepo>;
