/**
 * What one `patched` call costs a post-call-sized run on the embedded server: the plain three-step
 * chain against the same chain asking `patched` once (bench/support/baseline-workflows.ts), at
 * saturation (20 in flight), in alternating rounds; per round the rate and the CPU per run of
 * this process and of the dev server (Linux /proc). Why post-call runs are a workflow type that
 * asks no patch (docs/execution.md). A diagnostic: `npm run bench` does not run it.
 *
 * `npx tsx bench/support/patch-cost.ts` (BENCH_ROUNDS, default 6; BENCH_CALLS per side per round, default 300)
 */
import { cpuMs, median, spreadOf } from '../figures.js';
import { startBaselineWorker } from './baseline-worker.js';
import { startInstance } from './instance.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const N = Number(process.env.BENCH_CALLS ?? 300);
const TYPES = ['baselineChain', 'baselineChainPatched'] as const;

const inst = await startInstance({ temporal: true });
const baseline = await startBaselineWorker(inst.address, 'patch-cost');
const { client } = baseline;
let seq = 0;

async function round(type: string, n: number) {
  const before = [cpuMs('self'), cpuMs(inst.temporalPid!)];
  const t0 = performance.now();
  let i = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (i++ < n) await (await client.workflow.start(type, { taskQueue: 'patch-cost', workflowId: `patch-cost-${seq++}` })).result();
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { rate: n / seconds, process: (cpuMs('self') - before[0]!) / n, server: (cpuMs(inst.temporalPid!) - before[1]!) / n };
}

for (const type of TYPES) await round(type, 100);
const rounds: { plain: Awaited<ReturnType<typeof round>>; patched: Awaited<ReturnType<typeof round>> }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...TYPES].reverse() : TYPES;
  const got: Record<string, Awaited<ReturnType<typeof round>>> = {};
  for (const type of order) got[type] = await round(type, N);
  rounds.push({ plain: got.baselineChain!, patched: got.baselineChainPatched! });
  const x = rounds.at(-1)!;
  process.stderr.write(`round ${r + 1}/${ROUNDS}: plain ${x.plain.rate.toFixed(1)}/s (CPU ms a run: process ${x.plain.process.toFixed(1)}, server ${x.plain.server.toFixed(1)}), patched ${x.patched.rate.toFixed(1)}/s (${x.patched.process.toFixed(1)}, ${x.patched.server.toFixed(1)})\n`);
}
const ratios = rounds.map((x) => x.patched.rate / x.plain.rate);
console.log(
  JSON.stringify({
    name: 'patch_cost.throughput_ratio',
    value: median(ratios),
    unit: 'ratio',
    against: 'the same three-step chain without a patched call, same server, same rounds',
    spread: spreadOf(ratios),
    serverCpuMsPerRun: { plain: median(rounds.map((x) => x.plain.server)), patched: median(rounds.map((x) => x.patched.server)) },
    processCpuMsPerRun: { plain: median(rounds.map((x) => x.plain.process)), patched: median(rounds.map((x) => x.patched.process)) },
    rounds: ROUNDS,
  }),
);
await baseline.stop();
await inst.stop();
process.exit(0);
