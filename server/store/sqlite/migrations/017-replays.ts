import type { Migration } from './index.js';

/**
 * What-if replays (issue 40, item 7): a campaign's recent real calls dry-run through two graphs.
 * - `replay_jobs`: one row per replay, with both graphs as they were when it started (a version's,
 *   or a graph not saved, `to_version` NULL), the calls it takes (`since`, at most `max_calls`),
 *   its state ('running', then 'done', 'cancelled' or 'failed'), how many calls it will replay
 *   (`total`, known once listed), has replayed (`done`) and found changed (`changed`).
 * - `replay_results`: per call replayed, in the order listed (`seq`), its run and the dry runs under
 *   both graphs (`doc`, JSON); a call is written once (a repeated write of the same `seq` changes
 *   nothing), in the transaction that counts it.
 */
export const m017Replays: Migration = {
  name: 'replays',
  up(db) {
    db.exec(`
      CREATE TABLE replay_jobs (
        agency_id TEXT NOT NULL,
        id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        from_version INTEGER NOT NULL,
        to_version INTEGER,
        from_graph TEXT NOT NULL,
        to_graph TEXT NOT NULL,
        since TEXT NOT NULL,
        max_calls INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'cancelled', 'failed')),
        total INTEGER,
        done INTEGER NOT NULL DEFAULT 0,
        changed INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        key_id TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT,
        PRIMARY KEY (agency_id, id)
      ) STRICT;
      CREATE INDEX replay_jobs_running ON replay_jobs(agency_id, status);

      CREATE TABLE replay_results (
        agency_id TEXT NOT NULL,
        job_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        execution_id TEXT NOT NULL,
        changed INTEGER NOT NULL,
        doc TEXT NOT NULL,
        PRIMARY KEY (agency_id, job_id, seq)
      ) STRICT;
    `);
  },
};
