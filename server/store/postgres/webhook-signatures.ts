import type { WebhookSignaturesRepository } from '../index.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';

/** Replay guard of signed webhooks; rows older than twice the window are pruned, at most once a minute per process. */
export function webhookSignaturesRepo(sql: Sql, state: { prunedAt: number }): WebhookSignaturesRepository {
  return {
    async claim(agencyId, source, signature, toleranceSeconds) {
      const now = Date.now();
      if (now - state.prunedAt > 60_000) {
        state.prunedAt = now;
        await sql.run('DELETE FROM webhook_signatures WHERE received_at < $1', [new Date(now - 2 * toleranceSeconds * 1000).toISOString()]);
      }
      return (await sql.run('INSERT INTO webhook_signatures (agency_id, source, signature, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [agencyId, source, signature, nowIso()])) === 1;
    },
  };
}
