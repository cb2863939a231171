import { describe, expect, it } from 'vitest';
import { areaCode, callStatusFor, chooseCallerId, dialingPlan } from '../../../../engine/cadence/index.js';

describe('dialingPlan', () => {
  it('s2l: an immediate attempt only', () => {
    expect(dialingPlan('s2l')).toEqual({ speedToLead: true, cadence: false, firstCadenceStep: null });
  });
  it('pd: the cadence from step 0', () => {
    expect(dialingPlan('pd')).toEqual({ speedToLead: false, cadence: true, firstCadenceStep: 0 });
  });
  it('s2l_pd: the immediate attempt is step 0, the cadence continues at step 1', () => {
    expect(dialingPlan('s2l_pd')).toEqual({ speedToLead: true, cadence: true, firstCadenceStep: 1 });
  });
  it('reactivation dials like pd; no mode dials nothing', () => {
    expect(dialingPlan('reactivation')).toEqual(dialingPlan('pd'));
    expect(dialingPlan(null)).toEqual({ speedToLead: false, cadence: false, firstCadenceStep: null });
  });
  it('returns a fresh object each time', () => {
    const a = dialingPlan('pd');
    a.cadence = false;
    expect(dialingPlan('pd').cadence).toBe(true);
  });
});

describe('callStatusFor', () => {
  it('maps decisions to the lead callStatus', () => {
    expect(callStatusFor({ kind: 'park', until: new Date(0) })).toBe('waiting_for_window');
    expect(callStatusFor({ kind: 'next', step: 1 })).toBe('scheduled');
    expect(callStatusFor({ kind: 'call_now' })).toBe('calling');
    expect(callStatusFor({ kind: 'drop' })).toBe('dropped');
    expect(callStatusFor({ kind: 'callback', at: new Date(0) })).toBe('callback');
    expect(callStatusFor({ kind: 'stop', reason: 'outcome' })).toBe('completed');
    expect(callStatusFor({ kind: 'stop', reason: 'exhausted' })).toBe('exhausted');
  });
});

describe('chooseCallerId', () => {
  const pool = ['+13125550100', '+15125550101', '+15125550102', '+12145550103'];

  it('prefers the first number sharing the lead area code', () => {
    expect(chooseCallerId(pool, '+15125559999')).toBe('+15125550101');
    expect(chooseCallerId(pool, '+12145559999')).toBe('+12145550103');
  });

  it('falls back to the first number', () => {
    expect(chooseCallerId(pool, '+17135559999')).toBe('+13125550100');
    expect(chooseCallerId(pool, '+447700900123')).toBe('+13125550100'); // not NANP
    expect(chooseCallerId(pool, null)).toBe('+13125550100');
    expect(chooseCallerId(pool, 'garbage')).toBe('+13125550100');
  });

  it('does not match a non-NANP number whose digits look alike', () => {
    expect(chooseCallerId(['+13125550100', '+4451255501011'], '+15125559999')).toBe('+13125550100');
  });

  it('reads a national-format lead number', () => {
    expect(chooseCallerId(pool, '(512) 555-9999')).toBe('+15125550101');
    expect(areaCode('1-512-555-9999')).toBe('512');
    expect(areaCode('+15125559999')).toBe('512');
    expect(areaCode('+1 012 555 9999')).toBeNull(); // area codes start with 2-9
  });

  it('returns null for an empty pool and is deterministic', () => {
    expect(chooseCallerId([], '+15125559999')).toBeNull();
    expect(chooseCallerId(null, '+15125559999')).toBeNull();
    expect(chooseCallerId(pool, '+15125559999')).toBe(chooseCallerId([...pool], '+15125559999'));
  });
});
