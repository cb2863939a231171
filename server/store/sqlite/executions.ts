import type { ExecutionsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Execution, StepStats } from '../records.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { nowIso } from '../../ids.js';



interface ExecRow {
  id: string;
  workflow_id: string;
  campaign_id: string;
  agent_id: string;
  call_id: string;
  outcome: string;
  graph_version: number;
  status: string;
  error: string | null;
  started_at: string;
  finished_at: string | null;
  retry_of: string | null;
  retried_by: string | null;
  kind: string;
}

interface StepRow {
  seq: number;
  node_id: string;
  node_type: string;
  status: string;
  attempts: number;
  input: string | null;
  output: string | null;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

/**
 * A percentile of a duration histogram (buckets a quarter of a power of two wide, migration 016):
 * the geometric middle of the bucket the percentile falls in, so within ~9% of the true value.
 */
function percentileOf(buckets: readonly { bucket: number; n: number }[], p: number): number | null {
  const total = buckets.reduce((t, b) => t + b.n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const b of buckets) {
    seen += b.n;
    if (seen >= rank) {
      const ms = 2 ** ((b.bucket + 0.5) / 4);
      return ms >= 10 ? Math.round(ms) : Math.round(ms * 10) / 10;
    }
  }
  return null;
}

export function executionsRepo(db: Db): Sync<ExecutionsRepository> {
  const insert = db.prepare(
    `INSERT INTO executions (id, agency_id, workflow_id, campaign_id, agent_id, call_id, outcome, graph_version, status, started_at, retry_of, kind)
     VALUES (@id, @agencyId, @workflowId, @campaignId, @agentId, @callId, @outcome, @graphVersion, 'running', @startedAt, @retryOf, @kind)
     ON CONFLICT (agency_id, workflow_id) DO NOTHING`,
  );
  const get = db.prepare<[string, string], ExecRow>('SELECT * FROM executions WHERE agency_id = ? AND id = ?');
  const byWorkflow = db.prepare<[string, string], ExecRow>('SELECT * FROM executions WHERE agency_id = ? AND workflow_id = ?');
  const firstOfCall = db.prepare<[string, string], ExecRow>(
    'SELECT * FROM executions WHERE agency_id = ? AND call_id = ? ORDER BY started_at, id LIMIT 1',
  );
  const list = db.prepare<[string, string, string, number], ExecRow>(
    'SELECT * FROM executions WHERE agency_id = ? AND agent_id = ? AND kind = ? ORDER BY started_at DESC, id DESC LIMIT ?',
  );
  const failedRuns = db.prepare<{ agencyId: string; projects: string | null; limit: number }, ExecRow>(
    `SELECT e.* FROM executions e JOIN campaigns c ON c.id = e.campaign_id
     WHERE e.agency_id = @agencyId AND e.status = 'failed' AND e.kind = 'run' AND e.retried_by IS NULL
       AND (@projects IS NULL OR c.project_id IN (SELECT value FROM json_each(@projects)))
     ORDER BY e.started_at DESC, e.id DESC LIMIT @limit`,
  );
  const inFlight = db.prepare<[string, string], { version: number; n: number }>(
    "SELECT graph_version AS version, count(*) AS n FROM executions WHERE agency_id = ? AND campaign_id = ? AND status = 'running' AND kind = 'run' GROUP BY graph_version ORDER BY graph_version",
  );
  const steps = db.prepare<[string], StepRow>('SELECT * FROM execution_steps WHERE execution_id = ? ORDER BY seq');
  // `attempts` counts the attempts that started, whoever numbers them: an attempt cut off by a
  // dead worker is counted even where the next one carries the same number (a local activity
  // re-run after the workflow task timed out starts again at 1).
  const stepStart = db.prepare(
    `INSERT INTO execution_steps (execution_id, seq, node_id, node_type, status, attempts, input, started_at)
     VALUES (@executionId, @seq, @nodeId, @nodeType, 'running', @attempt, @input, @at)
     ON CONFLICT (execution_id, seq) DO UPDATE SET status = 'running', attempts = max(execution_steps.attempts + 1, excluded.attempts), error = NULL`,
  );
  const stepFinish = db.prepare(
    `INSERT INTO execution_steps (execution_id, seq, node_id, node_type, status, attempts, input, output, error, started_at, finished_at)
     VALUES (@executionId, @seq, @nodeId, @nodeType, @status, @attempt, @input, @output, @error, @at, @at)
     ON CONFLICT (execution_id, seq) DO UPDATE SET status = excluded.status, attempts = max(execution_steps.attempts, excluded.attempts),
       input = coalesce(excluded.input, input), output = excluded.output, error = excluded.error, finished_at = excluded.finished_at`,
  );
  const claimRetry = db.prepare(
    "UPDATE executions SET retried_by = ? WHERE agency_id = ? AND id = ? AND status = 'failed' AND retried_by IS NULL",
  );
  const undoRetry = [
    db.prepare('UPDATE executions SET retried_by = NULL WHERE agency_id = @agencyId AND id = @failedId AND retried_by = @retryId'),
    db.prepare('DELETE FROM run_inputs WHERE agency_id = @agencyId AND workflow_id = (SELECT workflow_id FROM executions WHERE agency_id = @agencyId AND id = @retryId)'),
    db.prepare('DELETE FROM executions WHERE agency_id = @agencyId AND id = @retryId'),
  ];
  const byId = db.prepare<[string], ExecRow & { agency_id: string }>('SELECT * FROM executions WHERE id = ?');
  const finish = db.prepare('UPDATE executions SET status = ?, error = ?, finished_at = ? WHERE id = ?');
  const outcomeOf = db.prepare<[string], { outcome: string }>('SELECT outcome FROM executions WHERE id = ?');
  // Step statistics read from the rollup migration 016's triggers keep (hour buckets); the one
  // max() makes the bare last_error columns those of the row with the latest error.
  type StatsQuery = { agencyId: string; campaignId: string; since: string; version: number | null };
  const statsCounts = db.prepare<StatsQuery, { node_id: string; reached: number; succeeded: number; failed: number; skipped: number; evaluated: number; last_error: string | null; last_error_execution_id: string | null; last_error_at: string | null }>(
    `SELECT node_id, sum(reached) AS reached, sum(succeeded) AS succeeded, sum(failed) AS failed, sum(skipped) AS skipped, sum(evaluated) AS evaluated,
       last_error, last_error_execution_id, max(last_error_at) AS last_error_at
     FROM step_stats
     WHERE agency_id = @agencyId AND campaign_id = @campaignId AND hour >= substr(@since, 1, 13) AND (@version IS NULL OR graph_version = @version)
     GROUP BY node_id`,
  );
  // Whole days from the daily histogram, the hours before the window's first whole day from the
  // hourly one ('2026-11-20T05' < '2026-11-21' <= '2026-11-21T00' as text).
  const statsDurations = db.prepare<StatsQuery & { firstDay: string }, { node_id: string; bucket: number; n: number }>(
    `SELECT node_id, bucket, sum(n) AS n FROM (
       SELECT node_id, bucket, n FROM step_durations
       WHERE agency_id = @agencyId AND campaign_id = @campaignId AND hour >= substr(@since, 1, 13) AND hour < @firstDay AND (@version IS NULL OR graph_version = @version)
       UNION ALL
       SELECT node_id, bucket, n FROM step_durations_daily
       WHERE agency_id = @agencyId AND campaign_id = @campaignId AND day >= @firstDay AND (@version IS NULL OR graph_version = @version)
     )
     GROUP BY node_id, bucket HAVING sum(n) > 0 ORDER BY node_id, bucket`,
  );
  const recentRuns = db.prepare<{ agencyId: string; campaignId: string; since: string; limit: number }, ExecRow>(
    `SELECT * FROM executions
     WHERE agency_id = @agencyId AND campaign_id = @campaignId AND started_at >= @since AND kind = 'run' AND retry_of IS NULL
     ORDER BY started_at DESC, id DESC LIMIT @limit`,
  );

  const hydrate = (r: ExecRow, withSteps = true): Execution => ({
    id: r.id,
    workflowId: r.workflow_id,
    campaignId: r.campaign_id,
    agentId: r.agent_id,
    callId: r.call_id,
    outcome: r.outcome,
    graphVersion: r.graph_version,
    status: r.status,
    error: r.error,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    kind: r.kind === 'test' ? 'test' : 'run',
    retryOf: r.retry_of,
    retriedBy: r.retried_by,
    steps: (withSteps ? steps.all(r.id) : []).map((s) => ({
      seq: s.seq,
      nodeId: s.node_id,
      nodeType: s.node_type,
      status: s.status,
      attempts: s.attempts,
      input: parseJson(s.input, 'execution_steps.input'),
      output: parseJson(s.output, 'execution_steps.output'),
      error: s.error,
      startedAt: s.started_at,
      finishedAt: s.finished_at,
    })),
  });

  return {
    create(e: { id: string; agencyId: string; workflowId: string; campaignId: string; agentId: string; callId: string; outcome: string; graphVersion: number; retryOf?: string; kind?: 'run' | 'test' }) {
      insert.run({ ...e, retryOf: e.retryOf ?? null, kind: e.kind ?? 'run', startedAt: nowIso() });
    },
    /** Failed real runs not yet retried, newest first, across the agency's campaigns (or these projects'). */
    listFailed(agencyId: string, projectIds: readonly string[] | null, limit: number): Execution[] {
      return failedRuns.all({ agencyId, projects: projectIds ? JSON.stringify(projectIds) : null, limit }).map((r) => hydrate(r));
    },
    /** Real runs still running on a campaign, per pinned graph version. */
    inFlight: (agencyId: string, campaignId: string) => inFlight.all(agencyId, campaignId),
    /**
     * Links a failed run to its retry, atomically: false when the run is not failed or another
     * retry of it already claimed it (so two concurrent retries never both start).
     */
    claimRetry(agencyId: string, failedId: string, retryId: string): boolean {
      return claimRetry.run(retryId, agencyId, failedId).changes === 1;
    },
    /** The retry's run could not be started: the failed run is retryable again and the retry's rows go. */
    undoRetry(agencyId: string, failedId: string, retryId: string): void {
      db.transaction(() => {
        for (const st of undoRetry) st.run({ agencyId, failedId, retryId });
      }).immediate();
    },
    get(agencyId: string, id: string): Execution | undefined {
      const r = get.get(agencyId, id);
      return r ? hydrate(r) : undefined;
    },
    byWorkflowId(agencyId: string, workflowId: string): Execution | undefined {
      const r = byWorkflow.get(agencyId, workflowId);
      return r ? hydrate(r) : undefined;
    },
    /** The call's first run: the one its call.ended event started (later ones are retries). */
    firstOfCall(agencyId: string, callId: string): Execution | undefined {
      const r = firstOfCall.get(agencyId, callId);
      return r ? hydrate(r) : undefined;
    },
    listByAgent(agencyId: string, agentId: string, limit: number, kind: 'run' | 'test' = 'run'): Execution[] {
      return list.all(agencyId, agentId, kind, limit).map((r) => hydrate(r));
    },
    stepStarted(s: { executionId: string; seq: number; nodeId: string; nodeType: string; attempt: number; input: unknown }) {
      stepStart.run({ ...s, input: json(s.input), at: nowIso() });
    },
    stepFinished(s: { executionId: string; seq: number; nodeId: string; nodeType: string; status: string; attempt: number; input?: unknown; output?: unknown; error?: string }) {
      stepFinish.run({ ...s, input: json(s.input), output: json(s.output), error: s.error ?? null, at: nowIso() });
    },
    finish(id: string, status: string, error: string | null) {
      finish.run(status, error, nowIso(), id);
    },
    /** By id alone: the worker's execution log knows only the id it was given. */
    byIdAnyAgency(id: string): (Execution & { agencyId: string }) | undefined {
      const r = byId.get(id);
      return r ? { ...hydrate(r), agencyId: r.agency_id } : undefined;
    },
    outcomeOf: (id) => outcomeOf.get(id)?.outcome,
    stepStats(q: StatsQuery): StepStats[] {
      const hist = new Map<string, { bucket: number; n: number }[]>();
      // The first whole day at or after `since`.
      const firstDay = q.since.slice(11, 13) === '00' ? q.since.slice(0, 10) : new Date(Date.parse(q.since.slice(0, 10) + 'T00:00:00Z') + 86_400_000).toISOString().slice(0, 10);
      for (const r of statsDurations.all({ ...q, firstDay })) {
        const list = hist.get(r.node_id) ?? [];
        list.push({ bucket: r.bucket, n: r.n });
        hist.set(r.node_id, list);
      }
      return statsCounts.all(q).map((r) => {
        const h = hist.get(r.node_id) ?? [];
        return {
          nodeId: r.node_id,
          reached: r.reached,
          succeeded: r.succeeded,
          failed: r.failed,
          skipped: r.skipped,
          evaluated: r.evaluated,
          p50Ms: percentileOf(h, 0.5),
          p95Ms: percentileOf(h, 0.95),
          lastError: r.last_error_at && r.last_error_execution_id ? { message: r.last_error ?? 'failed', executionId: r.last_error_execution_id, at: r.last_error_at } : null,
        };
      });
    },
    recentRuns(q: { agencyId: string; campaignId: string; since: string; limit: number }): Execution[] {
      return recentRuns.all(q).map((r) => hydrate(r, false));
    },
  };
}
