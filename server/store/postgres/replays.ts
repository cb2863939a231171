import type { ReplaysRepository } from '../index.js';
import type { ReplayCallResult, ReplayStatus } from '../records.js';
import { nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';
import { replayJobFromRow as fromRow, type ReplayJobRow as JobRow } from '../rows.js';

/** What-if replays: the job with both graphs, its progress, and one row per call replayed. */
export function replaysRepo(sql: Sql): ReplaysRepository {
  const get = async (agencyId: string, id: string) => {
    const r = await sql.one<JobRow>('SELECT * FROM replay_jobs WHERE agency_id = $1 AND id = $2', [agencyId, id]);
    return r ? fromRow(r) : undefined;
  };
  const finish = (agencyId: string, id: string, status: ReplayStatus, error: string | null) =>
    sql.run("UPDATE replay_jobs SET status = $1, error = $2, finished_at = $3 WHERE agency_id = $4 AND id = $5 AND status = 'running'", [status, error, nowIso(), agencyId, id]);
  return {
    async create(job) {
      await sql.run(
        `INSERT INTO replay_jobs (agency_id, id, campaign_id, agent_id, from_version, to_version, from_graph, to_graph, since, max_calls, status, key_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'running', $11, $12)`,
        [job.agencyId, job.id, job.campaignId, job.agentId, job.fromVersion, job.toVersion, JSON.stringify(job.fromGraph), JSON.stringify(job.toGraph), job.since, job.maxCalls, job.keyId, nowIso()],
      );
      return (await get(job.agencyId, job.id))!;
    },
    get,
    countRunning: async (agencyId) => (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM replay_jobs WHERE agency_id = $1 AND status = 'running'", [agencyId]))!.n,
    planned: async (agencyId, id, total) => (await sql.run("UPDATE replay_jobs SET total = $1 WHERE agency_id = $2 AND id = $3 AND status = 'running'", [total, agencyId, id])) === 1,
    /**
     * One statement: the result is stored and counted only while the job is running (a cancel
     * that commits first wins; one that comes after waits for this row's lock), and a result
     * already stored under its seq is neither stored again nor counted twice.
     */
    addResult: (agencyId, id, r) =>
      sql.atomic(async (tx) => {
        const running = await tx.one<{ one: number }>("SELECT 1 AS one FROM replay_jobs WHERE agency_id = $1 AND id = $2 AND status = 'running' FOR UPDATE", [agencyId, id]);
        if (!running) return false;
        const inserted = await tx.run('INSERT INTO replay_results (agency_id, job_id, seq, execution_id, changed, doc) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING', [agencyId, id, r.seq, r.executionId, r.changed, JSON.stringify(r)]);
        if (inserted === 1) await tx.run('UPDATE replay_jobs SET done = done + 1, changed = changed + $1 WHERE agency_id = $2 AND id = $3', [r.changed ? 1 : 0, agencyId, id]);
        return true;
      }),
    async finish(agencyId, id, status, error) {
      await finish(agencyId, id, status, error);
    },
    cancel: async (agencyId, id) => (await finish(agencyId, id, 'cancelled', null)) === 1,
    results: async (agencyId, id) =>
      (await sql.rows<{ doc: string }>('SELECT doc FROM replay_results WHERE agency_id = $1 AND job_id = $2 ORDER BY seq', [agencyId, id])).map((r) => parseJson<ReplayCallResult>(r.doc, 'replay_results.doc')),
  };
}
