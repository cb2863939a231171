import type { Migration } from './index.js';

/**
 * API keys over HTTP (issue 15): a key may expire (`expires_at`, unset: never), and records which
 * key created it (`created_by`, unset for keys made by the CLI or the seed).
 */
export const m009Ops: Migration = {
  name: 'ops',
  up(db) {
    db.exec(`
      ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
      ALTER TABLE api_keys ADD COLUMN created_by TEXT;
    `);
  },
};
