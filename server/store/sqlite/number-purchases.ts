import type { NumberPurchasesRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { NumberPurchase, PurchaseState } from '../records.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';
import { numberPurchaseFromRow as read, type NumberPurchaseRow as Row } from '../rows.js';

/**
 * Purchases of numbers at a real carrier, written before the carrier is asked and moved on with
 * each step that took effect, so a purchase whose outcome was lost is resumed, never repeated. The
 * steps that also change the agency's numbers write both tables in one transaction.
 */
export function numberPurchasesRepo(db: Db): Sync<NumberPurchasesRepository> {
  const get = db.prepare<[string, string], Row>('SELECT * FROM number_purchases WHERE agency_id = ? AND purchase_key = ?');
  const begin = db.prepare(
    `INSERT INTO number_purchases (agency_id, purchase_key, request, campaign_id, phone_number, state, attempts, started_at, updated_at)
     VALUES (@agencyId, @key, @request, @campaignId, @phoneNumber, 'buying', 1, @at, @at)`,
  );
  const resumed = db.prepare('UPDATE number_purchases SET attempts = attempts + 1, updated_at = ? WHERE agency_id = ? AND purchase_key = ?');
  const abandon = db.prepare("DELETE FROM number_purchases WHERE agency_id = ? AND purchase_key = ? AND state = 'buying'");
  const bought = db.prepare(
    `UPDATE number_purchases SET state = 'bought', phone_number = @phoneNumber, twilio_sid = @twilioSid, updated_at = @at
     WHERE agency_id = @agencyId AND purchase_key = @key AND state = 'buying'`,
  );
  const storeBought = db.prepare(
    `INSERT INTO phone_numbers (agency_id, phone_number, nickname, bound_to_agent, bought_at, twilio_sid) VALUES (@agencyId, @phoneNumber, @nickname, 0, @at, @twilioSid)
     ON CONFLICT (agency_id, phone_number) DO UPDATE SET twilio_sid = excluded.twilio_sid`,
  );
  const setState = db.prepare('UPDATE number_purchases SET state = @state, updated_at = @at WHERE agency_id = @agencyId AND purchase_key = @key AND state = @from');
  const imported = db.prepare(
    `UPDATE number_purchases SET state = 'imported', vapi_phone_number_id = @vapiId, updated_at = @at
     WHERE agency_id = @agencyId AND purchase_key = @key AND state IN ('bought', 'importing')`,
  );
  const storeImported = db.prepare('UPDATE phone_numbers SET vapi_phone_number_id = @vapiId WHERE agency_id = @agencyId AND phone_number = @phoneNumber');

  const reread = (agencyId: string, key: string) => read(get.get(agencyId, key))!;
  const step = (agencyId: string, key: string, from: PurchaseState, state: PurchaseState) => {
    setState.run({ agencyId, key, from, state, at: nowIso() });
    return reread(agencyId, key);
  };
  const recordBought = db.transaction((p: { agencyId: string; key: string; phoneNumber: string; twilioSid: string; nickname: string }) => {
    const at = nowIso();
    bought.run({ ...p, at });
    storeBought.run({ ...p, at });
  });
  const recordImported = db.transaction((p: { agencyId: string; key: string; phoneNumber: string; vapiId: string }) => {
    const at = nowIso();
    imported.run({ ...p, at });
    storeImported.run(p);
  });

  return {
    get: (agencyId: string, key: string) => read(get.get(agencyId, key)),
    /** the intent, before Twilio is asked to buy `phoneNumber` */
    begin(p: { agencyId: string; key: string; request: string; campaignId: string; phoneNumber: string }): NumberPurchase {
      begin.run({ ...p, at: nowIso() });
      return reread(p.agencyId, p.key);
    },
    /** another request took the purchase up where an earlier one left it */
    resumed(agencyId: string, key: string): NumberPurchase {
      resumed.run(nowIso(), agencyId, key);
      return reread(agencyId, key);
    },
    /** Twilio definitely bought nothing: the key may start a new purchase */
    abandon: (agencyId: string, key: string) => void abandon.run(agencyId, key),
    /** Twilio bought it: the number is the agency's from now on, with its SID, in the same transaction */
    bought(p: { agencyId: string; key: string; phoneNumber: string; twilioSid: string; nickname: string }): NumberPurchase {
      recordBought.immediate(p);
      return reread(p.agencyId, p.key);
    },
    /** a Vapi import is about to be sent */
    importing: (agencyId: string, key: string) => step(agencyId, key, 'bought', 'importing'),
    /** Vapi definitely did not import it */
    importRefused: (agencyId: string, key: string) => step(agencyId, key, 'importing', 'bought'),
    /** Vapi has it: its id on the purchase and on the agency's number, in one transaction */
    imported(p: { agencyId: string; key: string; phoneNumber: string; vapiId: string }): NumberPurchase {
      recordImported.immediate(p);
      return reread(p.agencyId, p.key);
    },
    /** assigned to the campaign; called inside the transaction that assigns it */
    done(agencyId: string, key: string, from: PurchaseState): NumberPurchase {
      return step(agencyId, key, from, 'done');
    },
  };
}
