import { describe, expect, it } from 'vitest';
import {
  describeCondition,
  describeConditions,
  evaluateCondition,
  evaluateIf,
  resolvePath,
  selectSwitchCase,
} from '../../../../engine/graph/conditions.js';
import type { Condition } from '../../../../engine/graph/types.js';

const ctx = {
  call: {
    fields: { callback_time: '2026-12-01T10:00:00Z', score: '8', blank: '  ', zero: 0, confirmed: true },
    duration: 42,
    disposition: 'CALLBACK',
  },
  contact: { tags: ['new-lead', 'vip'], firstName: 'Ana', email: null, phone: '+15125550100', notes: [] },
};
const ev = (c: Condition) => evaluateCondition(c, ctx);

describe('resolvePath', () => {
  it('walks dotted paths, array indexes and {key, value} pairs', () => {
    expect(resolvePath(ctx, 'call.fields.score')).toBe('8');
    expect(resolvePath(ctx, 'contact.tags.1')).toBe('vip');
    expect(resolvePath({ call: { fields: [{ key: 'a', value: 1 }] } }, 'call.fields.a')).toBe(1);
    expect(resolvePath(ctx, 'call.nothing.here')).toBeUndefined();
    expect(resolvePath(ctx, 'contact.firstName.length')).toBeUndefined();
    expect(resolvePath({}, 'constructor')).toBeUndefined();
  });
});

describe('evaluateCondition', () => {
  it('exists / not_exists treat null, blank text and empty arrays as absent', () => {
    expect(ev({ field: 'call.fields.callback_time', op: 'exists' })).toBe(true);
    expect(ev({ field: 'call.fields.missing', op: 'exists' })).toBe(false);
    expect(ev({ field: 'call.fields.blank', op: 'exists' })).toBe(false);
    expect(ev({ field: 'contact.email', op: 'exists' })).toBe(false);
    expect(ev({ field: 'contact.notes', op: 'not_exists' })).toBe(true);
    expect(ev({ field: 'call.fields.zero', op: 'exists' })).toBe(true);
  });
  it('eq / neq: case-sensitive text, numbers vs numeric text, booleans vs their text', () => {
    expect(ev({ field: 'call.disposition', op: 'eq', value: 'CALLBACK' })).toBe(true);
    expect(ev({ field: 'call.disposition', op: 'eq', value: 'callback' })).toBe(false);
    expect(ev({ field: 'call.fields.score', op: 'eq', value: 8 })).toBe(true);
    expect(ev({ field: 'call.duration', op: 'eq', value: '42.0' })).toBe(true);
    expect(ev({ field: 'call.fields.confirmed', op: 'eq', value: 'true' })).toBe(true);
    expect(ev({ field: 'call.fields.confirmed', op: 'eq', value: 1 })).toBe(false);
    expect(ev({ field: 'contact.phone', op: 'eq', value: '15125550100' })).toBe(false);
    expect(ev({ field: 'call.fields.missing', op: 'eq', value: null })).toBe(false);
    expect(ev({ field: 'call.disposition', op: 'neq', value: 'VOICEMAIL' })).toBe(true);
    expect(ev({ field: 'call.fields.missing', op: 'neq', value: 'x' })).toBe(true);
    expect(ev({ field: 'contact.tags', op: 'eq', value: ['new-lead', 'vip'] })).toBe(true);
  });
  it('contains / not_contains on text and arrays', () => {
    expect(ev({ field: 'contact.tags', op: 'contains', value: 'vip' })).toBe(true);
    expect(ev({ field: 'contact.tags', op: 'contains', value: 'VIP' })).toBe(false);
    expect(ev({ field: 'call.fields.callback_time', op: 'contains', value: '2026-12' })).toBe(true);
    expect(ev({ field: 'call.duration', op: 'contains', value: '4' })).toBe(false);
    expect(ev({ field: 'contact.tags', op: 'not_contains', value: 'do-not-call' })).toBe(true);
    expect(ev({ field: 'call.fields.missing', op: 'not_contains', value: 'x' })).toBe(true);
    expect(ev({ field: 'call.fields.missing', op: 'contains', value: 'x' })).toBe(false);
  });
  it('in: the field (or any element of an array field) is one of the values', () => {
    expect(ev({ field: 'call.disposition', op: 'in', value: ['CALLBACK', 'VOICEMAIL'] })).toBe(true);
    expect(ev({ field: 'call.disposition', op: 'in', value: ['SUCCESS'] })).toBe(false);
    expect(ev({ field: 'contact.tags', op: 'in', value: ['vip', 'x'] })).toBe(true);
    expect(ev({ field: 'call.fields.score', op: 'in', value: [7, 8] })).toBe(true);
    expect(ev({ field: 'call.fields.missing', op: 'in', value: [null] })).toBe(false);
    expect(ev({ field: 'call.disposition', op: 'in', value: 'CALLBACK' })).toBe(false);
  });
  it('gt gte lt lte compare numbers, coercing numeric text; anything else is false', () => {
    expect(ev({ field: 'call.duration', op: 'gt', value: 30 })).toBe(true);
    expect(ev({ field: 'call.duration', op: 'gte', value: '42' })).toBe(true);
    expect(ev({ field: 'call.duration', op: 'lt', value: 42 })).toBe(false);
    expect(ev({ field: 'call.fields.score', op: 'lte', value: 8 })).toBe(true);
    expect(ev({ field: 'call.fields.score', op: 'gt', value: 10 })).toBe(false);
    expect(ev({ field: 'contact.firstName', op: 'gt', value: 1 })).toBe(false);
    expect(ev({ field: 'call.fields.missing', op: 'lt', value: 1 })).toBe(false);
  });
});

describe('evaluateIf / selectSwitchCase', () => {
  const has = { field: 'call.fields.callback_time', op: 'exists' } as const;
  const no = { field: 'call.fields.nope', op: 'exists' } as const;
  it('match all needs every condition, match any one of them', () => {
    expect(evaluateIf({ match: 'all', conditions: [has, no] }, ctx)).toBe(false);
    expect(evaluateIf({ match: 'any', conditions: [has, no] }, ctx)).toBe(true);
    expect(evaluateIf({ match: 'all', conditions: [has] }, ctx)).toBe(true);
  });
  it('a draft if is false', () => {
    expect(evaluateIf({}, ctx)).toBe(false);
  });
  it('the first matching case wins, else default', () => {
    const config = {
      cases: [
        { id: 'a', label: 'A', match: 'all' as const, conditions: [no] },
        { id: 'b', label: 'B', match: 'any' as const, conditions: [no, has] },
        { id: 'c', label: 'C', match: 'all' as const, conditions: [has] },
      ],
    };
    expect(selectSwitchCase(config, ctx)).toBe('b');
    expect(selectSwitchCase({ cases: [config.cases[0]!] }, ctx)).toBe('default');
    expect(selectSwitchCase({}, ctx)).toBe('default');
  });
});

describe('describeCondition', () => {
  it('puts a condition in words', () => {
    expect(describeCondition({ field: 'call.fields.callback_time', op: 'exists' })).toBe('call.fields.callback_time exists');
    expect(describeCondition({ field: 'x', op: 'not_exists' })).toBe('x does not exist');
    expect(describeCondition({ field: 'call.disposition', op: 'eq', value: 'SUCCESS' })).toBe('call.disposition is "SUCCESS"');
    expect(describeCondition({ field: 'call.duration', op: 'gte', value: 30 })).toBe('call.duration is at least 30');
    expect(describeCondition({ field: 'contact.tags', op: 'in', value: ['a', 'b'] })).toBe('contact.tags is one of "a", "b"');
    expect(describeCondition({ field: 'contact.tags', op: 'not_contains', value: 'x' })).toBe('contact.tags does not contain "x"');
  });
  it('joins with and / or', () => {
    const a = { field: 'a', op: 'exists' } as const;
    const b = { field: 'b', op: 'lt', value: 2 } as const;
    expect(describeConditions('all', [a, b])).toBe('a exists and b is less than 2');
    expect(describeConditions('any', [a, b])).toBe('a exists or b is less than 2');
    expect(describeConditions(undefined, [])).toBe('never');
  });
});
