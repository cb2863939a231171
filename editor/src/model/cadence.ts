/**
 * Where a lead stands in its campaign's cadence, in words: each step's rule, the calling windows,
 * and for each lead when its next call is, on the clock of the zone that governs it, and why then
 * (which attempt, the window opening, a callback the lead asked for). The zone is the engine's own
 * rule (engine/cadence: `resolveWindows`, `resolveZoneOptions`, `stepWindows`, `scheduleZone`), so
 * the page and the dialer cannot disagree about it. Pure.
 */
import { resolveWindows, resolveZoneOptions, scheduleZone, stepWindows } from '../../../engine/cadence/index';
import type { Cadence, CadenceStep, Campaign, PipelineLead, Project } from '../api/types';

/** A calling window as the engine reads it. */
type Window = ReturnType<typeof resolveWindows>[number];

/** A campaign without `config.cadenceId` dials the default cadence: one call, at once. */
export const DEFAULT_STEPS: CadenceStep[] = [{ delayMinutes: 0 }];

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** `[1,2,3,4,5]` as `Mon–Fri`, `[1,3,6,7]` as `Mon, Wed, Sat–Sun`. */
export function daysText(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((x, y) => x - y);
  if (sorted.length === 7) return 'every day';
  const runs: [number, number][] = [];
  for (const d of sorted) {
    const last = runs.at(-1);
    if (last && d === last[1] + 1) last[1] = d;
    else runs.push([d, d]);
  }
  return runs.map(([a, b]) => (a === b ? DAY_NAMES[a - 1] : `${DAY_NAMES[a - 1]}–${DAY_NAMES[b - 1]}`)).join(', ');
}

export function windowText(w: Window): string {
  const hours = w.start === w.end ? 'all day' : `${w.start}–${w.end}`;
  return `${daysText(w.days)} ${hours} (${w.tz})`;
}

const duration = (minutes: number): string => {
  if (minutes % 1440 === 0) return `${minutes / 1440} day${minutes === 1440 ? '' : 's'}`;
  if (minutes % 60 === 0) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return minutes > 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
};

/** A step's timing rule: step 0 is timed from enrolment, every later step from the previous attempt. */
export function stepRule(step: CadenceStep, index: number): string {
  const from = index === 0 ? 'enrolment' : 'the previous attempt';
  let rule: string;
  if (step.at !== undefined) {
    const day = step.dayOffset ? `${step.dayOffset} day${step.dayOffset === 1 ? '' : 's'} after ${from}` : `the day of ${from}`;
    rule = `at ${step.at}, ${day}${step.delayMinutes ? ` (at least ${duration(step.delayMinutes)} after it)` : ''}`;
  } else {
    rule = step.delayMinutes === 0 ? (index === 0 ? 'at once after enrolment' : 'right after the previous attempt') : `${duration(step.delayMinutes)} after ${from}`;
  }
  return step.callingWindow ? `${rule}, in its own calling window` : rule;
}

/** What governs a campaign's leads: its windows (campaign, else project override) and the zone switch. */
export interface CadenceContext {
  steps: readonly CadenceStep[];
  /** the campaign's governing windows (before a step's own) */
  windows: Window[];
  campaign: Pick<Campaign, 'multipleTimezoneCheck'>;
  project: Pick<Project, 'multipleTimezoneCheck' | 'timezone'>;
}

export function cadenceContext(campaign: Campaign, project: Project, cadence: Pick<Cadence, 'steps'> | null): CadenceContext {
  return {
    steps: cadence?.steps ?? DEFAULT_STEPS,
    windows: resolveWindows({ campaign: { callingWindow: campaign.callingWindow ?? undefined }, project: { callingWindowOverride: project.callingWindowOverride ?? undefined, timezone: project.timezone } }),
    campaign,
    project,
  };
}

/** An instant's wall clock in a zone: ISO weekday (1 = Monday), minutes since midnight, `HH:MM`. */
export function wallClock(iso: string, zone: string): { weekday: number; minutes: number; hhmm: string } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const hour = Number(get('hour')) % 24;
  const minute = Number(get('minute'));
  return { weekday: DAY_NAMES.indexOf(get('weekday')) + 1, minutes: hour * 60 + minute, hhmm: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}` };
}

const clockMinutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
};

/** Where an instant falls against a window read on a wall clock: at its opening, inside it, or outside. */
export function placeInWindow(at: { weekday: number; minutes: number }, w: Window): 'opening' | 'inside' | 'outside' {
  const start = clockMinutes(w.start);
  const end = clockMinutes(w.end);
  const today = w.days.includes(at.weekday);
  const yesterday = w.days.includes(at.weekday === 1 ? 7 : at.weekday - 1);
  if (today && at.minutes === start) return 'opening';
  if (start === end) return today ? 'inside' : 'outside';
  if (end > start) return today && at.minutes >= start && at.minutes < end ? 'inside' : 'outside';
  // Spans midnight: from `start` on a window day to `end` the day after.
  return (today && at.minutes >= start) || (yesterday && at.minutes < end) ? 'inside' : 'outside';
}

export interface NextCall {
  /** the zone the lead's windows and wall-clock times are read in */
  zone: string;
  /** why that zone */
  zoneWhy: string;
  /** the next call time on that zone's clock */
  local: string;
  hhmm: string;
  /** why then, in a few phrases */
  why: string[];
}

/** When the lead's next call is, in its governing zone, and why then. */
export function explainNextCall(lead: PipelineLead, ctx: CadenceContext): NextCall {
  const index = Math.min(lead.cadenceStep, Math.max(0, ctx.steps.length - 1));
  const step = ctx.steps[index] ?? DEFAULT_STEPS[0]!;
  const windows = stepWindows(step, ctx.windows);
  // The lead list's `timezone` is the contact's, else the project's (docs/power-dialer.md).
  const opts = resolveZoneOptions({ campaign: ctx.campaign, project: ctx.project, lead: { timezone: lead.timezone || null } });
  let zone: string;
  try {
    zone = scheduleZone(windows, opts);
  } catch {
    zone = 'UTC';
  }
  const byLead = opts.multipleTimezoneCheck && zone === lead.timezone && windows.some((w) => w.tz !== zone);
  const zoneWhy = windows.length === 0 ? (zone === 'UTC' ? 'no calling window, no zone known' : 'no calling window: the lead’s or project’s zone') : byLead ? 'the lead’s own zone (multiple time zones on)' : 'the calling window’s zone';
  const clock = wallClock(lead.nextCallTime, zone);
  const local = new Intl.DateTimeFormat(undefined, { timeZone: zone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(lead.nextCallTime));

  const why: string[] = [];
  const attempt = `attempt ${index + 1} of ${ctx.steps.length}`;
  switch (lead.callStatus) {
    case 'waiting_for_window':
      why.push(`speed-to-lead call (${attempt}) waiting for the calling window`);
      break;
    case 'calling':
      why.push(`${attempt} is being placed`);
      break;
    case 'callback':
      why.push(`the lead asked to be called back${lead.callerPreference ? `: “${lead.callerPreference}”` : ''} (${attempt})`);
      break;
    default:
      why.push(`${attempt}: ${stepRule(step, index)}${step.label ? ` (“${step.label}”)` : ''}`);
  }
  if (windows.length === 0) why.push('no calling window restricts it');
  else {
    const places = windows.map((w) => ({ w, place: placeInWindow(clock, { ...w, tz: zone }) }));
    const opening = places.find((p) => p.place === 'opening');
    const inside = places.find((p) => p.place === 'inside');
    if (opening) why.push(`the calling window ${windowText(opening.w)} opens then`);
    else if (inside) why.push(`inside the calling window ${windowText(inside.w)}`);
    else why.push(`the calling window is ${windows.map(windowText).join(' or ')}`);
  }
  return { zone, zoneWhy, local, hhmm: clock.hhmm, why };
}
