/**
 * A process on a shared store (DATABASE_URL) refuses to start on settings that would make it keep
 * shared truth on its own machine: its own sealing key, its own embedded Temporal, a worker with no
 * API to report sandbox call ends to. The last case starts the real entry point.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig, sharedStoreProblems } from '../../../server/config.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const KEY = 'a'.repeat(64);

describe('sharedStoreProblems', () => {
  it('nothing without DATABASE_URL: one machine keeps its own key and Temporal', () => {
    expect(sharedStoreProblems(loadConfig({}), 'all')).toEqual([]);
  });

  it('with DATABASE_URL: the sealing key and a Temporal cluster, for every role', () => {
    const problems = sharedStoreProblems(loadConfig({ DATABASE_URL: 'postgres://db/voice' }), 'server');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^CREDENTIALS_KEY is required with DATABASE_URL/);
    expect(problems[1]).toMatch(/^TEMPORAL_ADDRESS is required with DATABASE_URL/);
  });

  it('a worker also needs where the APIs are; API_URL or PUBLIC_URL will do', () => {
    const base = { DATABASE_URL: 'postgres://db/voice', CREDENTIALS_KEY: KEY, TEMPORAL_ADDRESS: 'temporal:7233' };
    expect(sharedStoreProblems(loadConfig(base), 'server')).toEqual([]);
    expect(sharedStoreProblems(loadConfig(base), 'worker')).toEqual([expect.stringMatching(/^API_URL \(or PUBLIC_URL\) is required for a worker/)]);
    expect(sharedStoreProblems(loadConfig({ ...base, API_URL: 'http://api-1:3000,http://api-2:3000' }), 'worker')).toEqual([]);
    expect(sharedStoreProblems(loadConfig({ ...base, PUBLIC_URL: 'https://voice.example.com' }), 'worker')).toEqual([]);
  });

  it('the process exits before it touches anything, naming each missing setting, and writes nothing to DATA_DIR', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-refuse-'));
    try {
      const started = run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts'), '--role=worker'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/voice' },
      });
      const failed = (await started.then(() => null, (e: unknown) => e)) as { code: number; stderr: string } | null;
      expect(failed?.code).toBe(1);
      expect(failed!.stderr).toMatch(/cannot start with a shared store:\n- CREDENTIALS_KEY is required[^\n]*\n- TEMPORAL_ADDRESS is required[^\n]*\n- API_URL \(or PUBLIC_URL\) is required/);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
