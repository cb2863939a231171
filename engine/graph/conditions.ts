/**
 * Branch conditions, evaluated in workflow code (deterministic, no I/O) and described in words for
 * the digest.
 *
 * Semantics, for the record:
 * - `field` is a dotted path into the run context: `call.fields.<key>`, `call.duration`,
 *   `call.disposition`, `contact.tags`, `contact.<field>`. A numeric segment indexes an array;
 *   on an array of `{ key, value }` pairs (a call record's `fields`) a segment picks the pair's value.
 * - "present" means: not undefined/null, not blank text, not an empty array. `exists` and
 *   `not_exists` test that.
 * - `eq`/`neq` are case-sensitive and exact on text. A number and numeric text compare as numbers
 *   (`5` eq `"5.0"`), but two texts never do (`"007"` neq `"7"`: phone numbers, codes);
 *   booleans equal `"true"`/`"false"`; arrays and objects compare structurally.
 * - `contains`/`not_contains`: on text, case-sensitive substring; on an array, an element `eq` the value.
 * - `in`: the value is an array; true when the field `eq`s one of its elements (for an array field:
 *   when any of its elements does).
 * - `gt gte lt lte`: numeric; numeric text is coerced; anything else makes the comparison false.
 * - A missing field fails every test except `neq`, `not_contains` and `not_exists`.
 * - A draft (`{}`) `if` takes `false`; a draft `switch` takes `default`.
 */
import type { Condition, IfConfig, SwitchConfig } from './types.js';

type Match = 'all' | 'any' | undefined;

/** The value at a dotted path, or undefined. */
export function resolvePath(ctx: unknown, path: string): unknown {
  let cur: unknown = ctx;
  for (const seg of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (/^\d+$/.test(seg)) {
        cur = cur[Number(seg)];
        continue;
      }
      const pair = cur.find((x) => x !== null && typeof x === 'object' && (x as { key?: unknown }).key === seg) as { value?: unknown } | undefined;
      cur = pair?.value;
      continue;
    }
    cur = Object.prototype.hasOwnProperty.call(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return cur;
}

export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function isPresent(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.trim() !== '';
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** Equality as conditions use it (see the module comment). */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = toNumber(a);
    const y = toNumber(b);
    return x !== null && y !== null && x === y;
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') return String(a) === String(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => valuesEqual(v, b[i]));
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    return ka.length === kb.length && ka.every((k) => valuesEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual)) return actual.some((v) => valuesEqual(v, expected));
  if (typeof actual === 'string' && expected !== null && expected !== undefined && typeof expected !== 'object') {
    return actual.includes(String(expected));
  }
  return false;
}

function isIn(actual: unknown, list: unknown): boolean {
  if (!Array.isArray(list) || actual === undefined || actual === null) return false;
  if (Array.isArray(actual)) return actual.some((a) => list.some((v) => valuesEqual(a, v)));
  return list.some((v) => valuesEqual(actual, v));
}

function compare(op: 'gt' | 'gte' | 'lt' | 'lte', actual: unknown, expected: unknown): boolean {
  const a = toNumber(actual);
  const b = toNumber(expected);
  if (a === null || b === null) return false;
  switch (op) {
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
  }
}

/** One condition against the run context `{ call: { fields, duration, disposition, ... }, contact: { tags, ... } }`. */
export function evaluateCondition(cond: Condition, ctx: unknown): boolean {
  const actual = resolvePath(ctx, cond.field);
  const expected = cond.value;
  switch (cond.op) {
    case 'exists':
      return isPresent(actual);
    case 'not_exists':
      return !isPresent(actual);
    case 'eq':
      return valuesEqual(actual, expected);
    case 'neq':
      return !valuesEqual(actual, expected);
    case 'contains':
      return contains(actual, expected);
    case 'not_contains':
      return !contains(actual, expected);
    case 'in':
      return isIn(actual, expected);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compare(cond.op, actual, expected);
    default:
      return false;
  }
}

function matches(match: Match, conditions: readonly Condition[] | undefined, ctx: unknown): boolean {
  if (!conditions || conditions.length === 0) return false;
  return match === 'any' ? conditions.some((c) => evaluateCondition(c, ctx)) : conditions.every((c) => evaluateCondition(c, ctx));
}

/** An `if` node: its conditions (all of them, or any). A draft or condition-less `if` is false. */
export function evaluateIf(config: Partial<IfConfig>, ctx: unknown): boolean {
  return matches(config.match, config.conditions, ctx);
}

/** A `switch` node: the id of the first case whose conditions match, else `default`. */
export function selectSwitchCase(config: Partial<SwitchConfig>, ctx: unknown): string {
  for (const c of config.cases ?? []) if (matches(c.match ?? config.match, c.conditions, ctx)) return c.id;
  return 'default';
}

const OP_WORDS: Record<Condition['op'], string> = {
  eq: 'is',
  neq: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  exists: 'exists',
  not_exists: 'does not exist',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  in: 'is one of',
};

const show = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v) ?? 'nothing');

/** In words, for the digest: `call.fields.callback_time exists`, `call.duration is at least 30`. */
export function describeCondition(cond: Condition): string {
  const words = OP_WORDS[cond.op] ?? cond.op;
  if (cond.op === 'exists' || cond.op === 'not_exists') return `${cond.field} ${words}`;
  const value = cond.op === 'in' && Array.isArray(cond.value) ? cond.value.map(show).join(', ') : show(cond.value);
  return `${cond.field} ${words} ${value}`;
}

/** Several conditions joined with `and` (match all) or `or` (match any); `never` when there are none. */
export function describeConditions(match: Match, conditions: readonly Condition[] | undefined): string {
  if (!conditions || conditions.length === 0) return 'never';
  return conditions.map(describeCondition).join(match === 'any' ? ' or ' : ' and ');
}
