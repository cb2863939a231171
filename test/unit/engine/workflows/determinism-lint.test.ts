import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');

/** The workflow code's determinism rules (eslint.config.js) hold over engine/workflows. */
describe('engine/workflows lint', () => {
  it('has no Node built-ins, store, validator or server imports and no floating promises', async () => {
    const eslint = new ESLint({ cwd: root });
    const results = await eslint.lintFiles(['engine/workflows/**/*.ts']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(results.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it('the rules do fire on a forbidden import', async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText("import fs from 'node:fs';\nexport const x = fs;\n", { filePath: path.join(root, 'engine/workflows/post-call-types.ts') });
    expect(result!.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
  });
});
