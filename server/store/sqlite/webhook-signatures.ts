import type { WebhookSignaturesRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';

/**
 * Replay guard of signed webhooks (call events, and vendors' server messages): every signature an
 * agency's sender used is kept, so a reused one is refused whatever the event. A signature older
 * than the freshness window is refused by its timestamp anyway, so rows older than twice the window
 * are pruned, at most once a minute.
 */
export function webhookSignaturesRepo(db: Db): Sync<WebhookSignaturesRepository> {
  const claim = db.prepare('INSERT INTO webhook_signatures (agency_id, source, signature, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const prune = db.prepare('DELETE FROM webhook_signatures WHERE received_at < ?');
  let prunedAt = 0;
  return {
    /** Records the signature; false when this agency's sender used it before (a replay). */
    claim(agencyId: string, source: string, signature: string, toleranceSeconds: number): boolean {
      const now = Date.now();
      if (now - prunedAt > 60_000) {
        prunedAt = now;
        prune.run(new Date(now - 2 * toleranceSeconds * 1000).toISOString());
      }
      return claim.run(agencyId, source, signature, nowIso()).changes === 1;
    },
  };
}
