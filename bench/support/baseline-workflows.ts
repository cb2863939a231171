// The baseline of the post-call benchmark: the same three-step chain as a plain Temporal workflow
// with no-op activities, so the difference is our overhead on top of Temporal.
import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(step: number): Promise<number> }>({ startToCloseTimeout: '30 seconds' });

export async function baselineChain(): Promise<number> {
  let n = 0;
  for (let step = 1; step <= 3; step++) n += await noop(step);
  return n;
}
