/**
 * The layer rules and the promise rules (eslint.config.js) hold over the whole codebase, and each
 * layer rule fails on a deliberate violation: an import a newcomer might write, linted as if it
 * were in the file it names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The messages of one rule when `file` is linted with `extra` added at its top. */
async function violations(file: string, extra: string, rule: string): Promise<string[]> {
  const text = `${extra}\n${fs.readFileSync(path.join(root, file), 'utf8')}`;
  const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('lint', () => {
  it('engine, server, schemas, tests, benchmarks and scripts pass every rule', async () => {
    const results = await eslint.lintFiles(['engine', 'server', 'schemas', 'test', 'bench', 'scripts']);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
    expect(results.length).toBeGreaterThan(200);
  }, 120_000);

  it.each([
    ['a route importing another route', 'server/routes/agents.ts', "import { projectRoutes } from './projects.js';\nvoid projectRoutes;", 'import-x/no-restricted-paths'],
    ['a route reaching a store implementation', 'server/routes/agents.ts', "import { agentsRepo } from '../store/sqlite/agents.js';\nvoid agentsRepo;", 'import-x/no-restricted-paths'],
    ['the domain knowing HTTP', 'server/domain/agents.ts', "import { AppError } from '../http/errors.js';\nvoid AppError;", 'import-x/no-restricted-paths'],
    ['the domain reaching a store implementation', 'server/domain/agents.ts', "import { openSqliteStore } from '../store/sqlite/store.js';\nvoid openSqliteStore;", 'import-x/no-restricted-paths'],
    ['the store knowing HTTP', 'server/store/sqlite/agents.ts', "import { AppError } from '../../http/errors.js';\nvoid AppError;", 'import-x/no-restricted-paths'],
    ['an adapter importing a route', 'server/adapters/embedded-crm.ts', "import { agentRoutes } from '../routes/agents.js';\nvoid agentRoutes;", 'import-x/no-restricted-paths'],
    ['the engine importing the server', 'engine/graph/walk.ts', "import { loadConfig } from '../../server/config.js';\nvoid loadConfig;", 'import-x/no-restricted-paths'],
    ['an adapter reaching SQLite itself', 'server/adapters/embedded-crm.ts', "import Database from 'better-sqlite3';\nvoid Database;", 'no-restricted-imports'],
    ['the domain reaching Postgres itself', 'server/domain/agents.ts', "import pg from 'pg';\nvoid pg;", 'no-restricted-imports'],
    ['an import cycle', 'server/domain/errors.ts', "import { loadProject } from './projects.js';\nvoid loadProject;", 'import-x/no-cycle'],
  ])('%s fails the lint', async (_what, file, extra, rule) => {
    expect(await violations(file, extra, rule)).not.toEqual([]);
  }, 60_000);

  it('a store call not awaited fails the lint', async () => {
    const extra = "import type { Store } from '../store/index.js';\nexport function forgetful(store: Store) {\n  store.leads.remove('a', 'b');\n}";
    expect(await violations('server/domain/agents.ts', extra, '@typescript-eslint/no-floating-promises')).not.toEqual([]);
  }, 60_000);
});
