import type { Migration } from './index.js';

/**
 * - A failed run is retried at most once: `retried_by` links it to its retry (claimed atomically,
 *   so two concurrent retries cannot both start), `retry_of` links a retry to the run it resumes.
 * - Every accepted webhook signature is kept (until it is too old to pass the freshness check
 *   anyway), so any reused signature is refused, not only the first one per call and event type.
 *   The first signatures stored in `call_events` carry over.
 */
export const m005RetriesAndSignatures: Migration = {
  name: 'retries-and-signatures',
  up(db) {
    db.exec(`
      ALTER TABLE executions ADD COLUMN retry_of TEXT;
      ALTER TABLE executions ADD COLUMN retried_by TEXT;
      UPDATE executions SET retry_of = (
        SELECT o.id FROM executions o
        WHERE o.agency_id = executions.agency_id AND executions.workflow_id = o.workflow_id || ':retry:' || executions.id
      ) WHERE workflow_id LIKE '%:retry:%';
      UPDATE executions SET retried_by = (
        SELECT r.id FROM executions r WHERE r.agency_id = executions.agency_id AND r.retry_of = executions.id ORDER BY r.started_at DESC LIMIT 1
      );

      CREATE TABLE webhook_signatures (
        agency_id TEXT NOT NULL,
        source TEXT NOT NULL,
        signature TEXT NOT NULL,
        received_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, source, signature)
      ) STRICT;
      CREATE INDEX webhook_signatures_age ON webhook_signatures(received_at);
      INSERT INTO webhook_signatures (agency_id, source, signature, received_at)
        SELECT agency_id, 'calls', signature, received_at FROM call_events;
    `);
  },
};
