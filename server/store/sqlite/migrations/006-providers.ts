import type { Migration } from './index.js';

/**
 * Real providers (a CRM, an SMS carrier, a voice platform):
 * - `credentials`: a vendor credential per agency (`owner` 'agency') or per project (`owner` the
 *   project id), sealed with AES-256-GCM (server/providers/sealing.ts); never stored in the clear.
 * - `port_effects` becomes the effect journal of vendor calls too: `state` 'pending' from just
 *   before a vendor call until its result is known (`created_at` is when the first attempt began,
 *   `attempts` counts them); the embedded adapters only ever write 'done' rows.
 * - `crm_pipelines` / `crm_calendars`: the sandbox CRM's setup per location, so the editor's
 *   pickers and the demo work without a real CRM.
 * - `agencies.settings`: agency-wide settings (the default SMS carrier).
 */
export const m006Providers: Migration = {
  name: 'providers',
  up(db) {
    db.exec(`
      CREATE TABLE credentials (
        agency_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        provider TEXT NOT NULL,
        sealed TEXT NOT NULL,
        key_id TEXT NOT NULL,
        hint TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, owner, provider)
      ) STRICT;

      ALTER TABLE port_effects ADD COLUMN state TEXT NOT NULL DEFAULT 'done';
      ALTER TABLE port_effects ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;

      CREATE TABLE crm_pipelines (
        agency_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        stages TEXT NOT NULL,
        PRIMARY KEY (agency_id, location_id, id)
      ) STRICT;
      CREATE TABLE crm_calendars (
        agency_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (agency_id, location_id, id)
      ) STRICT;

      ALTER TABLE agencies ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    `);
  },
};
