import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_WORKFLOW_MODULES } from '../../../server/temporal/worker.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** Every module a file pulls in through relative imports (type-only imports leave no code), with the packages it names. */
function closure(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => path.relative(root, f)), packages: [...packages] };
}

// Shared modules are evaluated once per worker thread and seen by every run (server/temporal/worker.ts):
// only pure code may be among them, never the workflow API, whose state is per run.
describe('the workflow modules shared between runs', () => {
  it('are pure engine code and luxon: no Temporal API, no I/O', () => {
    for (const entry of SHARED_WORKFLOW_MODULES) {
      expect(fs.existsSync(entry), entry).toBe(true);
      const { files, packages } = closure(entry);
      for (const f of files) expect(f, `${entry} pulls in ${f}`).toMatch(/^(engine\/(graph|cadence|workflows\/lead-cadence-plan)|engine\/memo|schemas\/)/);
      expect(packages.filter((p) => p !== 'luxon'), `${entry} imports`).toEqual([]);
    }
  });
});
