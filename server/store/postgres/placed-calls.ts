import type { PlacedCallsRepository } from '../index.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';
import { placedCallFromRow as fromRow, type PlacedCallRow as Row } from '../rows.js';

export function placedCallsRepo(sql: Sql): PlacedCallsRepository {
  return {
    async record(c) {
      await sql.run(
        `INSERT INTO placed_calls (agency_id, call_id, platform, platform_call_id, campaign_id, contact_id, lead_id, placed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (agency_id, call_id) DO UPDATE SET platform_call_id = coalesce(excluded.platform_call_id, placed_calls.platform_call_id)`,
        [c.agencyId, c.callId, c.platform, c.platformCallId, c.campaignId, c.contactId, c.leadId ?? null, nowIso()],
      );
    },
    async get(agencyId, callId) {
      const r = await sql.one<Row>('SELECT * FROM placed_calls WHERE agency_id = $1 AND call_id = $2', [agencyId, callId]);
      return r ? fromRow(r) : undefined;
    },
    async byPlatformId(agencyId, platform, platformCallId) {
      const r = await sql.one<Row>('SELECT * FROM placed_calls WHERE agency_id = $1 AND platform = $2 AND platform_call_id = $3', [agencyId, platform, platformCallId]);
      return r ? fromRow(r) : undefined;
    },
  };
}
