import { DateTime } from 'luxon';
import type { CadenceStep, CallingWindow } from '../../schemas/cadence.js';
import { CadenceError } from './errors.js';
import { normalizeOutcome } from './outcomes.js';
import { DAY_MS, MINUTE_MS, localDay, parseClock, requireInstant, requireZone, wallToInstant } from './time.js';
import { isOpen, normalizeWindows, requireOpening, scheduleZone, type ZoneOptions } from './windows.js';

/** The part of a cadence the arithmetic reads. */
export interface CadenceSteps {
  steps: readonly CadenceStep[];
}

export interface NextCallTimeInput {
  cadence: CadenceSteps;
  /** Index of the step to schedule (0-based). */
  step: number;
  /** The previous attempt; for step 0, the moment the lead entered the cadence. */
  lastAttemptAt: Date;
  /** The campaign's governing windows (`resolveWindows`); a step's own window replaces them. */
  windows: readonly CallingWindow[];
  zoneOpts?: ZoneOptions;
}

export interface NextCall {
  at: Date;
  /** True when the step's own time fell outside the window and was moved to its opening. */
  waitedForWindow: boolean;
  /** The step's nominal time before the window was applied. */
  due: Date;
}

/** The windows a step is called in: its own when it has some, else the campaign's. */
export function stepWindows(step: CadenceStep, windows: readonly CallingWindow[]): readonly CallingWindow[] {
  const own = normalizeWindows(step.callingWindow);
  return own.length > 0 ? own : windows;
}

/**
 * When the cadence's step `step` should be called, or null when the cadence has no such step.
 *
 * - `delayMinutes` alone: that many minutes of elapsed time after `lastAttemptAt` ("after 4
 *   hours" is 4 real hours, also across a DST change).
 * - with `at`: the wall-clock time `at` on the day `dayOffset` days after the day of
 *   `lastAttemptAt` (both in the schedule zone, `scheduleZone`), or the first later day on which
 *   that time is at least `delayMinutes` after `lastAttemptAt`.
 * Then moved forward to the next opening of the step's windows.
 */
export function nextCallTime(input: NextCallTimeInput): NextCall | null {
  const { cadence, step: index, zoneOpts = {} } = input;
  if (!Number.isInteger(index) || index < 0) {
    throw new CadenceError('INVALID_INPUT', `Cadence step index must be an integer >= 0, got ${String(index)}`);
  }
  const step = cadence.steps[index];
  if (!step) return null;
  const last = requireInstant(input.lastAttemptAt, 'lastAttemptAt');
  const windows = stepWindows(step, input.windows);
  const due = dueTime(step, last, windows, zoneOpts);
  const at = requireOpening(windows, new Date(due), zoneOpts);
  return { at, waitedForWindow: at.getTime() > due, due: new Date(due) };
}

function dueTime(step: CadenceStep, last: number, windows: readonly CallingWindow[], opts: ZoneOptions): number {
  const delay = step.delayMinutes;
  if (!Number.isInteger(delay) || delay < 0) {
    throw new CadenceError('INVALID_INPUT', `Cadence step delayMinutes must be an integer >= 0, got ${String(delay)}`);
  }
  const earliest = last + delay * MINUTE_MS;
  if (step.at === undefined) return earliest;

  const atMin = parseClock(step.at, 'cadence step time `at`');
  const dayOffset = step.dayOffset ?? 0;
  if (!Number.isInteger(dayOffset) || dayOffset < 0) {
    throw new CadenceError('INVALID_INPUT', `Cadence step dayOffset must be an integer >= 0, got ${String(dayOffset)}`);
  }
  const zone = requireZone(scheduleZone(windows, opts));
  // Start from the requested day, but not absurdly far before the minimum gap ends.
  let day = Math.max(localDay(zone, last) + dayOffset, localDay(zone, earliest) - 1);
  let due = wallToInstant(zone, day * DAY_MS + atMin * MINUTE_MS);
  while (due < earliest) {
    day += 1;
    due = wallToInstant(zone, day * DAY_MS + atMin * MINUTE_MS);
  }
  return due;
}

/** Problems of a step as messages naming the field; [] when usable. For the server's 400s. */
export function stepProblems(step: unknown, path = 'step'): string[] {
  if (typeof step !== 'object' || step === null || Array.isArray(step)) return [`${path} must be an object`];
  const s = step as Record<string, unknown>;
  const problems: string[] = [];
  const delay = s.delayMinutes;
  if (!Number.isInteger(delay) || (delay as number) < 0) problems.push(`${path}.delayMinutes must be an integer >= 0`);
  if (s.at !== undefined) {
    try {
      parseClock(s.at, `${path}.at`);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (s.dayOffset !== undefined) {
    if (s.at === undefined) problems.push(`${path}.dayOffset needs ${path}.at (the time of day on that day)`);
    if (!Number.isInteger(s.dayOffset) || (s.dayOffset as number) < 0) problems.push(`${path}.dayOffset must be an integer >= 0`);
  }
  return problems;
}

/** Recorded post-call fields: spec 2.6's `[{ key, value }]`, or a plain object. */
export type CallFields = ReadonlyArray<{ key: string; value: unknown }> | Readonly<Record<string, unknown>>;

export interface AfterCallContext {
  cadence?: CadenceSteps | null;
  /** Index of the step whose call just ended (a callback call keeps the step it interrupted). */
  step: number;
  now: Date;
  /** The lead's caller preference (spec 2.5); used when it holds an ISO date-time. */
  callerPreference?: string | null;
  /** The call's recorded fields; `callback_time` is read. */
  fields?: CallFields | null;
  /** To read a callback time written without an offset (see `scheduleZone`). */
  windows?: readonly CallingWindow[];
  zoneOpts?: ZoneOptions;
}

export type AfterCallDecision =
  | { kind: 'stop'; reason: 'outcome' | 'exhausted' }
  | { kind: 'next'; step: number }
  | { kind: 'callback'; at: Date };

/**
 * What the cadence does after a call ended with `outcome` (raw, dashboard type or label):
 * - SUCCESS, TRANSFER, RESCHEDULE: stop, the lead was reached;
 * - CALLBACK: call back at the requested time when the call recorded one that is parseable and
 *   in the future (field `callback_time` first, it belongs to this call; then an ISO date-time in
 *   `callerPreference`); otherwise like NO_ACTION. The callback is not a cadence step: decide
 *   after the callback call with the same `step`;
 * - VOICEMAIL, NO_ACTION, and any outcome we do not know (a failed dial): the next step, or
 *   stop when the cadence is exhausted.
 */
export function decideAfterCall(outcome: string, ctx: AfterCallContext): AfterCallDecision {
  const now = requireInstant(ctx.now, 'now');
  switch (normalizeOutcome(outcome)) {
    case 'SUCCESS':
    case 'TRANSFER':
    case 'RESCHEDULE':
      return { kind: 'stop', reason: 'outcome' };
    case 'CALLBACK': {
      const at = callbackTime(ctx);
      if (at !== null && at > now) return { kind: 'callback', at: new Date(at) };
      return nextStep(ctx);
    }
    default:
      return nextStep(ctx);
  }
}

function nextStep(ctx: AfterCallContext): AfterCallDecision {
  const next = ctx.step + 1;
  const count = ctx.cadence?.steps.length ?? 0;
  return next < count ? { kind: 'next', step: next } : { kind: 'stop', reason: 'exhausted' };
}

function callbackTime(ctx: AfterCallContext): number | null {
  const zone = () => scheduleZone(ctx.windows ?? [], ctx.zoneOpts ?? {});
  for (const text of [recordedField(ctx.fields, 'callback_time'), ctx.callerPreference]) {
    const at = parseDateTime(text, zone);
    if (at !== null) return at;
  }
  return null;
}

const squash = (key: string) => key.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

function recordedField(fields: CallFields | null | undefined, key: string): unknown {
  if (!fields) return undefined;
  const wanted = squash(key);
  if (Array.isArray(fields)) {
    return (fields as ReadonlyArray<{ key: string; value: unknown }>).find((f) => typeof f?.key === 'string' && squash(f.key) === wanted)?.value;
  }
  const entry = Object.entries(fields).find(([k]) => squash(k) === wanted);
  return entry?.[1];
}

/**
 * Epoch ms of an ISO 8601 date-time ("2026-03-10T15:00:00-05:00", "2026-03-10 15:00"), read in
 * the schedule zone when it carries no offset; null for anything else (a bare date or a label
 * such as "afternoon" is not a time).
 */
export function parseDateTime(text: unknown, zone: () => string): number | null {
  if (typeof text !== 'string') return null;
  const iso = text.trim().replace(/^(\d{4}-\d{2}-\d{2}) (?=\d)/, '$1T');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso)) return null;
  const parsed = DateTime.fromISO(iso, { zone: zone() });
  return parsed.isValid ? parsed.toMillis() : null;
}

export interface SpeedToLeadInput {
  now: Date;
  windows: readonly CallingWindow[];
  zoneOpts?: ZoneOptions;
  /** The campaign's `dropOutsideWindow`: outside the window, drop instead of waiting. */
  dropOutsideWindow?: boolean | null;
}

export type SpeedToLeadDecision = { kind: 'call_now' } | { kind: 'park'; until: Date } | { kind: 'drop' };

/** A new speed-to-lead lead: call now when the window is open, else park until it opens, or drop. */
export function speedToLead(input: SpeedToLeadInput): SpeedToLeadDecision {
  const { now, windows, zoneOpts = {} } = input;
  if (isOpen(windows, now, zoneOpts)) return { kind: 'call_now' };
  if (input.dropOutsideWindow) return { kind: 'drop' };
  return { kind: 'park', until: requireOpening(windows, now, zoneOpts) };
}
