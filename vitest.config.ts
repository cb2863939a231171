import { defineConfig } from 'vitest/config';
import { nodeConfigValidators } from './editor/validators-plugin.js';

export default defineConfig({
  // The editor's model tests import its build-time validators module.
  plugins: [nodeConfigValidators()],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Two cores: two test files at a time, each with its own store, worker and task queue.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
