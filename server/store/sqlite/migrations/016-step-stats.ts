import type { Migration } from './index.js';

/**
 * Step statistics on the canvas (issue 40, item 6): per campaign, hour, graph version and step,
 * what the real runs' steps did, kept by triggers as `execution_steps` is written, so a window of
 * up to 30 days is read from a few thousand rows instead of every step of the campaign.
 *
 * - `step_stats`: one row per (agency, campaign, hour the step started, graph version, node):
 *   `reached` counts step rows (one per run that reached the node); the status columns count each
 *   row by its status now (a step retried from `failed` to `succeeded` moves from one to the
 *   other); the last error recorded there, with its run.
 * - `step_durations`: a histogram of the finished steps' durations (succeeded or failed) under the
 *   same key, in buckets a quarter of a power of two wide: bucket b holds durations from 2^(b/4)
 *   to 2^((b+1)/4) ms (bucket 0 also holds everything under 1 ms). A percentile read from it is
 *   within ~9% of the true value.
 * - `step_durations_daily`: the same histogram per day (`day`, the step's start, yyyy-mm-dd): a
 *   window reads whole days from it and only the hours before its first whole day from the hourly
 *   one (a million steps over 30 days make ~165,000 hourly histogram rows, ~7,000 daily ones).
 * - Test runs (`executions.kind = 'test'`) are left out.
 * - `executions_campaign`: a campaign's runs, newest first (the replay of issue 40 item 7 lists
 *   a campaign's recent calls by it).
 *
 * The rows already stored are rolled up once, here. The SQL is written out as it shipped.
 */
export const m016StepStats: Migration = {
  name: 'step-stats',
  up(db) {
    db.exec(`
      CREATE TABLE step_stats (
        agency_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        hour TEXT NOT NULL,
        graph_version INTEGER NOT NULL,
        node_id TEXT NOT NULL,
        reached INTEGER NOT NULL DEFAULT 0,
        succeeded INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        skipped INTEGER NOT NULL DEFAULT 0,
        evaluated INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        last_error_execution_id TEXT,
        last_error_at TEXT,
        PRIMARY KEY (agency_id, campaign_id, hour, graph_version, node_id)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE step_durations (
        agency_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        hour TEXT NOT NULL,
        graph_version INTEGER NOT NULL,
        node_id TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (agency_id, campaign_id, hour, graph_version, node_id, bucket)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE step_durations_daily (
        agency_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        day TEXT NOT NULL,
        graph_version INTEGER NOT NULL,
        node_id TEXT NOT NULL,
        bucket INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (agency_id, campaign_id, day, graph_version, node_id, bucket)
      ) STRICT, WITHOUT ROWID;

      CREATE INDEX executions_campaign ON executions(agency_id, campaign_id, started_at DESC);

      INSERT INTO step_stats (agency_id, campaign_id, hour, graph_version, node_id, reached, succeeded, failed, skipped, evaluated)
      SELECT e.agency_id, e.campaign_id, substr(s.started_at, 1, 13), e.graph_version, s.node_id, count(*),
        sum(s.status = 'succeeded'), sum(s.status = 'failed'), sum(s.status = 'skipped'), sum(s.status = 'evaluated')
      FROM execution_steps s JOIN executions e ON e.id = s.execution_id
      WHERE e.kind = 'run'
      GROUP BY 1, 2, 3, 4, 5;

      UPDATE step_stats SET last_error = f.error, last_error_execution_id = f.execution_id, last_error_at = f.at
      FROM (
        SELECT e.agency_id, e.campaign_id, substr(s.started_at, 1, 13) AS hour, e.graph_version, s.node_id,
          coalesce(s.error, 'failed') AS error, s.execution_id, coalesce(s.finished_at, s.started_at) AS at,
          row_number() OVER (PARTITION BY e.agency_id, e.campaign_id, substr(s.started_at, 1, 13), e.graph_version, s.node_id ORDER BY coalesce(s.finished_at, s.started_at) DESC) AS r
        FROM execution_steps s JOIN executions e ON e.id = s.execution_id
        WHERE e.kind = 'run' AND s.status = 'failed'
      ) AS f
      WHERE f.r = 1 AND f.agency_id = step_stats.agency_id AND f.campaign_id = step_stats.campaign_id AND f.hour = step_stats.hour
        AND f.graph_version = step_stats.graph_version AND f.node_id = step_stats.node_id;

      INSERT INTO step_durations (agency_id, campaign_id, hour, graph_version, node_id, bucket, n)
      SELECT e.agency_id, e.campaign_id, substr(s.started_at, 1, 13), e.graph_version, s.node_id,
        CAST(floor(log2(max(1.0, (julianday(s.finished_at) - julianday(s.started_at)) * 86400000.0)) * 4) AS INTEGER), count(*)
      FROM execution_steps s JOIN executions e ON e.id = s.execution_id
      WHERE e.kind = 'run' AND s.finished_at IS NOT NULL AND s.status IN ('succeeded', 'failed')
      GROUP BY 1, 2, 3, 4, 5, 6;

      INSERT INTO step_durations_daily (agency_id, campaign_id, day, graph_version, node_id, bucket, n)
      SELECT agency_id, campaign_id, substr(hour, 1, 10), graph_version, node_id, bucket, sum(n)
      FROM step_durations
      GROUP BY 1, 2, 3, 4, 5, 6;

      CREATE TRIGGER step_stats_insert AFTER INSERT ON execution_steps
      WHEN (SELECT kind FROM executions WHERE id = NEW.execution_id) = 'run'
      BEGIN
        INSERT INTO step_stats (agency_id, campaign_id, hour, graph_version, node_id, reached, succeeded, failed, skipped, evaluated, last_error, last_error_execution_id, last_error_at)
        SELECT e.agency_id, e.campaign_id, substr(NEW.started_at, 1, 13), e.graph_version, NEW.node_id, 1,
          NEW.status = 'succeeded', NEW.status = 'failed', NEW.status = 'skipped', NEW.status = 'evaluated',
          CASE WHEN NEW.status = 'failed' THEN coalesce(NEW.error, 'failed') END,
          CASE WHEN NEW.status = 'failed' THEN NEW.execution_id END,
          CASE WHEN NEW.status = 'failed' THEN coalesce(NEW.finished_at, NEW.started_at) END
        FROM executions e WHERE e.id = NEW.execution_id
        ON CONFLICT DO UPDATE SET
          reached = reached + 1,
          succeeded = succeeded + excluded.succeeded,
          failed = failed + excluded.failed,
          skipped = skipped + excluded.skipped,
          evaluated = evaluated + excluded.evaluated,
          last_error = CASE WHEN excluded.last_error_at >= coalesce(last_error_at, '') THEN excluded.last_error ELSE last_error END,
          last_error_execution_id = CASE WHEN excluded.last_error_at >= coalesce(last_error_at, '') THEN excluded.last_error_execution_id ELSE last_error_execution_id END,
          last_error_at = CASE WHEN excluded.last_error_at >= coalesce(last_error_at, '') THEN excluded.last_error_at ELSE last_error_at END;

        INSERT INTO step_durations (agency_id, campaign_id, hour, graph_version, node_id, bucket, n)
        SELECT e.agency_id, e.campaign_id, substr(NEW.started_at, 1, 13), e.graph_version, NEW.node_id,
          CAST(floor(log2(max(1.0, (julianday(NEW.finished_at) - julianday(NEW.started_at)) * 86400000.0)) * 4) AS INTEGER), 1
        FROM executions e
        WHERE e.id = NEW.execution_id AND NEW.finished_at IS NOT NULL AND NEW.status IN ('succeeded', 'failed')
        ON CONFLICT DO UPDATE SET n = n + 1;
        INSERT INTO step_durations_daily (agency_id, campaign_id, day, graph_version, node_id, bucket, n)
        SELECT e.agency_id, e.campaign_id, substr(NEW.started_at, 1, 10), e.graph_version, NEW.node_id,
          CAST(floor(log2(max(1.0, (julianday(NEW.finished_at) - julianday(NEW.started_at)) * 86400000.0)) * 4) AS INTEGER), 1
        FROM executions e
        WHERE e.id = NEW.execution_id AND NEW.finished_at IS NOT NULL AND NEW.status IN ('succeeded', 'failed')
        ON CONFLICT DO UPDATE SET n = n + 1;
      END;

      CREATE TRIGGER step_stats_update AFTER UPDATE OF status, finished_at, error ON execution_steps
      WHEN (SELECT kind FROM executions WHERE id = NEW.execution_id) = 'run'
      BEGIN
        UPDATE step_stats SET
          succeeded = succeeded - (OLD.status = 'succeeded') + (NEW.status = 'succeeded'),
          failed = failed - (OLD.status = 'failed') + (NEW.status = 'failed'),
          skipped = skipped - (OLD.status = 'skipped') + (NEW.status = 'skipped'),
          evaluated = evaluated - (OLD.status = 'evaluated') + (NEW.status = 'evaluated'),
          last_error = CASE WHEN NEW.status = 'failed' AND coalesce(NEW.finished_at, NEW.started_at) >= coalesce(last_error_at, '') THEN coalesce(NEW.error, 'failed') ELSE last_error END,
          last_error_execution_id = CASE WHEN NEW.status = 'failed' AND coalesce(NEW.finished_at, NEW.started_at) >= coalesce(last_error_at, '') THEN NEW.execution_id ELSE last_error_execution_id END,
          last_error_at = CASE WHEN NEW.status = 'failed' AND coalesce(NEW.finished_at, NEW.started_at) >= coalesce(last_error_at, '') THEN coalesce(NEW.finished_at, NEW.started_at) ELSE last_error_at END
        WHERE agency_id = (SELECT agency_id FROM executions WHERE id = OLD.execution_id)
          AND campaign_id = (SELECT campaign_id FROM executions WHERE id = OLD.execution_id)
          AND hour = substr(OLD.started_at, 1, 13)
          AND graph_version = (SELECT graph_version FROM executions WHERE id = OLD.execution_id)
          AND node_id = OLD.node_id;

        UPDATE step_durations SET n = n - 1
        WHERE OLD.finished_at IS NOT NULL AND OLD.status IN ('succeeded', 'failed')
          AND agency_id = (SELECT agency_id FROM executions WHERE id = OLD.execution_id)
          AND campaign_id = (SELECT campaign_id FROM executions WHERE id = OLD.execution_id)
          AND hour = substr(OLD.started_at, 1, 13)
          AND graph_version = (SELECT graph_version FROM executions WHERE id = OLD.execution_id)
          AND node_id = OLD.node_id
          AND bucket = CAST(floor(log2(max(1.0, (julianday(OLD.finished_at) - julianday(OLD.started_at)) * 86400000.0)) * 4) AS INTEGER);

        UPDATE step_durations_daily SET n = n - 1
        WHERE OLD.finished_at IS NOT NULL AND OLD.status IN ('succeeded', 'failed')
          AND agency_id = (SELECT agency_id FROM executions WHERE id = OLD.execution_id)
          AND campaign_id = (SELECT campaign_id FROM executions WHERE id = OLD.execution_id)
          AND day = substr(OLD.started_at, 1, 10)
          AND graph_version = (SELECT graph_version FROM executions WHERE id = OLD.execution_id)
          AND node_id = OLD.node_id
          AND bucket = CAST(floor(log2(max(1.0, (julianday(OLD.finished_at) - julianday(OLD.started_at)) * 86400000.0)) * 4) AS INTEGER);

        INSERT INTO step_durations (agency_id, campaign_id, hour, graph_version, node_id, bucket, n)
        SELECT e.agency_id, e.campaign_id, substr(NEW.started_at, 1, 13), e.graph_version, NEW.node_id,
          CAST(floor(log2(max(1.0, (julianday(NEW.finished_at) - julianday(NEW.started_at)) * 86400000.0)) * 4) AS INTEGER), 1
        FROM executions e
        WHERE e.id = NEW.execution_id AND NEW.finished_at IS NOT NULL AND NEW.status IN ('succeeded', 'failed')
        ON CONFLICT DO UPDATE SET n = n + 1;
        INSERT INTO step_durations_daily (agency_id, campaign_id, day, graph_version, node_id, bucket, n)
        SELECT e.agency_id, e.campaign_id, substr(NEW.started_at, 1, 10), e.graph_version, NEW.node_id,
          CAST(floor(log2(max(1.0, (julianday(NEW.finished_at) - julianday(NEW.started_at)) * 86400000.0)) * 4) AS INTEGER), 1
        FROM executions e
        WHERE e.id = NEW.execution_id AND NEW.finished_at IS NOT NULL AND NEW.status IN ('succeeded', 'failed')
        ON CONFLICT DO UPDATE SET n = n + 1;
      END;
    `);
  },
};
