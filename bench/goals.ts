/**
 * The goals of issue 14, as checks on the figures `npm run bench` emits. `run.ts` prints the
 * verdicts at the end of a run; `readme.ts` puts them in bench/README.md's table.
 */
import type { Figure } from './figures.js';

export interface Goal {
  /** the figure it reads */
  figure: string;
  /** what the issue's table calls it */
  label: string;
  text: string;
  met(f: Figure): boolean;
}

export const GOALS: Goal[] = [
  { figure: 'api_call_by_id_rps', label: 'API call-by-id, share of bare Koa req/s', text: '>= 0.60', met: (f) => (f.ratio ?? 0) >= 0.6 },
  { figure: 'api_call_by_id_p99', label: 'API call-by-id p99, against bare Koa', text: 'within 2x', met: (f) => (f.ratio ?? Infinity) <= 2 },
  { figure: 'api_call_by_id_over_floor_rps', label: 'API call-by-id, share of its floor req/s (issue 38)', text: '>= 0.80', met: (f) => (f.ratio ?? 0) >= 0.8 },
  { figure: 'api_workflow_get_rps', label: 'API workflow GET, share of bare Koa req/s', text: '>= 0.60', met: (f) => (f.ratio ?? 0) >= 0.6 },
  { figure: 'api_workflow_get_p99', label: 'API workflow GET p99, against bare Koa', text: 'within 2x', met: (f) => (f.ratio ?? Infinity) <= 2 },
  { figure: 'lead-list.page-search.p99', label: 'lead page with search over a step, 1M leads, p99', text: '< 10 ms', met: (f) => f.value < 10 },
  { figure: 'lead-list.page-step.p99', label: 'lead page over a step, 154k matching (count + page), p99', text: '< 5 ms', met: (f) => f.value < 5 },
  // Two kinds of load (bench/editor.ts): a regular browser profile, as a returning user's, and a
  // private context, where Chromium keeps no V8 code cache and every load compiles the bundle.
  { figure: 'editor.interactive_ms.300_steps', label: 'editor interactive, 300 steps, regular browser profile', text: '< 600 ms', met: (f) => f.value < 600 },
  { figure: 'editor.interactive_ms.300_steps.private_window', label: 'editor interactive, 300 steps, private window (no code cache)', text: '< 600 ms', met: (f) => f.value < 600 },
  { figure: 'editor.interactive_ms.1000_steps', label: 'editor interactive, 1,000 steps, regular browser profile', text: '< 1,000 ms', met: (f) => f.value < 1000 },
  { figure: 'editor.interactive_ms.1000_steps.private_window', label: 'editor interactive, 1,000 steps, private window (no code cache)', text: '< 1,000 ms', met: (f) => f.value < 1000 },
  { figure: 'editor.pan_fps.1000_steps.whole_graph', label: 'editor panning 1,000 steps, whole graph in view', text: '60 fps', met: (f) => f.value >= 59 },
  {
    figure: 'post_call_throughput',
    label: 'post-call throughput, share of a plain Temporal chain',
    text: '>= 0.90, stable (lowest round >= 0.80)',
    met: (f) => (f.ratio ?? 0) >= 0.9 && (f.spread?.[0] ?? 0) >= 0.8,
  },
  { figure: 'post_call_latency_p50.10_per_s', label: 'post-call p50 event accepted -> last action done, 10 calls/s offered', text: '< 0.30 s', met: (f) => f.value < 0.3 },
  { figure: 'step-stats.route_ms.30d_all_versions.p99', label: 'step statistics route, 1M execution steps in one campaign, 30 days, every version, p99', text: '< 50 ms', met: (f) => f.value < 50 },
  { figure: 'cadence.enrol', label: 'leads enrolled through the API, share of bare Temporal starts', text: '>= 0.90', met: (f) => (f.ratio ?? 0) >= 0.9 },
  { figure: 'lead-list-pg.page-search.p99', label: 'Postgres: lead page with search over a step, 1M leads, p99 (issue 39)', text: '< 10 ms', met: (f) => f.value < 10 },
  { figure: 'lead-list-pg.page-step.p99', label: 'Postgres: lead page over a step, 1M leads, p99 (issue 39)', text: '< 5 ms', met: (f) => f.value < 5 },
];

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '-' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(3).replace(/\.?0+$/, ''));

/** One line per goal: the figure, its baseline, median ratio and spread, and met / NOT met. */
export function verdicts(figures: readonly Figure[]): string {
  const byName = new Map(figures.map((f) => [f.name, f]));
  return GOALS.map((g) => {
    const f = byName.get(g.figure);
    if (!f) return `  -        ${g.label} (${g.text}): not measured in this run`;
    const ratio = f.ratio === null ? '' : `, ratio ${fmt(f.ratio)}${f.spread ? ` (${fmt(f.spread[0])}-${fmt(f.spread[1])})` : ''}`;
    return `  ${g.met(f) ? 'met    ' : 'NOT met'}  ${g.label} (${g.text}): ${fmt(f.value)} ${f.unit}, baseline ${fmt(f.baseline)}${ratio}`;
  }).join('\n');
}
