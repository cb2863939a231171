import type { Migration } from './index.js';

/**
 * - `executions.kind`: `run` for a real post-call run, `test` for a test run (sandbox only, never
 *   listed with real runs unless asked for).
 * - `alerts`: what the agency must be told (a run failed after its retries, a project was
 *   disconnected), recorded in the same transaction as what caused it, then delivered by a
 *   Temporal workflow (a signed webhook and an email), so an alert is never lost.
 */
export const m008WorkflowTools: Migration = {
  name: 'workflow-tools',
  up(db) {
    db.exec(`
      ALTER TABLE executions ADD COLUMN kind TEXT NOT NULL DEFAULT 'run';
      CREATE INDEX executions_status ON executions(agency_id, status, started_at DESC);

      CREATE TABLE alerts (
        agency_id TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at TEXT NOT NULL,
        dispatched_at TEXT,
        delivered_at TEXT,
        emailed_at TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        PRIMARY KEY (agency_id, id)
      ) STRICT;
      CREATE INDEX alerts_waiting ON alerts(created_at) WHERE dispatched_at IS NULL;
    `);
  },
};
