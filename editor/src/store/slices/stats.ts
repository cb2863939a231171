/**
 * The statistics slice: what the campaign's real runs did at each step (reached, succeeded,
 * failed, skipped as a draft, p50/p95 duration, the last error), for a window and a graph version
 * or all, shown on the canvas while the toggle is on. Read when turned on and when the window or
 * version changes; *Refresh* reads again.
 */
import type { StepStat, StepStatsWindow } from '../../api/types';
import type { Slice } from '../editor-core';

export interface StatsState {
  on: boolean;
  window: StepStatsWindow;
  /** null: every version */
  version: number | null;
  loading: boolean;
  error: string | null;
  /** by step id; absent: no counted run reached the step */
  byNode: Record<string, StepStat>;
  /** the start of the first hour counted */
  since: string | null;
}

export interface StatsSlice {
  stats: StatsState;
  toggleStats(on?: boolean): void;
  setStatsWindow(window: StepStatsWindow): void;
  setStatsVersion(version: number | null): void;
  loadStats(): Promise<void>;
}

export const statsSlice: Slice<StatsSlice> = (set, get, core) => {
  const api = core.deps.api;
  let asked = 0;
  const patch = (p: Partial<StatsState>) => set((s) => ({ stats: { ...s.stats, ...p } }));

  return {
    stats: { on: false, window: '7d', version: null, loading: false, error: null, byNode: {}, since: null },

    toggleStats(on) {
      const next = on ?? !get().stats.on;
      patch({ on: next });
      if (next) void get().loadStats();
    },
    setStatsWindow(window) {
      patch({ window });
      if (get().stats.on) void get().loadStats();
    },
    setStatsVersion(version) {
      patch({ version });
      if (get().stats.on) void get().loadStats();
    },
    async loadStats() {
      const { window, version } = get().stats;
      const mine = ++asked;
      patch({ loading: true, error: null });
      try {
        const report = await api.stepStats(window, version);
        // A later question (another window or version) answers for itself.
        if (mine !== asked) return;
        patch({ loading: false, byNode: Object.fromEntries(report.steps.map((st) => [st.nodeId, st])), since: report.since });
      } catch (err) {
        if (mine !== asked) return;
        patch({ loading: false, error: err instanceof Error ? err.message : String(err), byNode: {} });
      }
    },
  };
};
