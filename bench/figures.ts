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
  /** optional: the browser's peak memory while measuring (renderer peak RSS, MiB) */
  rssMb?: number;
  /** optional: the page's JavaScript heap in use at the end of the measurement (MiB) */
  heapMb?: number;
}

type Input = Omit<Figure, 'ratio'> & { ratio?: number | null };

const round3 = (x: number) => Number(x.toFixed(3));

/**
 * One JSON line per figure. `ratio` defaults to value / baseline; the optional fields (spread,
 * rounds, rssMb, heapMb) are written only when given, so readers of the older lines still work.
 */
export function emit(f: Input): void {
  const ratio = f.ratio !== undefined ? (f.ratio === null ? null : round3(f.ratio)) : f.baseline ? round3(f.value / f.baseline) : null;
  const out: Record<string, unknown> = { ...f, value: round3(f.value), baseline: f.baseline === null ? null : round3(f.baseline), ratio };
  if (f.spread) out.spread = f.spread.map(round3);
  for (const k of ['rssMb', 'heapMb'] as const) if (f[k] !== undefined) out[k] = Number(f[k]!.toFixed(1));
  process.stdout.write(JSON.stringify(out) + '\n');
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
