import type { ExecutionsRepository } from '../index.js';
import type { Execution, ExecutionStep } from '../records.js';
import { nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

interface ExecRow {
  id: string;
  agency_id: string;
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
  execution_id: string;
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
const step = (s: StepRow): ExecutionStep => ({
  seq: s.seq, nodeId: s.node_id, nodeType: s.node_type, status: s.status, attempts: s.attempts,
  input: parseJson(s.input, 'execution_steps.input'), output: parseJson(s.output, 'execution_steps.output'),
  error: s.error, startedAt: s.started_at, finishedAt: s.finished_at,
});

export function executionsRepo(sql: Sql): ExecutionsRepository {
  /** Executions with their steps: one statement for all their steps, not one per execution. */
  async function hydrate(rows: ExecRow[]): Promise<Execution[]> {
    if (rows.length === 0) return [];
    const steps = await sql.rows<StepRow>('SELECT * FROM execution_steps WHERE execution_id = ANY($1::text[]) ORDER BY execution_id, seq', [rows.map((r) => r.id)]);
    const of = new Map<string, ExecutionStep[]>();
    for (const s of steps) {
      const list = of.get(s.execution_id) ?? [];
      list.push(step(s));
      of.set(s.execution_id, list);
    }
    return rows.map((r) => ({
      id: r.id, workflowId: r.workflow_id, campaignId: r.campaign_id, agentId: r.agent_id, callId: r.call_id, outcome: r.outcome,
      graphVersion: r.graph_version, status: r.status, error: r.error, startedAt: r.started_at, finishedAt: r.finished_at,
      kind: r.kind === 'test' ? 'test' : 'run', retryOf: r.retry_of, retriedBy: r.retried_by, steps: of.get(r.id) ?? [],
    }));
  }
  const first = async (text: string, values: unknown[]) => (await hydrate(await sql.rows<ExecRow>(text, values)))[0];

  return {
    async create(e) {
      await sql.run(
        `INSERT INTO executions (id, agency_id, workflow_id, campaign_id, agent_id, call_id, outcome, graph_version, status, started_at, retry_of, kind)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'running', $9, $10, $11) ON CONFLICT (agency_id, workflow_id) DO NOTHING`,
        [e.id, e.agencyId, e.workflowId, e.campaignId, e.agentId, e.callId, e.outcome, e.graphVersion, nowIso(), e.retryOf ?? null, e.kind ?? 'run'],
      );
    },
    listFailed: async (agencyId, projectIds, limit) =>
      hydrate(
        await sql.rows<ExecRow>(
          `SELECT e.* FROM executions e JOIN campaigns c ON c.id = e.campaign_id
           WHERE e.agency_id = $1 AND e.status = 'failed' AND e.kind = 'run' AND e.retried_by IS NULL
             AND ($2::text[] IS NULL OR c.project_id = ANY($2::text[]))
           ORDER BY e.started_at DESC, e.id DESC LIMIT $3`,
          [agencyId, projectIds ? [...projectIds] : null, limit],
        ),
      ),
    inFlight: (agencyId, campaignId) =>
      sql.rows<{ version: number; n: number }>(
        "SELECT graph_version AS version, count(*)::int AS n FROM executions WHERE agency_id = $1 AND campaign_id = $2 AND status = 'running' AND kind = 'run' GROUP BY graph_version ORDER BY graph_version",
        [agencyId, campaignId],
      ),
    /** One conditional UPDATE: of two racing claims, the second waits for the first, then finds the run claimed. */
    claimRetry: async (agencyId, failedId, retryId) =>
      (await sql.run("UPDATE executions SET retried_by = $1 WHERE agency_id = $2 AND id = $3 AND status = 'failed' AND retried_by IS NULL", [retryId, agencyId, failedId])) === 1,
    undoRetry: (agencyId, failedId, retryId) =>
      sql.atomic(async (tx) => {
        await tx.run('UPDATE executions SET retried_by = NULL WHERE agency_id = $1 AND id = $2 AND retried_by = $3', [agencyId, failedId, retryId]);
        await tx.run('DELETE FROM run_inputs WHERE agency_id = $1 AND workflow_id = (SELECT workflow_id FROM executions WHERE agency_id = $1 AND id = $2)', [agencyId, retryId]);
        await tx.run('DELETE FROM executions WHERE agency_id = $1 AND id = $2', [agencyId, retryId]);
      }),
    get: (agencyId, id) => first('SELECT * FROM executions WHERE agency_id = $1 AND id = $2', [agencyId, id]),
    byWorkflowId: (agencyId, workflowId) => first('SELECT * FROM executions WHERE agency_id = $1 AND workflow_id = $2', [agencyId, workflowId]),
    firstOfCall: (agencyId, callId) => first('SELECT * FROM executions WHERE agency_id = $1 AND call_id = $2 ORDER BY started_at, id LIMIT 1', [agencyId, callId]),
    listByAgent: async (agencyId, agentId, limit, kind = 'run') =>
      hydrate(await sql.rows<ExecRow>('SELECT * FROM executions WHERE agency_id = $1 AND agent_id = $2 AND kind = $3 ORDER BY started_at DESC, id DESC LIMIT $4', [agencyId, agentId, kind, limit])),
    async stepStarted(s) {
      // `attempts` counts the attempts that started, whoever numbers them (see the SQLite repository).
      await sql.run(
        `INSERT INTO execution_steps (execution_id, seq, node_id, node_type, status, attempts, input, started_at) VALUES ($1, $2, $3, $4, 'running', $5, $6, $7)
         ON CONFLICT (execution_id, seq) DO UPDATE SET status = 'running', attempts = greatest(execution_steps.attempts + 1, excluded.attempts), error = NULL`,
        [s.executionId, s.seq, s.nodeId, s.nodeType, s.attempt, json(s.input), nowIso()],
      );
    },
    async stepFinished(s) {
      await sql.run(
        `INSERT INTO execution_steps (execution_id, seq, node_id, node_type, status, attempts, input, output, error, started_at, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
         ON CONFLICT (execution_id, seq) DO UPDATE SET status = excluded.status, attempts = greatest(execution_steps.attempts, excluded.attempts),
           input = coalesce(excluded.input, execution_steps.input), output = excluded.output, error = excluded.error, finished_at = excluded.finished_at`,
        [s.executionId, s.seq, s.nodeId, s.nodeType, s.status, s.attempt, json(s.input), json(s.output), s.error ?? null, nowIso()],
      );
    },
    async finish(id, status, error) {
      await sql.run('UPDATE executions SET status = $1, error = $2, finished_at = $3 WHERE id = $4', [status, error, nowIso(), id]);
    },
    async byIdAnyAgency(id, opts) {
      const rows = await sql.rows<ExecRow>(`SELECT * FROM executions WHERE id = $1${opts?.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
      const [e] = await hydrate(rows);
      return e && { ...e, agencyId: rows[0]!.agency_id };
    },
    outcomeOf: async (id) => (await sql.one<{ outcome: string }>('SELECT outcome FROM executions WHERE id = $1', [id]))?.outcome,
    /**
     * Computed from the steps when asked: the campaign's runs by `executions_campaign`, their steps
     * by key. A window starts at the top of its first hour, as SQLite's rollup counts it; the runs
     * are read from a day earlier, so a step in the window of a run that started before it counts.
     * Percentiles are the nearest-rank durations themselves.
     */
    async stepStats(q) {
      const hour = q.since.slice(0, 13);
      const rows = await sql.rows<{ node_id: string; reached: number; succeeded: number; failed: number; skipped: number; evaluated: number; p50: number | null; p95: number | null; last_error: string | null; last_error_execution_id: string | null; last_error_at: string | null }>(
        `SELECT node_id, count(*)::int AS reached,
           count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status = 'skipped')::int AS skipped,
           count(*) FILTER (WHERE status = 'evaluated')::int AS evaluated,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE ms IS NOT NULL) AS p50,
           percentile_disc(0.95) WITHIN GROUP (ORDER BY ms) FILTER (WHERE ms IS NOT NULL) AS p95,
           (array_agg(coalesce(error, 'failed') ORDER BY coalesce(finished_at, started_at) DESC) FILTER (WHERE status = 'failed'))[1] AS last_error,
           (array_agg(execution_id ORDER BY coalesce(finished_at, started_at) DESC) FILTER (WHERE status = 'failed'))[1] AS last_error_execution_id,
           max(coalesce(finished_at, started_at)) FILTER (WHERE status = 'failed') AS last_error_at
         FROM (
           SELECT s.node_id, s.status, s.error, s.execution_id, s.started_at, s.finished_at,
             CASE WHEN s.finished_at IS NOT NULL AND s.status IN ('succeeded', 'failed')
               THEN extract(epoch FROM s.finished_at::timestamptz - s.started_at::timestamptz)::float8 * 1000 END AS ms
           FROM executions e JOIN execution_steps s ON s.execution_id = e.id
           WHERE e.agency_id = $1 AND e.campaign_id = $2 AND e.started_at >= $3 AND e.kind = 'run'
             AND ($5::int IS NULL OR e.graph_version = $5) AND s.started_at >= $4
         ) steps
         GROUP BY node_id`,
        [q.agencyId, q.campaignId, new Date(Date.parse(`${hour}:00:00Z`) - 86_400_000).toISOString(), hour, q.version],
      );
      const rounded = (ms: number | null) => (ms === null ? null : ms >= 10 ? Math.round(ms) : Math.round(ms * 10) / 10);
      return rows.map((r) => ({
        nodeId: r.node_id,
        reached: r.reached,
        succeeded: r.succeeded,
        failed: r.failed,
        skipped: r.skipped,
        evaluated: r.evaluated,
        p50Ms: rounded(r.p50),
        p95Ms: rounded(r.p95),
        lastError: r.last_error_at && r.last_error_execution_id ? { message: r.last_error ?? 'failed', executionId: r.last_error_execution_id, at: r.last_error_at } : null,
      }));
    },
    async recentRuns(q) {
      const rows = await sql.rows<ExecRow>(
        `SELECT * FROM executions
         WHERE agency_id = $1 AND campaign_id = $2 AND started_at >= $3 AND kind = 'run' AND retry_of IS NULL
         ORDER BY started_at DESC, id DESC LIMIT $4`,
        [q.agencyId, q.campaignId, q.since, q.limit],
      );
      return rows.map((r) => ({
        id: r.id, workflowId: r.workflow_id, campaignId: r.campaign_id, agentId: r.agent_id, callId: r.call_id, outcome: r.outcome,
        graphVersion: r.graph_version, status: r.status, error: r.error, startedAt: r.started_at, finishedAt: r.finished_at,
        kind: 'run' as const, retryOf: r.retry_of, retriedBy: r.retried_by, steps: [],
      }));
    },
  };
}
