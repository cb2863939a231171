import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Prism (`prism mock`) serving vendor OpenAPI documents, for contract tests. A vendor whose API is
 * split across documents (GoHighLevel: one per app) gets one Prism per document behind a small
 * router on one port, so an adapter keeps its single base URL. The router records every exchange
 * with Prism's `sl-violations` header: a request that does not conform shows up there even where
 * the document's own 422 body says nothing useful.
 */

export interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

export interface Exchange {
  method: string;
  path: string;
  status: number;
  violations: Violation[];
}

export interface PrismMocks {
  url: string;
  exchanges: Exchange[];
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

function prismBin(): string {
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.prism!;
  return path.join(path.dirname(pkgPath), bin);
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

interface RunningPrism {
  port: number;
  child: ChildProcess;
}

/** Starts `prism mock` on a free port; resolves when Prism says it listens, rejects if it exits first. */
async function startPrism(document: string, readyTimeoutMs = 90_000): Promise<RunningPrism> {
  const port = await freePort();
  const child = spawn(process.execPath, [prismBin(), 'mock', '--host', '127.0.0.1', '--port', String(port), document], { stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4000);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`prism did not become ready for ${document} in ${readyTimeoutMs} ms:\n${tail}`));
    }, readyTimeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}) before listening for ${document}:\n${tail}`));
    };
    child.once('exit', onExit);
    child.stderr!.on('data', keep);
    child.stdout!.on('data', (d: Buffer) => {
      keep(d);
      if (tail.includes('Prism is listening on')) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve({ port, child });
      }
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await exited;
}

/** Prisms for `{ prefix → document }` (prefix `/` for a single document) behind one router. */
export async function startPrismMocks(routes: { prefix: string; document: string }[]): Promise<PrismMocks> {
  const settled = await Promise.allSettled(routes.map((r) => startPrism(r.document)));
  const running = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(running.map((p) => stopChild(p.child)));
    throw failed.reason;
  }
  const table = routes.map((r, i) => ({ prefix: r.prefix, port: running[i]!.port })).sort((a, b) => b.prefix.length - a.prefix.length);
  const exchanges: Exchange[] = [];

  const router = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const target = table.find((t) => t.prefix === '/' || url === t.prefix || url.startsWith(`${t.prefix}/`) || url.startsWith(`${t.prefix}?`));
    if (!target) {
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `no Prism serves ${url}` }));
      return;
    }
    const upstream = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: url, headers: { ...req.headers, host: `127.0.0.1:${target.port}` } }, (up) => {
      let violations: Violation[] = [];
      const header = up.headers['sl-violations'];
      if (typeof header === 'string') {
        try {
          violations = JSON.parse(header) as Violation[];
        } catch {
          violations = [{ location: ['?'], severity: 'Error', code: 'unparsed', message: header }];
        }
      }
      exchanges.push({ method: req.method ?? 'GET', path: url, status: up.statusCode ?? 0, violations });
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `prism unreachable: ${err.message}` }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => router.listen(0, '127.0.0.1', r));
  const { port } = router.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    async stop() {
      router.closeAllConnections();
      await new Promise<void>((r) => router.close(() => r()));
      await Promise.all(running.map((p) => stopChild(p.child)));
    },
  };
}

/** Violations Prism found in the request itself (its answer's schema problems are the vendor's). */
export const requestViolations = (x: Exchange) => x.violations.filter((v) => v.location[0] === 'request' && v.severity === 'Error');

/**
 * Runs one adapter call and fails, naming Prism's violations, if any request it made did not
 * conform to the document or was refused; otherwise returns the call's result (or its error).
 */
export async function conforming<T>(mocks: PrismMocks, call: () => Promise<T>): Promise<T> {
  const from = mocks.exchanges.length;
  let result: T | undefined;
  let error: unknown;
  try {
    result = await call();
  } catch (err) {
    error = err;
  }
  const seen = mocks.exchanges.slice(from);
  const bad = seen.filter((x) => x.status >= 400 || requestViolations(x).length > 0);
  if (bad.length) {
    const lines = bad.map((x) => `${x.method} ${x.path} → ${x.status}: ${requestViolations(x).map((v) => `${v.location.join('.')}: ${v.message}`).join('; ') || '(no violation header)'}`);
    const cause = error instanceof Error ? `\nadapter error: ${error.message}` : '';
    throw new Error(`request does not conform to the vendor document:\n${lines.join('\n')}${cause}`);
  }
  if (error) throw error;
  if (seen.length === 0) throw new Error('the call made no request to the mock');
  return result as T;
}
