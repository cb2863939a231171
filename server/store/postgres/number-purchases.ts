import type { NumberPurchasesRepository } from '../index.js';
import type { PurchaseState } from '../records.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';
import { numberPurchaseFromRow as read, type NumberPurchaseRow as Row } from '../rows.js';

/** Purchases at a real carrier, moved on with each step that took effect (see the SQLite repository). */
export function numberPurchasesRepo(sql: Sql): NumberPurchasesRepository {
  const get = async (agencyId: string, key: string, on: Sql = sql) => read(await on.one<Row>('SELECT * FROM number_purchases WHERE agency_id = $1 AND purchase_key = $2', [agencyId, key]));
  const reread = async (agencyId: string, key: string, on: Sql = sql) => (await get(agencyId, key, on))!;
  const step = async (agencyId: string, key: string, from: PurchaseState, state: PurchaseState) => {
    await sql.run('UPDATE number_purchases SET state = $1, updated_at = $2 WHERE agency_id = $3 AND purchase_key = $4 AND state = $5', [state, nowIso(), agencyId, key, from]);
    return reread(agencyId, key);
  };
  return {
    get: (agencyId, key) => get(agencyId, key),
    async begin(p) {
      const at = nowIso();
      await sql.run(
        `INSERT INTO number_purchases (agency_id, purchase_key, request, campaign_id, phone_number, state, attempts, started_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'buying', 1, $6, $6)`,
        [p.agencyId, p.key, p.request, p.campaignId, p.phoneNumber, at],
      );
      return reread(p.agencyId, p.key);
    },
    async resumed(agencyId, key) {
      await sql.run('UPDATE number_purchases SET attempts = attempts + 1, updated_at = $1 WHERE agency_id = $2 AND purchase_key = $3', [nowIso(), agencyId, key]);
      return reread(agencyId, key);
    },
    async abandon(agencyId, key) {
      await sql.run("DELETE FROM number_purchases WHERE agency_id = $1 AND purchase_key = $2 AND state = 'buying'", [agencyId, key]);
    },
    bought: (p) =>
      sql.atomic(async (tx) => {
        const at = nowIso();
        await tx.run(
          "UPDATE number_purchases SET state = 'bought', phone_number = $1, twilio_sid = $2, updated_at = $3 WHERE agency_id = $4 AND purchase_key = $5 AND state = 'buying'",
          [p.phoneNumber, p.twilioSid, at, p.agencyId, p.key],
        );
        await tx.run(
          `INSERT INTO phone_numbers (agency_id, phone_number, nickname, bound_to_agent, bought_at, twilio_sid) VALUES ($1, $2, $3, false, $4, $5)
           ON CONFLICT (agency_id, phone_number) DO UPDATE SET twilio_sid = excluded.twilio_sid`,
          [p.agencyId, p.phoneNumber, p.nickname, at, p.twilioSid],
        );
        return reread(p.agencyId, p.key, tx);
      }),
    importing: (agencyId, key) => step(agencyId, key, 'bought', 'importing'),
    importRefused: (agencyId, key) => step(agencyId, key, 'importing', 'bought'),
    imported: (p) =>
      sql.atomic(async (tx) => {
        await tx.run(
          "UPDATE number_purchases SET state = 'imported', vapi_phone_number_id = $1, updated_at = $2 WHERE agency_id = $3 AND purchase_key = $4 AND state IN ('bought', 'importing')",
          [p.vapiId, nowIso(), p.agencyId, p.key],
        );
        await tx.run('UPDATE phone_numbers SET vapi_phone_number_id = $1 WHERE agency_id = $2 AND phone_number = $3', [p.vapiId, p.agencyId, p.phoneNumber]);
        return reread(p.agencyId, p.key, tx);
      }),
    done: (agencyId, key, from) => step(agencyId, key, from, 'done'),
  };
}
