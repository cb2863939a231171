import { describe, expect, it } from 'vitest';
import {
  CadenceError,
  decideAfterCall,
  nextCallTime,
  normalizeOutcome,
  speedToLead,
  stepProblems,
  type AfterCallContext,
} from '../../../../engine/cadence/index.js';
import type { CadenceStep, CallingWindow } from '../../../../schemas/cadence.js';

const CHI = 'America/Chicago';
const clinicHours: CallingWindow[] = [{ days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: CHI }];

/** Dana's cadence: call now, again after 4 hours, then the next day at 10:00. */
const dana: { steps: CadenceStep[] } = {
  steps: [{ delayMinutes: 0 }, { delayMinutes: 240 }, { delayMinutes: 0, at: '10:00', dayOffset: 1 }],
};

function schedule(step: number, lastAttemptAt: string, windows: CallingWindow[] = clinicHours, extra: Partial<Parameters<typeof nextCallTime>[0]> = {}) {
  const result = nextCallTime({ cadence: dana, step, lastAttemptAt: new Date(lastAttemptAt), windows, ...extra });
  return result && { at: result.at.toISOString(), waitedForWindow: result.waitedForWindow, due: result.due.toISOString() };
}

describe('nextCallTime', () => {
  it('step 0 with no delay calls at enrolment when the window is open', () => {
    // Tue 2026-03-10 10:00 CDT.
    expect(schedule(0, '2026-03-10T15:00:00Z')).toEqual({
      at: '2026-03-10T15:00:00.000Z',
      waitedForWindow: false,
      due: '2026-03-10T15:00:00.000Z',
    });
  });

  it('step 0 outside the window waits for the opening', () => {
    // Tue 2026-03-10 20:00 CDT -> Wed 9:00 CDT.
    expect(schedule(0, '2026-03-11T01:00:00Z')).toEqual({
      at: '2026-03-11T14:00:00.000Z',
      waitedForWindow: true,
      due: '2026-03-11T01:00:00.000Z',
    });
  });

  it('"again after 4 hours" is 4 elapsed hours, pushed to the window when it lands outside', () => {
    expect(schedule(1, '2026-03-10T15:02:00Z')?.at).toBe('2026-03-10T19:02:00.000Z');
    // 15:00 CDT + 4 h = 19:00 CDT, closed -> Wed 9:00 CDT.
    expect(schedule(1, '2026-03-10T20:00:00Z')).toMatchObject({ at: '2026-03-11T14:00:00.000Z', waitedForWindow: true });
  });

  it('a pure delay across spring-forward counts real time, not wall time', () => {
    // Sat 2026-03-07 12:00 CST + 24 h = Sun 13:00 CDT (not 12:00).
    const steps = [{ delayMinutes: 1440 }];
    const r = nextCallTime({ cadence: { steps }, step: 0, lastAttemptAt: new Date('2026-03-07T18:00:00Z'), windows: [] });
    expect(r?.at.toISOString()).toBe('2026-03-08T18:00:00.000Z');
  });

  it('"the next day at 10:00" is 10:00 wall time in the schedule zone', () => {
    // Tue 14:05 CDT -> Wed 10:00 CDT.
    expect(schedule(2, '2026-03-10T19:05:00Z')).toEqual({
      at: '2026-03-11T15:00:00.000Z',
      waitedForWindow: false,
      due: '2026-03-11T15:00:00.000Z',
    });
    // Late evening is still the same local day: Tue 23:30 CDT (Wed 04:30Z) -> Wed 10:00 CDT.
    expect(schedule(2, '2026-03-11T04:30:00Z')?.at).toBe('2026-03-11T15:00:00.000Z');
  });

  it('"the next day at 10:00" across spring-forward keeps 10:00 local', () => {
    // Sat 2026-03-07 12:00 CST -> Sun 10:00 CDT = 15:00Z (no window restriction; project zone).
    const r = nextCallTime({ cadence: dana, step: 2, lastAttemptAt: new Date('2026-03-07T18:00:00Z'), windows: [], zoneOpts: { projectTz: CHI } });
    expect(r?.at.toISOString()).toBe('2026-03-08T15:00:00.000Z');
    // With no windows and no zone options the schedule zone is UTC.
    const utc = nextCallTime({ cadence: dana, step: 2, lastAttemptAt: new Date('2026-03-07T18:00:00Z'), windows: [] });
    expect(utc?.at.toISOString()).toBe('2026-03-08T10:00:00.000Z');
  });

  it('"the next day at 10:00" on a Friday lands on Saturday, then waits for Monday', () => {
    expect(schedule(2, '2026-03-06T20:00:00Z')).toEqual({
      at: '2026-03-09T14:00:00.000Z',
      waitedForWindow: true,
      due: '2026-03-07T16:00:00.000Z',
    });
  });

  it('with `at`, delayMinutes is a minimum gap: too soon today -> the same time tomorrow', () => {
    const steps = [{ delayMinutes: 60, at: '16:00' }];
    // Tue 15:30 CDT + 60 min = 16:30 > 16:00 -> Wed 16:00 CDT.
    const r = nextCallTime({ cadence: { steps }, step: 0, lastAttemptAt: new Date('2026-03-10T20:30:00Z'), windows: clinicHours });
    expect(r?.at.toISOString()).toBe('2026-03-11T21:00:00.000Z');
    // Tue 14:00 CDT + 60 min = 15:00 <= 16:00 -> Tue 16:00 CDT.
    const s = nextCallTime({ cadence: { steps }, step: 0, lastAttemptAt: new Date('2026-03-10T19:00:00Z'), windows: clinicHours });
    expect(s?.at.toISOString()).toBe('2026-03-10T21:00:00.000Z');
  });

  it('reads `at` in the lead zone when multipleTimezoneCheck is on', () => {
    const zoneOpts = { leadTz: 'America/Los_Angeles', projectTz: CHI, multipleTimezoneCheck: true };
    // Tue 2026-03-10 12:00 PDT -> Wed 10:00 PDT = 17:00Z.
    expect(schedule(2, '2026-03-10T19:00:00Z', clinicHours, { zoneOpts })?.at).toBe('2026-03-11T17:00:00.000Z');
  });

  it("a step's own window replaces the campaign's", () => {
    const saturdayMorning: CallingWindow = { days: [6], start: '10:00', end: '12:00', tz: CHI };
    const steps: CadenceStep[] = [{ delayMinutes: 0, callingWindow: saturdayMorning }];
    const r = nextCallTime({ cadence: { steps }, step: 0, lastAttemptAt: new Date('2026-03-10T15:00:00Z'), windows: clinicHours });
    expect(r?.at.toISOString()).toBe('2026-03-14T15:00:00.000Z'); // Sat 10:00 CDT
    // A null step window inherits the campaign's.
    const inherit = nextCallTime({
      cadence: { steps: [{ delayMinutes: 0, callingWindow: null }] },
      step: 0,
      lastAttemptAt: new Date('2026-03-14T15:00:00Z'),
      windows: clinicHours,
    });
    expect(inherit?.at.toISOString()).toBe('2026-03-16T14:00:00.000Z'); // Mon 9:00 CDT
  });

  it('returns null when the cadence has no such step', () => {
    expect(schedule(3, '2026-03-10T15:00:00Z')).toBeNull();
  });

  it('refuses a negative or fractional step index and an invalid date', () => {
    expect(() => schedule(-1, '2026-03-10T15:00:00Z')).toThrow(CadenceError);
    expect(() => schedule(1.5, '2026-03-10T15:00:00Z')).toThrow(/integer/);
    expect(() => schedule(0, 'not a date')).toThrow(/lastAttemptAt/);
  });

  it('is deterministic: same input, same answer', () => {
    const a = schedule(2, '2026-03-06T20:00:00Z');
    const b = schedule(2, '2026-03-06T20:00:00Z');
    expect(a).toEqual(b);
  });
});

describe('stepProblems', () => {
  it('accepts valid steps and names bad fields', () => {
    expect(stepProblems({ delayMinutes: 0 })).toEqual([]);
    expect(stepProblems({ delayMinutes: 0, at: '10:00', dayOffset: 1 })).toEqual([]);
    expect(stepProblems({ delayMinutes: -5 }, 'steps[0]')).toEqual(['steps[0].delayMinutes must be an integer >= 0']);
    expect(stepProblems({ delayMinutes: 0, dayOffset: 1 }, 'steps[2]')).toEqual(['steps[2].dayOffset needs steps[2].at (the time of day on that day)']);
    expect(stepProblems({ delayMinutes: 0, at: '31:00' }, 'steps[1]')[0]).toMatch(/steps\[1\]\.at "31:00"/);
  });
});

describe('decideAfterCall', () => {
  const now = new Date('2026-03-10T16:00:00Z');
  const ctx = (extra: Partial<AfterCallContext> = {}): AfterCallContext => ({ cadence: dana, step: 0, now, ...extra });

  it('SUCCESS, TRANSFER and RESCHEDULE stop the cadence, in any form', () => {
    for (const outcome of ['SUCCESS', 'TRANSFER', 'RESCHEDULE', 'success', 'Transfer', 'reschedule']) {
      expect(decideAfterCall(outcome, ctx())).toEqual({ kind: 'stop', reason: 'outcome' });
    }
  });

  it('VOICEMAIL and NO_ACTION move to the next step', () => {
    for (const outcome of ['VOICEMAIL', 'NO_ACTION', 'noAction', 'No Action', 'voicemail']) {
      expect(decideAfterCall(outcome, ctx({ step: 1 }))).toEqual({ kind: 'next', step: 2 });
    }
  });

  it('VOICEMAIL and NO_ACTION stop when the cadence is exhausted', () => {
    expect(decideAfterCall('VOICEMAIL', ctx({ step: 2 }))).toEqual({ kind: 'stop', reason: 'exhausted' });
    expect(decideAfterCall('NO_ACTION', ctx({ cadence: null }))).toEqual({ kind: 'stop', reason: 'exhausted' });
  });

  it('an unknown outcome (e.g. a failed dial) moves on like NO_ACTION', () => {
    expect(decideAfterCall('FAILED', ctx())).toEqual({ kind: 'next', step: 1 });
  });

  it('CALLBACK with a future callback_time field calls back then', () => {
    const fields = [
      { key: 'appointment_time', value: null },
      { key: 'callback_time', value: '2026-03-11T15:30:00-05:00' },
    ];
    const d = decideAfterCall('CALLBACK', ctx({ fields }));
    expect(d.kind).toBe('callback');
    expect(d.kind === 'callback' && d.at.toISOString()).toBe('2026-03-11T20:30:00.000Z');
    // The dashboard form and a plain-object field map work too.
    const e = decideAfterCall('callBack', ctx({ fields: { callback_time: '2026-03-11T20:30:00Z' } }));
    expect(e.kind === 'callback' && e.at.toISOString()).toBe('2026-03-11T20:30:00.000Z');
  });

  it('CALLBACK with an ISO time in callerPreference calls back then', () => {
    const d = decideAfterCall('CALLBACK', ctx({ callerPreference: '2026-03-12T09:15:00Z' }));
    expect(d.kind === 'callback' && d.at.toISOString()).toBe('2026-03-12T09:15:00.000Z');
  });

  it('the call\'s callback_time wins over the lead\'s callerPreference', () => {
    const d = decideAfterCall(
      'CALLBACK',
      ctx({ callerPreference: '2026-03-12T09:15:00Z', fields: [{ key: 'callback_time', value: '2026-03-13T09:15:00Z' }] }),
    );
    expect(d.kind === 'callback' && d.at.toISOString()).toBe('2026-03-13T09:15:00.000Z');
  });

  it('a callback time without an offset is read in the schedule zone', () => {
    // 2026-03-11 15:00 in Chicago (CDT) = 20:00Z; in Los Angeles with the lead check = 22:00Z.
    const chi = decideAfterCall('CALLBACK', ctx({ fields: { callback_time: '2026-03-11 15:00' }, windows: clinicHours }));
    expect(chi.kind === 'callback' && chi.at.toISOString()).toBe('2026-03-11T20:00:00.000Z');
    const la = decideAfterCall(
      'CALLBACK',
      ctx({
        fields: { callback_time: '2026-03-11T15:00:00' },
        windows: clinicHours,
        zoneOpts: { leadTz: 'America/Los_Angeles', multipleTimezoneCheck: true },
      }),
    );
    expect(la.kind === 'callback' && la.at.toISOString()).toBe('2026-03-11T22:00:00.000Z');
  });

  it('CALLBACK with a past, unparseable or missing time goes to the next step', () => {
    expect(decideAfterCall('CALLBACK', ctx({ fields: { callback_time: '2026-03-09T15:00:00Z' } }))).toEqual({ kind: 'next', step: 1 });
    expect(decideAfterCall('CALLBACK', ctx({ fields: { callback_time: now.toISOString() } }))).toEqual({ kind: 'next', step: 1 });
    expect(decideAfterCall('CALLBACK', ctx({ callerPreference: 'afternoon' }))).toEqual({ kind: 'next', step: 1 });
    expect(decideAfterCall('CALLBACK', ctx({ callerPreference: '2026-03-12' }))).toEqual({ kind: 'next', step: 1 });
    expect(decideAfterCall('CALLBACK', ctx({ fields: { callback_time: '2026-02-30T10:00:00Z' } }))).toEqual({ kind: 'next', step: 1 });
    expect(decideAfterCall('CALLBACK', ctx({ fields: { callback_time: 1773000000000 } }))).toEqual({ kind: 'next', step: 1 });
    expect(decideAfterCall('CALLBACK', ctx({ step: 2 }))).toEqual({ kind: 'stop', reason: 'exhausted' });
  });

  it('normalizeOutcome knows the raw, type and label forms', () => {
    expect(normalizeOutcome('Call Back')).toBe('CALLBACK');
    expect(normalizeOutcome('callBack')).toBe('CALLBACK');
    expect(normalizeOutcome('no_action')).toBe('NO_ACTION');
    expect(normalizeOutcome('BUSY')).toBeNull();
  });
});

describe('speedToLead', () => {
  it('calls now when the window is open', () => {
    expect(speedToLead({ now: new Date('2026-03-10T15:00:00Z'), windows: clinicHours })).toEqual({ kind: 'call_now' });
    expect(speedToLead({ now: new Date('2026-03-10T15:00:00Z'), windows: clinicHours, dropOutsideWindow: true })).toEqual({
      kind: 'call_now',
    });
  });

  it('parks until the window opens when outside it', () => {
    const d = speedToLead({ now: new Date('2026-03-07T18:00:00Z'), windows: clinicHours });
    expect(d.kind).toBe('park');
    expect(d.kind === 'park' && d.until.toISOString()).toBe('2026-03-09T14:00:00.000Z'); // Mon 9:00 CDT
  });

  it('drops outside the window with dropOutsideWindow', () => {
    expect(speedToLead({ now: new Date('2026-03-07T18:00:00Z'), windows: clinicHours, dropOutsideWindow: true })).toEqual({ kind: 'drop' });
  });

  it('uses the lead zone with multipleTimezoneCheck', () => {
    // Tue 2026-03-10 15:30Z: 10:30 in Chicago, 08:30 in Los Angeles.
    const zoneOpts = { leadTz: 'America/Los_Angeles', multipleTimezoneCheck: true };
    const d = speedToLead({ now: new Date('2026-03-10T15:30:00Z'), windows: clinicHours, zoneOpts });
    expect(d.kind === 'park' && d.until.toISOString()).toBe('2026-03-10T16:00:00.000Z');
  });
});
