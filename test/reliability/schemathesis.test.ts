import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

/** schemathesis (PyPI) against GET /api/openapi.json: no 5xx and conforming responses for every operation. */
describe('schemathesis', () => {
  it('finds no server error and no non-conforming response', async () => {
    const examples = process.env.SCHEMATHESIS_EXAMPLES ?? '5';
    const { stdout } = await run('bash', [path.join(root, 'scripts/schemathesis.sh'), examples], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }).catch((err) => {
      throw new Error(`schemathesis failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const m = /(\d+) generated, (\d+) passed/.exec(stdout);
    expect(m, stdout.slice(-2000)).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(100);
    expect(m![2]).toBe(m![1]);
  }, 600_000);
});
