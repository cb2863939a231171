import { TargetQuery } from './workflow-tools.js';

/** The windows step statistics are read over. */
export const STEP_STATS_WINDOWS = ['24h', '7d', '30d'] as const;

/** Which campaign (TargetQuery), over which window, of which graph version (absent: all). */
export const StepStatsQuery = {
  type: 'object',
  properties: {
    ...TargetQuery.properties,
    window: { enum: STEP_STATS_WINDOWS, default: '7d', description: 'the last 24 hours, 7 days or 30 days (counted by the hour a step started; the first hour is counted whole)' },
    version: { type: 'integer', minimum: 1, description: 'only runs of this graph version; absent: runs of every version' },
  },
} as const;

const Ms = { type: ['number', 'null'], minimum: 0, description: 'milliseconds, within 10%; null when no step finished' } as const;

/** What the campaign's real runs did at one step over the window. */
export const StepStat = {
  type: 'object',
  required: ['nodeId', 'reached', 'succeeded', 'failed', 'skipped', 'evaluated', 'p50Ms', 'p95Ms', 'lastError'],
  properties: {
    nodeId: { type: 'string' },
    reached: { type: 'integer', minimum: 0, description: 'runs that reached the step' },
    succeeded: { type: 'integer', minimum: 0 },
    failed: { type: 'integer', minimum: 0, description: 'runs whose step failed after its retries (a step that failed and then succeeded on a retry counts as succeeded)' },
    skipped: { type: 'integer', minimum: 0, description: 'runs that skipped the step as a draft' },
    evaluated: { type: 'integer', minimum: 0, description: 'a branch: runs that evaluated it' },
    p50Ms: { ...Ms, description: 'median duration of the step (actions), ms, within 10%' },
    p95Ms: { ...Ms, description: '95th percentile of its duration, ms, within 10%' },
    lastError: {
      type: ['object', 'null'],
      required: ['message', 'executionId', 'at'],
      properties: {
        message: { type: 'string' },
        executionId: { type: 'string', description: 'the run it happened in (GET .../executions/{executionId})' },
        at: { type: 'string', format: 'date-time' },
      },
    },
  },
} as const;

export const StepStatsReport = {
  type: 'object',
  required: ['window', 'version', 'since', 'until', 'steps'],
  properties: {
    window: { enum: STEP_STATS_WINDOWS },
    version: { type: ['integer', 'null'], description: 'the graph version counted; null: every version' },
    since: { type: 'string', format: 'date-time', description: 'the start of the first hour counted' },
    until: { type: 'string', format: 'date-time' },
    steps: { type: 'array', items: StepStat, description: 'one entry per step any counted run reached (steps since removed from the graph included)' },
  },
} as const;
