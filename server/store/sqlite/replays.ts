import type { ReplaysRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { ReplayCallResult, ReplayJob } from '../records.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { nowIso } from '../../ids.js';
import { replayJobFromRow as fromRow, type ReplayJobRow as JobRow } from '../rows.js';

/** What-if replays: the job with both graphs, its progress, and one row per call replayed. */
export function replaysRepo(db: Db): Sync<ReplaysRepository> {
  const insert = db.prepare(
    `INSERT INTO replay_jobs (agency_id, id, campaign_id, agent_id, from_version, to_version, from_graph, to_graph, since, max_calls, status, key_id, created_at)
     VALUES (@agencyId, @id, @campaignId, @agentId, @fromVersion, @toVersion, @fromGraph, @toGraph, @since, @maxCalls, 'running', @keyId, @createdAt)`,
  );
  const get = db.prepare<[string, string], JobRow>('SELECT * FROM replay_jobs WHERE agency_id = ? AND id = ?');
  const running = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM replay_jobs WHERE agency_id = ? AND status = 'running'");
  const planned = db.prepare("UPDATE replay_jobs SET total = ? WHERE agency_id = ? AND id = ? AND status = 'running'");
  const isRunning = db.prepare<[string, string], { one: number }>("SELECT 1 AS one FROM replay_jobs WHERE agency_id = ? AND id = ? AND status = 'running'");
  const addResult = db.prepare(
    'INSERT INTO replay_results (agency_id, job_id, seq, execution_id, changed, doc) VALUES (@agencyId, @jobId, @seq, @executionId, @changed, @doc) ON CONFLICT DO NOTHING',
  );
  const count = db.prepare('UPDATE replay_jobs SET done = done + 1, changed = changed + ? WHERE agency_id = ? AND id = ?');
  const finish = db.prepare("UPDATE replay_jobs SET status = ?, error = ?, finished_at = ? WHERE agency_id = ? AND id = ? AND status = 'running'");
  const results = db.prepare<[string, string], { doc: string }>('SELECT doc FROM replay_results WHERE agency_id = ? AND job_id = ? ORDER BY seq');
  const add = db.transaction((agencyId: string, id: string, r: ReplayCallResult): boolean => {
    if (!isRunning.get(agencyId, id)) return false;
    const inserted = addResult.run({ agencyId, jobId: id, seq: r.seq, executionId: r.executionId, changed: r.changed ? 1 : 0, doc: JSON.stringify(r) }).changes === 1;
    if (inserted) count.run(r.changed ? 1 : 0, agencyId, id);
    return true;
  });

  return {
    create(job) {
      const createdAt = nowIso();
      insert.run({ ...job, fromGraph: JSON.stringify(job.fromGraph), toGraph: JSON.stringify(job.toGraph), createdAt });
      return fromRow(get.get(job.agencyId, job.id)!);
    },
    get(agencyId: string, id: string): ReplayJob | undefined {
      const r = get.get(agencyId, id);
      return r ? fromRow(r) : undefined;
    },
    countRunning: (agencyId: string) => running.get(agencyId)!.n,
    planned: (agencyId: string, id: string, total: number) => planned.run(total, agencyId, id).changes === 1,
    // Inside the caller's transaction when there is one (better-sqlite3 nests it as a savepoint).
    addResult: (agencyId: string, id: string, r: ReplayCallResult) => add.immediate(agencyId, id, r),
    finish(agencyId: string, id: string, status: 'done' | 'failed', error: string | null) {
      finish.run(status, error, nowIso(), agencyId, id);
    },
    cancel: (agencyId: string, id: string) => finish.run('cancelled', null, nowIso(), agencyId, id).changes === 1,
    results: (agencyId: string, id: string) => results.all(agencyId, id).map((r) => parseJson<ReplayCallResult>(r.doc, 'replay_results.doc')),
  };
}
