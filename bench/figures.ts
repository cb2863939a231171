import fs from 'node:fs';
import os from 'node:os';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  /** value / baseline; for repeated measurements, the median of the per-round ratios */
  ratio: number | null;
  /** what the baseline is, or the limit compared with */
  against: string;
  /** optional, for repeated measurements: the lowest and highest per-round ratio */
  spread?: [number, number];
  /** optional: how many measured rounds the value is the median of */
  rounds?: number;
  /**
   * peak resident memory (MiB) of the process measured: this Node process (VmHWM) unless the
   * figure says otherwise (the editor's: the browser renderer's)
   */
  rssMb?: number;
  /** optional: peak resident memory (MiB) of the embedded Temporal dev server, for figures run on it */
  temporalRssMb?: number;
  /** optional: the page's JavaScript heap in use at the end of the measurement (MiB) */
  heapMb?: number;
  /** the 1-minute load average of the machine when the figure was taken (2 cores, shared) */
  load?: number;
  /**
   * optional: CPU time (ms) per unit of the bench's own HTTP client thread, which shares the
   * process and the cores with what is measured (cadence.ts takes it out of the process's figure)
   */
  clientCpuMs?: number;
  /** optional: the SQLite query plan(s) the figure ran with */
  plan?: string;
}

type Input = Omit<Figure, 'ratio'> & { ratio?: number | null };

const round3 = (x: number) => Number(x.toFixed(3));

export { cpuMs } from './support/cpu-time.mjs';

/** Peak resident memory of this process so far, MiB (Linux VmHWM; maxRSS elsewhere). */
export function peakRssMb(pid: number | 'self' = 'self'): number | undefined {
  try {
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    if (Number.isFinite(kb) && kb > 0) return kb / 1024;
  } catch {
    // not Linux, or the process is gone
  }
  return pid === 'self' ? process.resourceUsage().maxRSS / 1024 : undefined;
}

/**
 * One JSON line per figure, on stdout (and appended to BENCH_RESULTS when `npm run bench` set it).
 * `ratio` defaults to value / baseline; `rssMb` to this process's peak RSS; `load` is the machine's
 * load average now. The other optional fields are written only when given.
 */
export function emit(f: Input): void {
  const ratio = f.ratio !== undefined ? (f.ratio === null ? null : round3(f.ratio)) : f.baseline ? round3(f.value / f.baseline) : null;
  const out: Record<string, unknown> = { ...f, value: round3(f.value), baseline: f.baseline === null ? null : round3(f.baseline), ratio };
  if (f.spread) out.spread = f.spread.map(round3);
  out.rssMb = f.rssMb ?? peakRssMb();
  out.load = f.load ?? os.loadavg()[0];
  for (const k of ['rssMb', 'temporalRssMb', 'heapMb', 'load'] as const) if (out[k] !== undefined) out[k] = Number((out[k] as number).toFixed(k === 'load' ? 2 : 1));
  const line = JSON.stringify(out) + '\n';
  process.stdout.write(line);
  if (process.env.BENCH_RESULTS) fs.appendFileSync(process.env.BENCH_RESULTS, line);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export const spreadOf = (xs: readonly number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

/** How many measured rounds a paired comparison runs (BENCH_ROUNDS, at least 5 unless asked for fewer). */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));

/**
 * The method of every comparison: a warm-up of both sides, then `rounds` rounds, each measuring
 * ours and the baseline once, the order alternating from round to round, so a noisy moment on the
 * shared machine hits both sides of a pair. Returns the per-round samples of each side.
 */
export async function alternate<T>(opts: { rounds?: number; warmup?: boolean; ours: (round: number) => Promise<T>; base: (round: number) => Promise<T>; onRound?: (r: number, ours: T, base: T) => void }) {
  const rounds = opts.rounds ?? ROUNDS;
  if (opts.warmup !== false) {
    await opts.ours(-1);
    await opts.base(-1);
  }
  const ours: T[] = [];
  const base: T[] = [];
  for (let r = 0; r < rounds; r++) {
    let a: T;
    let b: T;
    if (r % 2 === 0) {
      a = await opts.ours(r);
      b = await opts.base(r);
    } else {
      b = await opts.base(r);
      a = await opts.ours(r);
    }
    ours.push(a);
    base.push(b);
    opts.onRound?.(r, a, b);
  }
  return { ours, base };
}

/**
 * A paired figure: value and baseline are the medians of the rounds' values, ratio the median of
 * the per-round ratios (ours / baseline) and spread their lowest and highest.
 */
export function paired(name: string, unit: string, against: string, ours: readonly number[], base: readonly number[], extra: Partial<Input> = {}): void {
  const ratios = ours.map((o, i) => o / base[i]!);
  emit({ name, unit, against, value: median(ours), baseline: median(base), ratio: median(ratios), spread: spreadOf(ratios), rounds: ours.length, ...extra });
}
