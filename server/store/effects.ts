import type { Db } from './db.js';
import { nowIso } from './ids.js';

/**
 * Exactly-once effects for the embedded adapters: in one transaction, return the result recorded
 * under the idempotency key, or perform the effect and record its result. A retried activity thus
 * finds its first attempt's result instead of tagging or texting twice.
 */
export function effectsRepo(db: Db) {
  const get = db.prepare<[string], { result: string }>('SELECT result FROM port_effects WHERE idempotency_key = ?');
  const put = db.prepare('INSERT INTO port_effects (idempotency_key, agency_id, kind, result, created_at) VALUES (?, ?, ?, ?, ?)');
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM port_effects WHERE idempotency_key LIKE ?');
  return {
    once<T>(key: string, agencyId: string, kind: string, perform: () => T): T {
      return db.transaction(() => {
        const prior = get.get(key);
        if (prior) return JSON.parse(prior.result) as T;
        const result = perform();
        put.run(key, agencyId, kind, JSON.stringify(result ?? null), nowIso());
        return result;
      }).immediate();
    },
    countWithPrefix: (prefix: string) => count.get(`${prefix}%`)!.n,
  };
}
export type EffectsRepo = ReturnType<typeof effectsRepo>;
