import { prepareGraph } from '../../engine/graph/validate.js';
import type { Graph } from '../../engine/graph/types.js';
import { compareRuns, summarize, type CallDifference } from '../../engine/replay/what-if.js';
import { replayWorkflowId } from '../../engine/workflows/replay-types.js';
import { REPLAY_MAX_CALLS } from '../../schemas/replay.js';
import type { Services } from '../services.js';
import { newId } from '../ids.js';
import type { ReplayCallResult, ReplayJob, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import { conflict, invalid, notFound, unavailable } from './errors.js';
import { graphError, type WorkflowTarget } from './workflow-target.js';

/** Batches of this many calls, this many at a time: a replay of 200 calls is 20 short activities, 4 in flight. */
export const REPLAY_BATCH = 10;
export const REPLAY_CONCURRENCY = 4;
/** Replays an agency may have running at once: each holds worker slots while it runs. */
export const REPLAY_RUNNING_LIMIT = 3;

export interface StartReplayRequest {
  fromVersion?: number;
  toVersion?: number;
  graph?: unknown;
  days?: number;
  limit?: number;
}

const EMPTY: Graph = { nodes: [], edges: [], dispositionEntries: {} };

async function graphOf(store: Store, actor: Actor, t: WorkflowTarget, version: number, field: string): Promise<Graph> {
  if (version === 0) return EMPTY;
  const stored = await store.workflows.version(actor.agencyId, t.campaign.id, version);
  if (!stored) throw notFound(`body.${field}: version ${version} of this workflow not found`);
  return stored.graph;
}

/**
 * Starts a what-if replay of the campaign's recent real calls through two graphs: two stored
 * versions, or a stored one (the current by default) and a graph not saved. The job (with both
 * graphs as they are now) is stored, then its workflow starts; nothing is performed by it.
 */
export async function startReplay(s: Services, actor: Actor, t: WorkflowTarget, body: StartReplayRequest): Promise<ReplayView> {
  if ((body.toVersion === undefined) === (body.graph === undefined)) throw invalid('body: send either toVersion (a stored version) or graph (a graph not saved), not both and not neither');
  if (!s.temporal) throw unavailable('the workflow engine is not connected');
  const current = await s.store.workflows.get(actor.agencyId, t.campaign.id);
  const fromVersion = body.fromVersion ?? current.version;
  const fromGraph = fromVersion === current.version ? current.graph : await graphOf(s.store, actor, t, fromVersion, 'fromVersion');
  let toGraph: Graph;
  if (body.graph !== undefined) {
    try {
      toGraph = prepareGraph(body.graph as never);
    } catch (err) {
      throw graphError(err);
    }
  } else {
    toGraph = body.toVersion === current.version ? current.graph : await graphOf(s.store, actor, t, body.toVersion!, 'toVersion');
  }
  if ((await s.store.replays.countRunning(actor.agencyId)) >= REPLAY_RUNNING_LIMIT) {
    throw conflict(`${REPLAY_RUNNING_LIMIT} replays of this agency are running; wait for one to end or cancel one`, 'ReplayLimit');
  }
  const days = body.days ?? 7;
  const id = newId('rpl');
  const job = await s.store.replays.create({
    id,
    agencyId: actor.agencyId,
    campaignId: t.campaign.id,
    agentId: t.agent.id,
    fromVersion,
    toVersion: body.graph !== undefined ? null : body.toVersion!,
    fromGraph,
    toGraph,
    since: new Date(Date.now() - days * 86_400_000).toISOString(),
    maxCalls: body.limit ?? REPLAY_MAX_CALLS,
    keyId: actor.keyId,
  });
  try {
    await s.temporal.startReplay(replayWorkflowId(actor.agencyId, id), { agencyId: actor.agencyId, replayId: id, concurrency: REPLAY_CONCURRENCY, batchSize: REPLAY_BATCH });
  } catch (err) {
    s.logger.error({ err, replayId: id }, 'starting a replay failed');
    await s.store.replays.finish(actor.agencyId, id, 'failed', 'the replay could not be started');
    throw unavailable('the replay could not be started; try again shortly', 5);
  }
  return present(job, [], 'none');
}

async function loadJob(store: Store, actor: Actor, t: WorkflowTarget, id: string): Promise<ReplayJob> {
  const job = await store.replays.get(actor.agencyId, id);
  // Another campaign's replay is not found under this one (nor another agency's, by the key).
  if (!job || job.campaignId !== t.campaign.id) throw notFound(`replay ${id} not found`);
  return job;
}

export type CallsShown = 'all' | 'changed' | 'none';

/** A replay's progress, its differences in words, and (as asked) its calls with what differs. */
export async function getReplay(store: Store, actor: Actor, t: WorkflowTarget, id: string, calls: CallsShown = 'all'): Promise<ReplayView> {
  const job = await loadJob(store, actor, t, id);
  return present(job, await store.replays.results(actor.agencyId, id), calls);
}

/** Cancels a running replay: no call is replayed after this; those replayed stay. */
export async function cancelReplay(s: Services, actor: Actor, t: WorkflowTarget, id: string): Promise<ReplayView> {
  const job = await loadJob(s.store, actor, t, id);
  if (job.status !== 'running') throw conflict(`replay ${id} is ${job.status}, not running`, 'ReplayNotRunning');
  // The store first: its activities stop at the next call even if Temporal cannot be told now.
  await s.store.replays.cancel(actor.agencyId, id);
  try {
    await s.temporal?.cancel(replayWorkflowId(actor.agencyId, id));
  } catch (err) {
    s.logger.warn({ err, replayId: id }, 'cancelling a replay workflow failed; its activities stop on their own');
  }
  return getReplay(s.store, actor, t, id);
}

export type ReplayView = ReturnType<typeof present>;

const label = (version: number | null) => (version === null ? 'Unsaved changes' : version === 0 ? 'Empty workflow' : `Version ${version}`);

function present(job: ReplayJob, results: ReplayCallResult[], calls: CallsShown) {
  const differences = new Map<number, CallDifference>();
  for (const r of results) if (r.before && r.after) differences.set(r.seq, compareRuns(r.before, r.after));
  const unchanged = [...differences.values()].filter((d) => !d.changed).length;
  const shown = calls === 'none' ? [] : results.filter((r) => calls === 'all' || r.changed);
  return {
    id: job.id,
    campaignId: job.campaignId,
    agentId: job.agentId,
    from: { version: job.fromVersion, label: label(job.fromVersion) },
    to: { version: job.toVersion, label: label(job.toVersion) },
    since: job.since,
    maxCalls: job.maxCalls,
    status: job.status,
    total: job.total,
    done: job.done,
    changed: job.changed,
    error: job.error,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    summary: { lines: summarize([...differences.values()]), unchanged },
    calls: shown.map((r) => {
      const d = differences.get(r.seq);
      return { ...r, difference: d ? { gained: d.gained, lost: d.lost, altered: d.altered, pathChanged: d.pathChanged } : null };
    }),
  };
}
