// The baseline of the post-call benchmark: the same three-step chain as a plain Temporal workflow
// with no-op activities, so the difference is our overhead on top of Temporal.
import { patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

type Noop = { noop(step: number): Promise<number> };
const { noop } = proxyActivities<Noop>({ startToCloseTimeout: '30 seconds' });
const local = proxyLocalActivities<Noop>({ startToCloseTimeout: '30 seconds' });

export async function baselineChain(): Promise<number> {
  let n = 0;
  for (let step = 1; step <= 3; step++) n += await noop(step);
  return n;
}

/** The chain with its steps as local activities, as post-call runs take their actions: like for like. */
export async function baselineLocalChain(): Promise<number> {
  let n = 0;
  for (let step = 1; step <= 3; step++) n += await local.noop(step);
  return n;
}

/**
 * The same chain asking `patched` once before its last step, as `postCallWorkflow` runs did: what
 * one patch marker (and the `TemporalChangeVersion` upsert it brings) costs a run
 * (`npx tsx bench/support/patch-cost.ts`, not part of `npm run bench`).
 */
export async function baselineChainPatched(): Promise<number> {
  let n = 0;
  for (let step = 1; step <= 3; step++) {
    // Asked for its cost alone: both answers run the same step.
    if (step === 3) patched('bench-patch');
    n += await noop(step);
  }
  return n;
}
