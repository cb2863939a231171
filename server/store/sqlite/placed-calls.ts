import type { PlacedCallsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { PlacedCall } from '../records.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';
import { placedCallFromRow as fromRow, type PlacedCallRow as Row } from '../rows.js';

/** The calls the dialer placed, with the platform's id: a platform's end report is matched to one of them. */
export function placedCallsRepo(db: Db): Sync<PlacedCallsRepository> {
  const record = db.prepare(
    `INSERT INTO placed_calls (agency_id, call_id, platform, platform_call_id, campaign_id, contact_id, lead_id, placed_at)
     VALUES (@agencyId, @callId, @platform, @platformCallId, @campaignId, @contactId, @leadId, @placedAt)
     ON CONFLICT (agency_id, call_id) DO UPDATE SET platform_call_id = coalesce(excluded.platform_call_id, platform_call_id)`,
  );
  const byCall = db.prepare<[string, string], Row>('SELECT * FROM placed_calls WHERE agency_id = ? AND call_id = ?');
  const byPlatform = db.prepare<[string, string, string], Row>('SELECT * FROM placed_calls WHERE agency_id = ? AND platform = ? AND platform_call_id = ?');
  return {
    record(c: Omit<PlacedCall, 'placedAt' | 'leadId'> & { leadId?: string | null }): void {
      record.run({ ...c, leadId: c.leadId ?? null, placedAt: nowIso() });
    },
    get(agencyId: string, callId: string): PlacedCall | undefined {
      const r = byCall.get(agencyId, callId);
      return r ? fromRow(r) : undefined;
    },
    byPlatformId(agencyId: string, platform: string, platformCallId: string): PlacedCall | undefined {
      const r = byPlatform.get(agencyId, platform, platformCallId);
      return r ? fromRow(r) : undefined;
    },
  };
}
