import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as runtime from '../../../../engine/graph/runtime.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Every module `file` imports at run time (type-only imports erased), transitively. */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) {
    const spec = m[2]!;
    if (spec.startsWith('.')) closure(resolve(dirname(file), spec.replace(/\.js$/, '.ts')), seen);
    else seen.add(spec);
  }
  return seen;
}

describe('engine/graph/runtime.ts (what Temporal workflow code may import)', () => {
  it('pulls in no ajv, no Node built-ins, no layout library and nothing outside engine/graph and schemas', () => {
    const deps = [...closure(resolve(root, 'engine/graph/runtime.ts'))];
    const external = deps.filter((d) => !d.startsWith('/'));
    expect(external).toEqual([]);
    for (const d of deps) expect(d.startsWith(resolve(root, 'engine/graph')) || d.startsWith(resolve(root, 'schemas'))).toBe(true);
    expect(deps.some((d) => d.endsWith('validate.ts'))).toBe(false);
  });
  it('the workflow-facing modules (walk, conditions, outcomes, types) stay pure too', () => {
    for (const f of ['walk.ts', 'conditions.ts', 'outcomes.ts', 'types.ts']) {
      const deps = [...closure(resolve(root, 'engine/graph', f))];
      expect(deps.filter((d) => !d.startsWith('/'))).toEqual([]);
    }
  });
  it('exports the walking and evaluation API', () => {
    expect(typeof runtime.entryOf).toBe('function');
    expect(typeof runtime.nextStep).toBe('function');
    expect(typeof runtime.evaluateIf).toBe('function');
    expect(typeof runtime.selectSwitchCase).toBe('function');
  });
});
