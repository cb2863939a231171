import type { Migration } from './index.js';

/**
 * A real voice platform (Vapi) and a usable webhook contract:
 * - `agencies`: the previous signing secret stays valid until `previous_secret_until` (a rotation's
 *   grace period); `signing_secret_revealed_at` makes the current secret readable once.
 * - `placed_calls`: each call the dialer placed, with the platform's own id, so a platform report
 *   is matched to our call (and one we never placed is refused).
 * - `phone_numbers.vapi_phone_number_id`: the platform's id of a caller ID the agency owns there.
 */
export const m007VoicePlatform: Migration = {
  name: 'voice-platform',
  up(db) {
    db.exec(`
      ALTER TABLE agencies ADD COLUMN previous_signing_secret TEXT;
      ALTER TABLE agencies ADD COLUMN previous_secret_until TEXT;
      ALTER TABLE agencies ADD COLUMN signing_secret_revealed_at TEXT;

      CREATE TABLE placed_calls (
        agency_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        platform TEXT NOT NULL,
        platform_call_id TEXT,
        campaign_id TEXT NOT NULL,
        contact_id TEXT NOT NULL,
        lead_id TEXT,
        placed_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, call_id)
      ) STRICT;
      CREATE INDEX placed_calls_platform ON placed_calls(agency_id, platform, platform_call_id);

      ALTER TABLE phone_numbers ADD COLUMN vapi_phone_number_id TEXT;
    `);
  },
};
