import type { StepStats, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { WorkflowTarget } from './workflow-target.js';

export type StepStatsWindow = '24h' | '7d' | '30d';

const HOUR = 3_600_000;
const WINDOW_HOURS: Record<StepStatsWindow, number> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 };

export interface StepStatsReport {
  window: StepStatsWindow;
  version: number | null;
  since: string;
  until: string;
  steps: StepStats[];
}

/**
 * What the campaign's real runs did at each step over the window (of one graph version, or all):
 * the step statistics on the canvas. Counted by the hour a step started, so the window starts at
 * the top of its first hour.
 */
export async function stepStatistics(store: Store, actor: Actor, t: WorkflowTarget, q: { window?: StepStatsWindow; version?: number }, now = Date.now()): Promise<StepStatsReport> {
  const window = q.window ?? '7d';
  const since = new Date(Math.floor((now - WINDOW_HOURS[window] * HOUR) / HOUR) * HOUR).toISOString();
  const version = q.version ?? null;
  const steps = await store.executions.stepStats({ agencyId: actor.agencyId, campaignId: t.campaign.id, since, version });
  return { window, version, since, until: new Date(now).toISOString(), steps };
}
