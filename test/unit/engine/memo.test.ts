import { describe, expect, it } from 'vitest';
import { memoize } from '../../../engine/memo.js';

describe('memoize', () => {
  it('computes each input once, keeps falsy answers, and drops the oldest at its limit', () => {
    const calls: string[] = [];
    const f = memoize((k: string) => (calls.push(k), k === 'none' ? null : k === 'no' ? false : k.length), 3);
    expect([f('abc'), f('none'), f('no'), f('abc'), f('none'), f('no')]).toEqual([3, null, false, 3, null, false]);
    expect(calls).toEqual(['abc', 'none', 'no']);
    expect(f('four')).toBe(4); // a fourth input: 'abc', the oldest, goes
    expect(f('no')).toBe(false);
    expect(f('abc')).toBe(3);
    expect(calls).toEqual(['abc', 'none', 'no', 'four', 'abc']);
  });
});
