import type { EffectsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';
import { parseJson } from './db.js';

/**
 * The embedded adapters' effects, by idempotency key (server/adapters/effect-once.ts reads and
 * records them in the effect's own transaction). Keys are unique per agency (the table's key is
 * agency + idempotency key), so two agencies whose outside ids make the same key never share one.
 */
export function effectsRepo(db: Db): Sync<EffectsRepository> {
  const get = db.prepare<[string, string], { result: string }>("SELECT result FROM port_effects WHERE agency_id = ? AND idempotency_key = ? AND state = 'done'");
  const put = db.prepare('INSERT INTO port_effects (idempotency_key, agency_id, kind, result, created_at) VALUES (?, ?, ?, ?, ?)');
  const count = db.prepare<{ agencyId: string; prefix: string }, { n: number }>(
    'SELECT count(*) AS n FROM port_effects WHERE agency_id = @agencyId AND substr(idempotency_key, 1, length(@prefix)) = @prefix',
  );
  return {
    result(agencyId, key) {
      const prior = get.get(agencyId, key);
      return prior ? { value: parseJson<unknown>(prior.result, 'port_effects.result') } : undefined;
    },
    record(agencyId, key, kind, result) {
      put.run(key, agencyId, kind, JSON.stringify(result ?? null), nowIso());
    },
    countWithPrefix: (agencyId, prefix) => count.get({ agencyId, prefix })!.n,
  };
}
