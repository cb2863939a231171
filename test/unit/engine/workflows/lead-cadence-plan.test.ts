import { describe, expect, it } from 'vitest';
import { cadenceMove, firstMove, moveAfterCall } from '../../../../engine/workflows/lead-cadence-plan.js';
import type { LeadCadenceInput } from '../../../../engine/workflows/lead-cadence-types.js';

// Monday 2026-03-02 15:00 UTC = 09:00 in Chicago (CST, -6).
const MON_0900_CHI = Date.parse('2026-03-02T15:00:00Z');
const HOUR = 3_600_000;
const weekdays9to17 = { days: [1, 2, 3, 4, 5], start: '9:00', end: '17:00', tz: 'America/Chicago' };

function input(over: Partial<LeadCadenceInput> = {}): LeadCadenceInput {
  return {
    agencyId: 'a',
    leadId: 'lead_1',
    campaignId: 'cmp_1',
    lead: { phone: '+15125550123' },
    dialing: 'pd',
    cadence: { id: 'cad_1', steps: [{ delayMinutes: 0 }, { delayMinutes: 240 }, { delayMinutes: 0, at: '10:00', dayOffset: 1 }] },
    windows: [weekdays9to17],
    zoneOpts: {},
    dropOutsideWindow: false,
    fromNumbers: [],
    enrolledAt: MON_0900_CHI,
    callTimeoutSeconds: 60,
    timeScale: 1,
    ...over,
  };
}

describe('firstMove', () => {
  it('s2l inside the window: call now, as step 0', () => {
    expect(firstMove(input({ dialing: 's2l' }), MON_0900_CHI + HOUR)).toEqual({ kind: 'call', step: 0, at: MON_0900_CHI + HOUR, status: 'calling' });
  });

  it('s2l outside the window: parked as waiting_for_window until it opens', () => {
    const sundayNoon = Date.parse('2026-03-01T18:00:00Z');
    expect(firstMove(input({ dialing: 's2l' }), sundayNoon)).toEqual({ kind: 'call', step: 0, at: MON_0900_CHI, status: 'waiting_for_window' });
  });

  it('s2l outside the window with dropOutsideWindow: dropped; s2l_pd goes on at cadence step 1', () => {
    const sundayNoon = Date.parse('2026-03-01T18:00:00Z');
    expect(firstMove(input({ dialing: 's2l', dropOutsideWindow: true }), sundayNoon)).toEqual({ kind: 'done', step: 0, status: 'dropped' });
    // step 1 is 4 hours after the (dropped) attempt, moved to Monday's opening.
    expect(firstMove(input({ dialing: 's2l_pd', dropOutsideWindow: true }), sundayNoon)).toEqual({ kind: 'call', step: 1, at: MON_0900_CHI, status: 'scheduled' });
  });

  it('pd: step 0 of the cadence, timed from enrolment and moved into the window', () => {
    const sundayNoon = Date.parse('2026-03-01T18:00:00Z');
    expect(firstMove(input({ enrolledAt: sundayNoon }), sundayNoon)).toEqual({ kind: 'call', step: 0, at: MON_0900_CHI, status: 'scheduled' });
  });

  it('no windows at all: no restriction', () => {
    const t = Date.parse('2026-03-01T03:00:00Z');
    expect(firstMove(input({ dialing: 's2l', windows: [] }), t)).toMatchObject({ status: 'calling', at: t });
  });
});

describe('cadenceMove', () => {
  it('a delay counts from the previous attempt; timeScale compresses it, not the window', () => {
    const placed = MON_0900_CHI + HOUR;
    expect(cadenceMove(input(), 1, placed)).toEqual({ kind: 'call', step: 1, at: placed + 4 * HOUR, status: 'scheduled' });
    expect(cadenceMove(input({ timeScale: 60 }), 1, placed)).toEqual({ kind: 'call', step: 1, at: placed + 4 * 60_000, status: 'scheduled' });
    // compressed, but due after closing time: waits for the next opening
    const late = MON_0900_CHI + 7.99 * HOUR;
    expect(cadenceMove(input({ timeScale: 60 }), 1, late)).toEqual({ kind: 'call', step: 1, at: MON_0900_CHI + 24 * HOUR, status: 'scheduled' });
  });

  it('`at` steps keep wall-clock time even under a time scale', () => {
    expect(cadenceMove(input({ timeScale: 60 }), 2, MON_0900_CHI)).toMatchObject({ at: MON_0900_CHI + 25 * HOUR });
  });

  it('past the last step: exhausted, at the last step', () => {
    expect(cadenceMove(input(), 3, MON_0900_CHI)).toEqual({ kind: 'done', step: 2, status: 'exhausted' });
  });

  it('a zone the arithmetic refuses ends the lead as dropped instead of throwing in a workflow', () => {
    const bad = input({ windows: [{ ...weekdays9to17, tz: 'Mars/Olympus' }] });
    expect(cadenceMove(bad, 0, MON_0900_CHI)).toMatchObject({ kind: 'done', status: 'dropped', reason: expect.stringContaining('Mars/Olympus') });
  });
});

describe('moveAfterCall', () => {
  const end = (outcome: string, extra: object = {}) => ({ outcome, placedAt: MON_0900_CHI + HOUR, now: MON_0900_CHI + HOUR + 60_000, ...extra });

  it('VOICEMAIL (or an unknown outcome) moves to the next step, timed from the attempt', () => {
    expect(moveAfterCall(input(), 0, end('VOICEMAIL'))).toEqual({ kind: 'call', step: 1, at: MON_0900_CHI + 5 * HOUR, status: 'scheduled' });
    expect(moveAfterCall(input(), 0, end('NO_ANSWER'))).toMatchObject({ step: 1, status: 'scheduled' });
  });

  it('SUCCESS completes; VOICEMAIL on the last step exhausts', () => {
    expect(moveAfterCall(input(), 1, end('SUCCESS'))).toEqual({ kind: 'done', step: 1, status: 'completed' });
    expect(moveAfterCall(input(), 2, end('voicemail'))).toEqual({ kind: 'done', step: 2, status: 'exhausted' });
  });

  it('CALLBACK with a future callback_time calls back at that time, on the same step', () => {
    const at = '2026-03-03T16:30:00Z';
    expect(moveAfterCall(input(), 1, end('CALLBACK', { fields: { callback_time: at } }))).toEqual({ kind: 'call', step: 1, at: Date.parse(at), status: 'callback' });
  });

  it('s2l alone: one attempt, then exhausted; s2l_pd: the attempt was step 0, the cadence goes on at step 1', () => {
    expect(moveAfterCall(input({ dialing: 's2l' }), 0, end('VOICEMAIL'))).toEqual({ kind: 'done', step: 0, status: 'exhausted' });
    expect(moveAfterCall(input({ dialing: 's2l_pd' }), 0, end('VOICEMAIL'))).toMatchObject({ kind: 'call', step: 1 });
  });
});
