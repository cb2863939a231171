export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  /** value / baseline */
  ratio: number | null;
  /** what the baseline is, or the limit compared with */
  against: string;
}

export function emit(f: Omit<Figure, 'ratio'>): void {
  const ratio = f.baseline ? Number((f.value / f.baseline).toFixed(3)) : null;
  process.stdout.write(JSON.stringify({ ...f, value: Number(f.value.toFixed(3)), baseline: f.baseline === null ? null : Number(f.baseline.toFixed(3)), ratio }) + "\n");
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
