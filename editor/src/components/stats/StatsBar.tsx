/**
 * Over the canvas while step statistics are on: the window, the graph version (or all), Refresh,
 * and what is counted. The figures themselves are on each step (StepNodeView).
 */
import type { StepStatsWindow } from '../../api/types';
import { useVersionNumbers, VersionOptions } from '../../hooks/use-version-numbers';
import { useEditor, useEditorShallow } from '../../store/context';

const WINDOWS: { id: StepStatsWindow; label: string }[] = [
  { id: '24h', label: 'Last 24 hours' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
];

export function StatsBar() {
  const { stats, setWindow, setVersion, load, toggle } = useEditorShallow((s) => ({
    stats: s.stats,
    setWindow: s.setStatsWindow,
    setVersion: s.setStatsVersion,
    load: s.loadStats,
    toggle: s.toggleStats,
  }));
  const runOpen = useEditor((s) => s.run !== null);
  const { numbers, current } = useVersionNumbers(stats.on);
  if (!stats.on) return null;
  const counted = Object.values(stats.byNode).reduce((n, st) => Math.max(n, st.reached), 0);
  return (
    <div className="stats-bar" role="group" aria-label="Step statistics" data-testid="stats-bar" aria-busy={stats.loading}>
      <strong>Step statistics</strong>
      <label>
        <span className="sr-only">Window</span>
        <select value={stats.window} onChange={(e) => setWindow(e.target.value as StepStatsWindow)} data-testid="stats-window">
          {WINDOWS.map((w) => (
            <option key={w.id} value={w.id}>
              {w.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className="sr-only">Graph version</span>
        <select value={stats.version ?? ''} onChange={(e) => setVersion(e.target.value === '' ? null : Number(e.target.value))} data-testid="stats-version">
          <option value="">All versions</option>
          <VersionOptions numbers={numbers} current={current} />
        </select>
      </label>
      <button type="button" onClick={() => void load()} disabled={stats.loading} data-testid="stats-refresh">
        Refresh
      </button>
      <span className="field-hint" data-testid="stats-state" role="status">
        {stats.loading
          ? 'Reading…'
          : stats.error
            ? `Could not read the statistics: ${stats.error}`
            : stats.since
              ? `Real calls' runs since ${new Date(stats.since).toLocaleString()}${counted === 0 ? ': none reached a step' : ''}${runOpen ? ' (close the run to see them)' : ''}`
              : ''}
      </span>
      <button type="button" onClick={() => toggle(false)} aria-label="Hide step statistics" data-testid="stats-close">
        Hide
      </button>
    </div>
  );
}

/** 840 -> "840 ms", 1234 -> "1.2 s", 95000 -> "95 s". */
export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : s.toFixed(1)} s`;
}
