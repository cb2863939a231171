import type { FromSchema } from 'json-schema-to-ts';
import { DateTime, Id } from './common.js';
import { TimeZone } from './time-zones.js';

// Calling windows (spec 2.2) and power-dialer cadences. The arithmetic over these shapes lives
// in engine/cadence, which checks again (`windowProblems` / `stepProblems`) what the patterns
// below already say, for windows that reach it from elsewhere (stored campaigns, CRM data).

// [0-9], not \d: a pattern is also read by tools whose \d matches any Unicode digit.
const clock = { type: 'string', pattern: '^([01]?[0-9]|2[0-3]):[0-5][0-9]$' } as const;
const closing = { type: 'string', pattern: '^(([01]?[0-9]|2[0-3]):[0-5][0-9]|24:00)$' } as const;

/** Spec 2.2, exactly. `days` are ISO weekdays: 1 = Monday ... 7 = Sunday. */
export const CallingWindow = {
  type: 'object',
  description:
    'Hours during which calls may be placed, as wall-clock times in a time zone. ' +
    'An `end` earlier than `start` spans midnight (its `days` name the day it starts); ' +
    '`end` equal to `start` is a full 24 hours; `end` may be "24:00".',
  required: ['days', 'start', 'end', 'tz'],
  additionalProperties: false,
  properties: {
    days: {
      type: 'array',
      minItems: 1,
      items: { type: 'integer', minimum: 1, maximum: 7 },
      description: 'ISO weekdays, 1 = Monday ... 7 = Sunday',
    },
    start: { ...clock, description: 'opening time, H:MM or HH:MM (00:00 to 23:59)' },
    end: { ...closing, description: 'closing time, H:MM or HH:MM (00:00 to 23:59, or 24:00)' },
    tz: TimeZone,
  },
} as const;
export type CallingWindow = FromSchema<typeof CallingWindow>;

/** A window, several windows (unioned), or null (not set: the next level decides). */
export const CallingWindowSetting = {
  anyOf: [CallingWindow, { type: 'array', items: CallingWindow, maxItems: 50 }, { type: 'null' }],
} as const;
export type CallingWindowSetting = FromSchema<typeof CallingWindowSetting>;

/**
 * One attempt of a cadence. Step 0 is timed from enrolment, every later step from the previous
 * attempt:
 * - `{ delayMinutes: 240 }`: 4 hours (elapsed time) after the previous attempt;
 * - `{ delayMinutes: 0, at: "10:00", dayOffset: 1 }`: at 10:00 on the day after the previous
 *   attempt (wall clock in the lead's / window's zone). With `at`, `delayMinutes` is a minimum
 *   gap: the first `at` on or after that day that is at least `delayMinutes` after the attempt.
 * The result is then moved to the next opening of the calling window(s).
 */
export const CadenceStep = {
  type: 'object',
  required: ['delayMinutes'],
  additionalProperties: false,
  properties: {
    delayMinutes: {
      type: 'integer',
      minimum: 0,
      maximum: 527040,
      description: 'minutes after the previous attempt (step 0: after enrolment); 0 = immediately',
    },
    at: { ...clock, description: 'wall-clock time of day for the call, instead of a pure delay' },
    dayOffset: {
      type: 'integer',
      minimum: 0,
      maximum: 366,
      description: 'with `at`: days after the previous attempt\'s day (0 = same day, 1 = next day); default 0',
    },
    callingWindow: {
      ...CallingWindowSetting,
      description: "this step's own calling window(s); unset or null uses the campaign's",
    },
    label: { type: 'string', maxLength: 200, description: 'free text shown in dashboards' },
  },
  // `dayOffset` needs `at` (if/then rather than dependentRequired: valid in draft-07 and 2020-12).
  if: { type: 'object', properties: { dayOffset: true }, required: ['dayOffset'] },
  then: { type: 'object', properties: { at: true }, required: ['at'] },
} as const;
export type CadenceStep = FromSchema<typeof CadenceStep>;

const steps = { type: 'array', minItems: 1, maxItems: 50, items: CadenceStep } as const;
const name = { type: 'string', minLength: 1, maxLength: 200 } as const;

/** A saved cadence: the ordered call attempts a power-dialer lead goes through. */
export const Cadence = {
  type: 'object',
  required: ['id', 'name', 'steps', 'createdAt', 'updatedAt'],
  additionalProperties: false,
  properties: {
    id: Id,
    name,
    steps,
    createdAt: DateTime,
    updatedAt: DateTime,
  },
} as const;
export type Cadence = FromSchema<typeof Cadence>;

export const CreateCadenceBody = {
  type: 'object',
  required: ['name', 'steps'],
  additionalProperties: false,
  properties: { name, steps },
} as const;
export type CreateCadenceBody = FromSchema<typeof CreateCadenceBody>;

/** Replaces the fields sent (`steps` as a whole). */
export const PatchCadenceBody = {
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  properties: { name, steps },
} as const;
export type PatchCadenceBody = FromSchema<typeof PatchCadenceBody>;

/**
 * Pipeline lead `callStatus` (spec 2.5 / 3.3). The spec shows `scheduled` and
 * `waiting_for_window`; the rest is our decision (see engine/cadence/modes.ts `callStatusFor`).
 */
export const LEAD_CALL_STATUSES = [
  'scheduled',
  'waiting_for_window',
  'calling',
  'callback',
  'completed',
  'exhausted',
  'dropped',
] as const;
export const LeadCallStatus = { type: 'string', enum: LEAD_CALL_STATUSES } as const;
export type LeadCallStatus = FromSchema<typeof LeadCallStatus>;
