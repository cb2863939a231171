import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../server/temporal/launcher.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** One product process of a topology, as an operator runs it (`server/main.ts --role=...`). */
export interface ProductProcess {
  name: string;
  child: ChildProcess;
  /** what it printed (up to start-up only unless `keepOutput`) */
  out: string[];
  /** the API's origin (a server process) */
  url?: string;
  /** its own DATA_DIR, empty when it started */
  dataDir: string;
  /** Ends it with `signal` (SIGKILL: a crash; SIGTERM: a graceful stop) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `server/main.ts --role=<role>` with only PATH, HOME, a new empty DATA_DIR under `dir`,
 * a free port on loopback (a server) and `env` in its environment; resolves once it says it is
 * up (the API's address line, or the worker's "worker running"), rejects if it exits first.
 * `keepOutput`: keep everything it prints (a test reading its logs); otherwise only until it is
 * up, so a long benchmark does not hold every request's log line.
 */
export async function startProductProcess(opts: { name: string; role: 'server' | 'worker'; dir: string; env: Record<string, string>; keepOutput?: boolean }): Promise<ProductProcess> {
  const dataDir = fs.mkdtempSync(path.join(opts.dir, `${opts.name}-`));
  const port = opts.role === 'server' ? await freePort() : 0;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts'), `--role=${opts.role}`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: ProductProcess = {
    name: opts.name,
    child,
    out: [],
    dataDir,
    ...(opts.role === 'server' && { url: `http://127.0.0.1:${port}` }),
    async stop(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await gone;
    },
  };
  const ready = opts.role === 'server' ? 'API on http' : '"msg":"worker running"';
  let up = false;
  await new Promise<void>((resolve, reject) => {
    const take = (d: Buffer) => {
      if (up && !opts.keepOutput) return;
      proc.out.push(String(d));
      if (!up && proc.out.join('').includes(ready)) {
        up = true;
        resolve();
      }
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code) => reject(new Error(`${opts.name} exited (${code}) before it was up:\n${proc.out.join('').slice(-4000)}`)));
  });
  return proc;
}
