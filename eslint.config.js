// Two kinds of rule, both run by the suite (test/unit/lint.test.ts):
// - Determinism is enforced by lint, not by memory (Temporal's samples do the same): workflow code
//   may not reach Node built-ins, the store, ajv or the server, and may not drop a promise.
// - The layers (docs/architecture.md): engine knows nothing of the server; routes call the domain,
//   the domain calls the store's port; nothing under store or domain knows HTTP; adapters import no
//   route; no import cycles anywhere; no database driver outside server/store (SQL lives there).
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const layer = (target, from, message, except) => ({ target, from, message, ...(except && { except }) });

export default tseslint.config(
  {
    files: ['engine/workflows/**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'better-sqlite3', 'pg', 'ajv', 'luxon/src/settings'].map((name) => ({
            name,
            message: 'workflow code must be deterministic: no Node built-ins, store or validator',
          })),
          patterns: [
            { group: ['**/server/**', '../../server/*'], message: 'workflow code must not import the server' },
            { group: ['**/engine/graph/index*', '**/graph/index.js', '**/graph/validate*'], message: 'import engine/graph/runtime.js: the index brings in ajv' },
            { group: ['**/activities/*'], importNamePattern: '^(?!type)', allowTypeImports: true, message: 'import activity types only (import type)' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'setTimeout', message: 'use sleep() from @temporalio/workflow' }, { name: 'setInterval', message: 'not in workflows' }],
    },
  },
  {
    files: ['engine/**/*.ts', 'server/**/*.ts', 'schemas/**/*.ts'],
    extends: [tseslint.configs.base],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The store's port is asynchronous: a call not awaited, or a promise tested for truth, is a bug.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            layer('./engine', './server', 'engine/ is the pure core and its ports: it imports nothing from server/'),
            layer('./schemas', './server', 'schemas/ are data shapes: they import nothing from server/'),
            layer('./schemas', './engine', 'schemas/ are data shapes: they import nothing from engine/'),
            layer('./server/routes', './server/routes', 'a route file declares routes and calls the domain: shared logic belongs in server/domain (or server/http for HTTP helpers)'),
            layer('./server/routes', './server/store', 'routes reach the store through the domain; record types come from server/store/index.ts', ['./index.ts']),
            layer('./server/domain', './server/routes', 'the domain knows no routes'),
            layer('./server/domain', './server/http', 'the domain knows no HTTP: throw a DomainError, server/http maps it'),
            layer('./server/domain', './server/store', 'the domain uses the store port (server/store/index.ts), not an implementation', ['./index.ts']),
            layer('./server/store', './server/routes', 'the store knows no routes'),
            layer('./server/store', './server/http', 'the store knows no HTTP'),
            layer('./server/store', './server/domain', 'the store is below the domain'),
            layer('./server/adapters', './server/routes', 'adapters import no routes: shared logic belongs in server/domain or the port'),
          ],
        },
      ],
    },
  },
  {
    // SQL and transactions live under server/store: no other server or engine module may reach a
    // database driver (workflow code has its own, stricter list above).
    files: ['server/**/*.ts', 'engine/**/*.ts'],
    ignores: ['server/store/**', 'engine/workflows/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['better-sqlite3', 'pg', 'pg-pool'].map((name) => ({ name, message: 'SQL lives under server/store: call a repository of the port (server/store/index.ts)' })),
          patterns: [{ group: ['pg/*'], message: 'SQL lives under server/store: call a repository of the port (server/store/index.ts)' }],
        },
      ],
    },
  },
  {
    // Tests, benchmarks and scripts call the same asynchronous port: the same three promise rules.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
