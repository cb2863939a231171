import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { Worker } from '@temporalio/worker';

const dir = path.resolve(import.meta.dirname, '../fixtures/histories');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

/**
 * Histories recorded from earlier versions of the workflow code (scripts/record-histories.ts) must
 * replay on the current code. A change that would break runs in flight fails here unless it is
 * guarded with `patched`.
 */
describe('workflow code replays every recorded history (post-call and lead cadence)', () => {
  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  it.each(files)('%s', async (file) => {
    const history = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    await expect(Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history, file)).resolves.toBeUndefined();
  });
});
