/**
 * The step-statistics rollup (migration 016) against the rows it summarises: after a random mix of
 * the writes the worker makes (steps started, failed, retried, succeeded, branches evaluated,
 * drafts skipped, test runs, two campaigns, three versions), every figure the repository answers
 * equals the same figure computed from `execution_steps` directly, and the percentiles are within
 * 10% of the exact ones. A store upgraded from schema 15 with runs in it answers the same.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sqliteRepositories } from '../../server/store/sqlite/store.js';
import { openDb, type Db } from '../../server/store/sqlite/db.js';
import { migrations } from '../../server/store/sqlite/migrations/index.js';
import type { StepStats } from '../../server/store/index.js';
import { seededRandom } from '../helpers/random.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-step-stats-'));
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

const NODES = ['a', 'b', 'c', 'd'];
type Repos = ReturnType<typeof sqliteRepositories>;

/** Writes `runs` random runs through the repository; returns the last error (time, run, message) it wrote per campaign, version and node. */
function workload(repos: Repos, runs: number, seed: number, start: number) {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  let clock = start;
  const tick = (ms: number) => vi.setSystemTime((clock += ms));
  const errors: { campaignId: string; version: number; nodeId: string; at: string; executionId: string; message: string }[] = [];
  for (let i = 0; i < runs; i++) {
    tick(60_000 + Math.floor(random() * 600_000));
    const id = `ex_${seed}_${i}`;
    const campaignId = pick(['cmp_1', 'cmp_2']);
    const version = 1 + Math.floor(random() * 3);
    repos.executions.create({ id, agencyId: 'ag', workflowId: `wf_${id}`, campaignId, agentId: 'agt', callId: `call_${id}`, outcome: 'VOICEMAIL', graphVersion: version, kind: random() < 0.15 ? 'test' : 'run' });
    const kind = repos.executions.get('ag', id)!.kind;
    const steps = 1 + Math.floor(random() * 4);
    for (let seq = 1; seq <= steps; seq++) {
      const nodeId = NODES[seq - 1]!;
      const base = { executionId: id, seq, nodeId, nodeType: 'add-tag' };
      const r = random();
      if (r < 0.15) {
        repos.executions.stepFinished({ ...base, status: pick(['evaluated', 'skipped']), attempt: 1 });
        continue;
      }
      repos.executions.stepStarted({ ...base, attempt: 1, input: {} });
      const attempts = 1 + Math.floor(random() * 3);
      let last = 'running';
      for (let a = 1; a <= attempts; a++) {
        if (a > 1) repos.executions.stepStarted({ ...base, attempt: a, input: {} });
        tick(1 + Math.floor(random() ** 3 * 5000));
        last = a < attempts || random() < 0.3 ? 'failed' : 'succeeded';
        if (r > 0.95 && a === attempts) break; // left running
        const message = `error ${i}.${seq}.${a}`;
        repos.executions.stepFinished({ ...base, status: last, attempt: a, ...(last === 'failed' && { error: message }) });
        if (last === 'failed' && kind === 'run') errors.push({ campaignId, version, nodeId, at: new Date(clock).toISOString(), executionId: id, message });
      }
      if (last === 'failed') break;
    }
  }
  return { errors, end: clock };
}

/** The same figures, computed from the rows themselves. */
function direct(db: Db, q: { campaignId: string; since: string; version: number | null }) {
  const rows = db
    .prepare(
      `SELECT s.node_id AS nodeId, s.status, (julianday(s.finished_at) - julianday(s.started_at)) * 86400000.0 AS ms, s.finished_at
       FROM execution_steps s JOIN executions e ON e.id = s.execution_id
       WHERE e.agency_id = 'ag' AND e.kind = 'run' AND e.campaign_id = @campaignId AND s.started_at >= @since AND (@version IS NULL OR e.graph_version = @version)`,
    )
    .all(q) as { nodeId: string; status: string; ms: number; finished_at: string | null }[];
  const out = new Map<string, { reached: number; succeeded: number; failed: number; skipped: number; evaluated: number; durations: number[] }>();
  for (const r of rows) {
    const o = out.get(r.nodeId) ?? { reached: 0, succeeded: 0, failed: 0, skipped: 0, evaluated: 0, durations: [] };
    o.reached += 1;
    if (r.status in o) (o as unknown as Record<string, number>)[r.status]! += 1;
    if (r.finished_at && (r.status === 'succeeded' || r.status === 'failed')) o.durations.push(Math.max(1, r.ms));
    out.set(r.nodeId, o);
  }
  return out;
}

const exactPercentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(1, Math.ceil(p * xs.length)) - 1]!;

function compare(db: Db, repos: Repos, q: { campaignId: string; since: string; version: number | null }, errors?: ReturnType<typeof workload>['errors']) {
  const got = new Map<string, StepStats>(repos.executions.stepStats({ agencyId: 'ag', ...q }).map((s) => [s.nodeId, s]));
  const want = direct(db, q);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [nodeId, w] of want) {
    const g = got.get(nodeId)!;
    expect({ reached: g.reached, succeeded: g.succeeded, failed: g.failed, skipped: g.skipped, evaluated: g.evaluated }, nodeId).toEqual({ reached: w.reached, succeeded: w.succeeded, failed: w.failed, skipped: w.skipped, evaluated: w.evaluated });
    if (w.durations.length === 0) {
      expect(g.p50Ms).toBeNull();
      continue;
    }
    for (const [p, value] of [[0.5, g.p50Ms], [0.95, g.p95Ms]] as const) {
      const exact = exactPercentile(w.durations, p);
      expect(Math.abs(value! - exact) / exact, `${nodeId} p${p * 100}: ${value} against ${exact}`).toBeLessThan(0.1);
    }
    if (errors) {
      const last = errors.filter((e) => e.campaignId === q.campaignId && e.nodeId === nodeId && (q.version === null || e.version === q.version) && e.at >= q.since).sort((a, b) => (a.at < b.at ? -1 : 1)).at(-1);
      expect(g.lastError, nodeId).toEqual(last ? { message: last.message, executionId: last.executionId, at: last.at } : null);
    }
  }
  return got.size;
}

describe('the step-statistics rollup', () => {
  it('equals the figures computed from the steps, after a random mix of writes', () => {
    const db = openDb(path.join(dir, 'random.db'));
    const repos = sqliteRepositories(db);
    repos.agencies.ensure('ag', 'Ag', 10);
    const start = Date.UTC(2026, 10, 1);
    const { errors, end } = workload(repos, 600, 7, start);
    let compared = 0;
    for (const campaignId of ['cmp_1', 'cmp_2']) {
      for (const version of [null, 1, 2, 3]) {
        for (const since of [new Date(start).toISOString(), new Date(end - 86_400_000).toISOString().slice(0, 13) + ':00:00.000Z']) compared += compare(db, repos, { campaignId, since, version }, errors);
      }
    }
    expect(compared).toBeGreaterThan(40);
    db.close();
  });

  it('is filled from the runs a store held when it was upgraded', () => {
    const db = openDb(path.join(dir, 'upgrade.db'));
    sqliteRepositories(db).agencies.ensure('ag', 'Ag', 10);
    const start = Date.UTC(2026, 10, 1);
    workload(sqliteRepositories(db), 300, 11, start);
    // The same rows as a store of schema 15 held them: what migration 016 adds taken away again.
    db.exec('DROP TRIGGER step_stats_insert; DROP TRIGGER step_stats_update; DROP TABLE step_stats; DROP TABLE step_durations; DROP TABLE step_durations_daily; DROP INDEX executions_campaign');
    // Migration 016 again, as the upgrade runs it (in a transaction), on those rows.
    const step = migrations.find((m) => m.name === 'step-stats')!;
    db.transaction(() => step.up(db))();
    const repos = sqliteRepositories(db);
    for (const campaignId of ['cmp_1', 'cmp_2']) for (const version of [null, 2]) compare(db, repos, { campaignId, since: new Date(start).toISOString(), version });
    // The last error of each step is the latest failed step row (attempts retried before the upgrade are not known).
    const got = repos.executions.stepStats({ agencyId: 'ag', campaignId: 'cmp_1', since: new Date(start).toISOString(), version: null });
    for (const s of got.filter((x) => x.failed > 0)) {
      const row = db
        .prepare("SELECT s.error, s.execution_id FROM execution_steps s JOIN executions e ON e.id = s.execution_id WHERE e.kind = 'run' AND e.campaign_id = 'cmp_1' AND s.node_id = ? AND s.status = 'failed' ORDER BY s.finished_at DESC LIMIT 1")
        .get(s.nodeId) as { error: string; execution_id: string };
      expect(s.lastError).toMatchObject({ message: row.error, executionId: row.execution_id });
    }
    db.close();
  });
});
