import type { IANAZone } from 'luxon';
import type { CallingWindow, CallingWindowSetting } from '../../schemas/cadence.js';
import { CadenceError } from './errors.js';
import {
  DAY_MS,
  MINUTE_MS,
  isValidZone,
  isoWeekday,
  localDay,
  parseClock,
  requireInstant,
  requireZone,
  wallToInstant,
} from './time.js';

/**
 * Which zone a window's wall-clock times are read in.
 * - `multipleTimezoneCheck` on and the lead has a valid zone: the lead's zone (call people
 *   during *their* hours);
 * - otherwise the window's own `tz` (required by spec 2.2), or the project's when a stored
 *   window lacks one.
 * An invalid lead zone is ignored (CRM data is messy); an invalid window zone is an error.
 */
export interface ZoneOptions {
  leadTz?: string | null | undefined;
  projectTz?: string | null | undefined;
  multipleTimezoneCheck?: boolean | null | undefined;
}

/** An instant interval [start, end) in epoch ms. */
interface Interval {
  start: number;
  end: number;
}

/** How far ahead `nextOpening` looks, in local days after the day of `from`. */
export const SEARCH_DAYS = 14;

/** The setting as a list: null/undefined -> [], one window -> [it], an array -> a copy. */
export function normalizeWindows(setting: CallingWindowSetting | undefined): CallingWindow[] {
  if (setting === null || setting === undefined) return [];
  return Array.isArray(setting) ? [...setting] : [setting as CallingWindow];
}

export interface WindowSources {
  campaign?: { callingWindow?: CallingWindowSetting | undefined } | null | undefined;
  project?:
    | { callingWindowOverride?: CallingWindowSetting | undefined; timezone?: string | null | undefined }
    | null
    | undefined;
  /** The agency's default hours, a template applied in each project's own zone. */
  agencyDefault?: CallingWindowSetting | undefined;
}

/**
 * The windows that govern a campaign: the campaign's, else the project's override, else the
 * agency default. "Set" means at least one window: null and [] fall through to the next level.
 *
 * The agency default is one setting for projects in many zones, so when the project has a valid
 * `timezone` the default's windows are read in that zone (9:00-17:00 means 9-5 at the clinic,
 * not at the agency). Campaign and project windows keep the zone written on them.
 *
 * An empty result means no calling-window restriction at all (see `isOpen`).
 */
export function resolveWindows(sources: WindowSources): CallingWindow[] {
  const campaign = normalizeWindows(sources.campaign?.callingWindow);
  if (campaign.length > 0) return campaign;
  const project = normalizeWindows(sources.project?.callingWindowOverride);
  if (project.length > 0) return project;
  const agency = normalizeWindows(sources.agencyDefault);
  const projectTz = sources.project?.timezone;
  return isValidZone(projectTz) ? agency.map((w) => ({ ...w, tz: projectTz })) : agency;
}

/**
 * The ZoneOptions for a lead of a campaign: the campaign's `multipleTimezoneCheck` when it has
 * one, else the project's.
 */
export function resolveZoneOptions(sources: {
  campaign?: { multipleTimezoneCheck?: boolean | null | undefined } | null | undefined;
  project?: { multipleTimezoneCheck?: boolean | null | undefined; timezone?: string | null | undefined } | null | undefined;
  lead?: { timezone?: string | null | undefined } | null | undefined;
}): ZoneOptions {
  return {
    leadTz: sources.lead?.timezone ?? null,
    projectTz: sources.project?.timezone ?? null,
    multipleTimezoneCheck: sources.campaign?.multipleTimezoneCheck ?? sources.project?.multipleTimezoneCheck ?? false,
  };
}

/** The zone name the window is evaluated in (see ZoneOptions). */
export function windowZone(window: CallingWindow, opts: ZoneOptions = {}): string {
  return zoneOf(window, opts).name;
}

function zoneOf(window: CallingWindow, opts: ZoneOptions): IANAZone {
  if (opts.multipleTimezoneCheck && isValidZone(opts.leadTz)) return requireZone(opts.leadTz);
  if (typeof window.tz === 'string' && window.tz !== '') return requireZone(window.tz, 'calling-window time zone');
  return requireZone(opts.projectTz, 'project time zone');
}

/**
 * The zone wall-clock cadence times (`at`) and offset-less callback times are read in: the zone
 * of the first governing window, else the lead's (with multipleTimezoneCheck), else the
 * project's, else UTC.
 */
export function scheduleZone(windows: readonly CallingWindow[], opts: ZoneOptions = {}): string {
  const first = windows[0];
  if (first) return windowZone(first, opts);
  if (opts.multipleTimezoneCheck && isValidZone(opts.leadTz)) return requireZone(opts.leadTz).name;
  if (isValidZone(opts.projectTz)) return requireZone(opts.projectTz).name;
  return 'UTC';
}

/**
 * Everything wrong with a window, as messages naming the field; [] when it is usable. For the
 * server's 400s: a window it accepts never makes the engine throw.
 */
export function windowProblems(window: unknown, path = 'callingWindow'): string[] {
  if (typeof window !== 'object' || window === null || Array.isArray(window)) return [`${path} must be an object`];
  const w = window as Record<string, unknown>;
  const problems: string[] = [];
  const days = w.days;
  if (!Array.isArray(days) || days.length === 0) problems.push(`${path}.days must list at least one day (1 = Monday ... 7 = Sunday)`);
  else if (!days.every((d) => Number.isInteger(d) && (d as number) >= 1 && (d as number) <= 7)) {
    problems.push(`${path}.days must hold integers 1 to 7 (1 = Monday ... 7 = Sunday)`);
  }
  for (const [key, allow24] of [['start', false], ['end', true]] as const) {
    try {
      parseClock(w[key], `${path}.${key}`, allow24);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  try {
    requireZone(w.tz, `${path}.tz time zone`);
  } catch (err) {
    problems.push((err as Error).message);
  }
  return problems;
}

/** Problems of a setting (window, array of windows or null), with paths like `callingWindow[1].tz`. */
export function windowSettingProblems(setting: unknown, path = 'callingWindow'): string[] {
  if (setting === null || setting === undefined) return [];
  if (Array.isArray(setting)) return setting.flatMap((w, i) => windowProblems(w, `${path}[${i}]`));
  return windowProblems(setting, path);
}

/** A window prepared for evaluation: zone resolved, times parsed, days as a set. */
interface PreparedWindow {
  zone: IANAZone;
  days: ReadonlySet<number>;
  startMin: number;
  endMin: number;
}

function compileWindow(window: CallingWindow, opts: ZoneOptions): PreparedWindow {
  if (!Array.isArray(window.days) || window.days.length === 0) {
    throw new CadenceError('INVALID_WINDOW', 'A calling window must list at least one day (1 = Monday ... 7 = Sunday)');
  }
  for (const d of window.days) {
    if (!Number.isInteger(d) || d < 1 || d > 7) {
      throw new CadenceError('INVALID_WINDOW', `Invalid calling-window day ${String(d)}: expected 1 (Monday) to 7 (Sunday)`);
    }
  }
  const startMin = parseClock(window.start, 'calling-window start');
  let endMin = parseClock(window.end, 'calling-window end', true);
  // end <= start runs past midnight into the next day; end == start is a full 24 hours.
  if (endMin <= startMin) endMin += 24 * 60;
  return { zone: zoneOf(window, opts), days: new Set(window.days), startMin, endMin };
}

/** The window's interval for the local day it starts on, or null if the window is off that day. */
function intervalOn(w: PreparedWindow, day: number): Interval | null {
  if (!w.days.has(isoWeekday(day))) return null;
  const midnight = day * DAY_MS;
  const start = wallToInstant(w.zone, midnight + w.startMin * MINUTE_MS);
  const end = wallToInstant(w.zone, midnight + w.endMin * MINUTE_MS);
  // Only a window lying wholly inside a spring-forward gap is empty.
  return end > start ? { start, end } : null;
}

/**
 * Whether a call may be placed at the instant. No windows means no restriction (open).
 * A window opens the first time its zone's clock reads `start` on one of its days and closes the
 * first time it then reads `end`.
 */
export function isOpen(windows: readonly CallingWindow[], instant: Date, opts: ZoneOptions = {}): boolean {
  const t = requireInstant(instant, 'instant');
  if (windows.length === 0) return true;
  return windows.some((window) => {
    const w = compileWindow(window, opts);
    const today = localDay(w.zone, t);
    // A window reaching into today may have started yesterday (midnight-spanning or 24 h).
    for (const day of [today - 1, today]) {
      const iv = intervalOn(w, day);
      if (iv && iv.start <= t && t < iv.end) return true;
    }
    return false;
  });
}

/**
 * The earliest instant at or after `from` at which some window is open: `from` itself when open
 * now. Looks SEARCH_DAYS local days ahead; null when nothing opens in that span (it cannot
 * happen for a valid window, which opens at least weekly). No windows: `from`.
 */
export function nextOpening(windows: readonly CallingWindow[], from: Date, opts: ZoneOptions = {}): Date | null {
  const t = requireInstant(from, 'from');
  if (windows.length === 0) return new Date(t);
  let best: number | null = null;
  for (const window of windows) {
    const w = compileWindow(window, opts);
    const today = localDay(w.zone, t);
    // One window's intervals are ordered by day, so its first interval still open is its answer.
    for (let day = today - 1; day <= today + SEARCH_DAYS; day++) {
      const iv = intervalOn(w, day);
      if (!iv || iv.end <= t) continue;
      const candidate = Math.max(iv.start, t);
      if (best === null || candidate < best) best = candidate;
      break;
    }
    if (best === t) break;
  }
  return best === null ? null : new Date(best);
}

/** nextOpening, with a CadenceError where a schedule must have an answer. */
export function requireOpening(windows: readonly CallingWindow[], from: Date, opts: ZoneOptions = {}): Date {
  const opening = nextOpening(windows, from, opts);
  if (!opening) {
    throw new CadenceError('NO_OPENING', `No calling window opens within ${SEARCH_DAYS} days of ${from.toISOString()}`);
  }
  return opening;
}
