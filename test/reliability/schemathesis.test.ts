import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** schemathesis (PyPI) against GET /api/openapi.json: every check, the four phases (examples, coverage, fuzzing, stateful), no failure. */
describe('schemathesis', () => {
  it('passes every check in all four phases', async () => {
    const examples = process.env.SCHEMATHESIS_EXAMPLES ?? '5';
    const { stdout } = await run('bash', [path.join(root, 'scripts/schemathesis.sh'), examples], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }).catch((err) => {
      throw new Error(`schemathesis failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    // Two runs (scripts/schemathesis.sh): every check on every operation but the few listed there,
    // then those with every check but positive_data_acceptance. Each must pass every case.
    const runs = [...stdout.matchAll(/(\d+) generated, (\d+) passed/g)];
    expect(runs, stdout.slice(-3000)).toHaveLength(2);
    for (const [, generated, passed] of runs) expect(passed).toBe(generated);
    expect(Number(runs[0]![1])).toBeGreaterThan(500);
    expect(stdout).toContain('Stateful');
  }, 600_000);
});
