import type { PgMigration } from './index.js';

const T = 'text COLLATE "C"';

/**
 * What SQLite's schemas 15 to 17 added, for Postgres, and the rate limit's table:
 * - `idempotency_keys.holder` / `lease_until`: a claim in progress belongs to the request that
 *   holds it and lasts while it renews its lease; one whose lease ran out (its process died), or
 *   that has none (claimed before leases), is taken over by the key's next request.
 * - `leases`: named leases across processes (one OAuth token refresh per project at a time).
 * - `rate_limits`: rate-limiter-flexible's Postgres store (its own layout), one row per key and
 *   window, so every API process counts against one limit.
 * - `executions_campaign`: a campaign's runs by start time (step statistics, what-if replays).
 *   Step statistics on Postgres are computed from the steps when asked (no rollup: a rollup row per
 *   campaign, hour and step would be one hot row every worker updates at each step).
 * - `replay_jobs` / `replay_results`: what-if replays and each call's result.
 */
export const p002LeasesAndReplays: PgMigration = {
  name: 'leases-and-replays',
  sql: `
    ALTER TABLE idempotency_keys ADD COLUMN holder ${T}, ADD COLUMN lease_until ${T};

    CREATE TABLE leases (
      name ${T} PRIMARY KEY,
      holder ${T} NOT NULL,
      expires_at ${T} NOT NULL
    );

    CREATE TABLE rate_limits (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    );

    CREATE INDEX executions_campaign ON executions(agency_id, campaign_id, started_at DESC, id DESC);

    CREATE TABLE replay_jobs (
      agency_id ${T} NOT NULL,
      id ${T} NOT NULL,
      campaign_id ${T} NOT NULL,
      agent_id ${T} NOT NULL,
      from_version integer NOT NULL,
      to_version integer,
      from_graph ${T} NOT NULL,
      to_graph ${T} NOT NULL,
      since ${T} NOT NULL,
      max_calls integer NOT NULL,
      status ${T} NOT NULL CHECK (status IN ('running', 'done', 'cancelled', 'failed')),
      total integer,
      done integer NOT NULL DEFAULT 0,
      changed integer NOT NULL DEFAULT 0,
      error ${T},
      key_id ${T},
      created_at ${T} NOT NULL,
      finished_at ${T},
      PRIMARY KEY (agency_id, id)
    );
    CREATE INDEX replay_jobs_running ON replay_jobs(agency_id, status);

    CREATE TABLE replay_results (
      agency_id ${T} NOT NULL,
      job_id ${T} NOT NULL,
      seq integer NOT NULL,
      execution_id ${T} NOT NULL,
      changed boolean NOT NULL,
      doc ${T} NOT NULL,
      PRIMARY KEY (agency_id, job_id, seq)
    );
  `,
};
