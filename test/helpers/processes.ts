import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Harness } from './harness.js';

export async function until(check: () => boolean | undefined | Promise<boolean | undefined>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** `npm run worker` as a real process against the test's store and task queue; resolves once it polls. */
export function startWorkerProcess(h: Harness, env: Record<string, string> = {}): Promise<ChildProcess> {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts'), '--role=worker'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: h.dir, TEMPORAL_ADDRESS: h.temporalAddress, TEMPORAL_TASK_QUEUE: h.taskQueue, SANDBOX_CARRIER_LATENCY_MS: '1500', LOG_LEVEL: 'info', SEED_DEMO: 'false', OUTBOUND_ALLOW_PRIVATE: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker running')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${out}`)));
  });
}
