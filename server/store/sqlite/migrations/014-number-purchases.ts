import type { Migration } from './index.js';

/**
 * Buying real numbers (Twilio), which Twilio does not make idempotent:
 * - `number_purchases`: one row per purchase, keyed by the agency and the request's
 *   Idempotency-Key, written before Twilio is asked to buy (`state` 'buying', with the number
 *   being bought) and moved on as each step takes effect: 'bought' (Twilio's SID known, the number
 *   stored as the agency's), 'importing' (a Vapi import sent, its answer not yet known),
 *   'imported' (its Vapi id stored), 'done' (assigned to the campaign). A row not 'done' is what a
 *   failure or a crash left; the next request with the same key resumes it from there.
 *   `request` is the canonical JSON of the body, so a different request under that key is refused.
 * - `phone_numbers.twilio_sid`: the IncomingPhoneNumber SID of a number bought at Twilio.
 */
export const m014NumberPurchases: Migration = {
  name: 'number-purchases',
  up(db) {
    db.exec(`
      CREATE TABLE number_purchases (
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        purchase_key TEXT NOT NULL,
        request TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        phone_number TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('buying', 'bought', 'importing', 'imported', 'done')),
        twilio_sid TEXT,
        vapi_phone_number_id TEXT,
        attempts INTEGER NOT NULL DEFAULT 1,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, purchase_key)
      ) STRICT;

      ALTER TABLE phone_numbers ADD COLUMN twilio_sid TEXT;
    `);
  },
};
