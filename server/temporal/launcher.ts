import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';

/** Where `npm run setup` builds the Temporal CLI: inside the project, git-ignored. */
export const PROJECT_CLI = path.resolve(import.meta.dirname, '../../.tools/bin/temporal');
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** TEMPORAL_CLI, then `temporal` on PATH, then the project-local build. */
export function findTemporalCli(explicit = process.env.TEMPORAL_CLI): string {
  if (explicit) {
    if (!fs.existsSync(explicit)) throw new Error(`TEMPORAL_CLI points at ${explicit}, which does not exist`);
    return explicit;
  }
  const found = onPath('temporal') ?? (fs.existsSync(PROJECT_CLI) ? PROJECT_CLI : undefined);
  if (!found) {
    throw new Error(
      'no Temporal CLI found: set TEMPORAL_CLI, put `temporal` on PATH, or run `npm run setup` to build it into .tools/bin',
    );
  }
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  cli?: string;
  /** persist to this SQLite file; omitted: in memory */
  dbFile?: string;
  port?: number;
  /** null: headless */
  uiPort?: number | null;
  readyTimeoutMs?: number;
  onLog?: (line: string) => void;
}

/**
 * Starts `temporal server start-dev` on loopback and resolves once its frontend answers. On free
 * ports chosen here, a server that exits while starting is started again (twice at most): a port
 * found free can be taken by another process before the server binds it, and the dev server also
 * binds ports of its own choosing.
 */
export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServer> {
  const attempts = opts.port === undefined && typeof opts.uiPort !== 'number' ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(opts);
    } catch (err) {
      if (!(err instanceof DevServerExited) || attempt >= attempts) throw err;
      opts.onLog?.(`temporal dev server exited while starting (attempt ${attempt} of ${attempts}); starting it again`);
    }
  }
}

class DevServerExited extends Error {}

async function startOnce(opts: DevServerOptions): Promise<DevServer> {
  const cli = opts.cli ?? findTemporalCli();
  const port = opts.port ?? (await freePort());
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn', '--namespace', 'default'];
  // Eager dispatch (off by default in the server): a run's first workflow task comes back in the
  // start response to a worker sharing the client's connection, and an activity scheduled by a
  // completing workflow task goes straight to that worker's free slot; both skip a task-queue round
  // trip. Retries and other workers still go through the queues.
  args.push('--dynamic-config-value', 'system.enableEagerWorkflowStart=true', '--dynamic-config-value', 'system.enableActivityEagerExecution=true');
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile, '--sqlite-pragma', 'journal_mode=WAL', '--sqlite-pragma', 'synchronous=NORMAL');
  }
  let uiUrl: string | null = null;
  if (opts.uiPort === null) args.push('--headless');
  else {
    const uiPort = opts.uiPort ?? (await freePort());
    args.push('--ui-ip', '127.0.0.1', '--ui-port', String(uiPort));
    uiUrl = `http://127.0.0.1:${uiPort}`;
  }
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // The first lines say why it stopped (a Go panic's message); the last, where.
  const head: string[] = [];
  const tail: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      if (head.length < 10) head.push(line);
      tail.push(line);
      if (tail.length > 50) tail.shift();
      opts.onLog?.(line);
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));

  const address = `127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exited !== null) throw new DevServerExited(`temporal dev server exited with ${exited}:\n${[...head, '...', ...tail].join('\n')}`);
    try {
      const conn = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await conn.workflowService.describeNamespace({ namespace: 'default' });
        break;
      } finally {
        await conn.close();
      }
    } catch (err) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`temporal dev server did not become ready on ${address}: ${(err as Error).message}\n${tail.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    uiUrl,
    process: child,
    async stop() {
      if (exited !== null) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(timer);
    },
  };
}
