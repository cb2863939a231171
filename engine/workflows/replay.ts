import { ActivityFailure, ApplicationFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { ReplayActivities, ReplayInput, ReplayResult } from './replay-types.js';

/**
 * Each activity reads the store and, at most once per call, the CRM (a contact the stored input
 * lacks); retried a few times, then the replay is marked failed. An activity is short (a batch of
 * calls), so a cancelled replay stops within a batch.
 */
const acts = proxyActivities<ReplayActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * A what-if replay (docs/execution.md, What-if replay): the campaign's recent real calls, listed
 * once, dry-run through two graphs in batches, at most `concurrency` batches at a time. Nothing is
 * performed: the activities evaluate each call's path and effects with the engine's pure functions
 * (engine/replay) and store the results. Cancelling (the route marks the replay cancelled first)
 * stops it between calls; the calls replayed so far stay.
 */
export async function replayRun(input: ReplayInput): Promise<ReplayResult> {
  const { agencyId, replayId } = input;
  let replayed = 0;
  try {
    const calls = await acts.listReplayCalls({ agencyId, replayId });
    const size = Math.max(1, input.batchSize);
    const batches = Array.from({ length: Math.ceil(calls.length / size) }, (_, i) => calls.slice(i * size, (i + 1) * size));
    let next = 0;
    let stopped = false;
    const lane = async () => {
      while (!stopped && next < batches.length) {
        const batch = batches[next++]!;
        const r = await acts.replayCalls({ agencyId, replayId, calls: batch });
        replayed += r.replayed;
        if (r.stopped) stopped = true;
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, batches.length)) }, lane));
    if (stopped) return { status: 'cancelled', replayed };
    await acts.finishReplay({ agencyId, replayId, status: 'done' });
    return { status: 'done', replayed };
  } catch (err) {
    // Cancelled through Temporal: the replay is already marked cancelled in the store.
    if (isCancellation(err)) throw err;
    const cause = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause.message : (err as Error).message;
    await acts.finishReplay({ agencyId, replayId, status: 'failed', error: cause });
    return { status: 'failed', replayed };
  }
}
