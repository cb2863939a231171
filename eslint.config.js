// Determinism is enforced by lint, not by memory (Temporal's samples do the same): workflow code
// may not reach Node built-ins, the store, ajv or the server, and may not drop a promise.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

export default tseslint.config({
  files: ['engine/workflows/**/*.ts'],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  rules: {
    '@typescript-eslint/no-floating-promises': 'error',
    'no-restricted-imports': [
      'error',
      {
        paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'better-sqlite3', 'ajv', 'luxon/src/settings'].map((name) => ({
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
});
