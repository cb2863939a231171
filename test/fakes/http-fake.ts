import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The plumbing under the stateful vendor fakes: a real node:http server with a small router, a log
 * of every request, and fault injection. Faults answer before the route runs (the vendor refused:
 * no effect), except `hang`, which lets the route act and then withholds the answer, as a vendor
 * whose response is lost after it did the work.
 */

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** parsed JSON, or the form fields, or null */
  body: unknown;
  rawBody: string;
  /** when the fake received it (ms since the epoch) */
  receivedAt: number;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (req: FakeRequest, params: Record<string, string>) => FakeResponse;

export interface Route {
  method: string;
  /** `/contacts/:contactId/tags`; a trailing slash is significant, as at the vendor */
  path: string;
  handler: Handler;
}

export type Fault =
  | { kind: 'status'; status: number; message?: string; retryAfter?: string }
  /** the route acts, then the answer never comes (the client's timeout fires) */
  | { kind: 'hang' }
  /** the route acts, and its answer waits until `until` settles (a slow vendor a test controls) */
  | { kind: 'hold'; until: Promise<unknown> };

interface ArmedFault {
  method?: string;
  path: RegExp;
  remaining: number;
  fault: Fault;
}

export interface HttpFakeOptions {
  routes: Route[];
  /** null when the request may go on; else the vendor's refusal (bad token, wrong version) */
  gate: (req: FakeRequest) => FakeResponse | null;
  /** the vendor's error body for a status and message */
  errorBody: (status: number, message: string) => unknown;
}

export interface HttpFake {
  url: string;
  requests: FakeRequest[];
  /** the next `times` requests whose path matches (and method, if given) meet the fault */
  inject(f: { method?: string; path: RegExp | string; times?: number } & Fault): void;
  /** resolves with the next request whose path matches (and method, if given), once received */
  received(f: { method?: string; path: RegExp | string }): Promise<FakeRequest>;
  close(): Promise<void>;
}

export async function startHttpFake(opts: HttpFakeOptions): Promise<HttpFake> {
  const compiled = opts.routes.map((r) => ({ ...r, re: new RegExp(`^${r.path.replace(/:[A-Za-z]+/g, '([^/]+)')}$`), names: [...r.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!) }));
  const requests: FakeRequest[] = [];
  const faults: ArmedFault[] = [];
  const held = new Set<http.ServerResponse>();
  const waiters: { method?: string; path: RegExp; resolve: (r: FakeRequest) => void }[] = [];
  const pattern = (path: RegExp | string) => (typeof path === 'string' ? new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : path);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['content-type'] ?? '';
      let body: unknown = null;
      if (rawBody && type.includes('json')) body = JSON.parse(rawBody);
      else if (rawBody && type.includes('x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(rawBody));
      const fr: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, rawBody, receivedAt: Date.now() };
      requests.push(fr);
      for (const w of waiters.filter((w) => (!w.method || w.method === fr.method) && w.path.test(fr.path))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(fr);
      }
      const send = (r: FakeResponse) => {
        const payload = r.body === undefined ? '' : JSON.stringify(r.body);
        res.writeHead(r.status, { ...(payload && { 'content-type': 'application/json' }), ...r.headers });
        res.end(payload);
      };

      const armed = faults.find((f) => f.remaining > 0 && (!f.method || f.method === fr.method) && f.path.test(fr.path));
      if (armed) armed.remaining--;
      if (armed?.fault.kind === 'status') {
        const f = armed.fault;
        send({ status: f.status, body: opts.errorBody(f.status, f.message ?? http.STATUS_CODES[f.status] ?? 'error'), headers: f.retryAfter ? { 'retry-after': f.retryAfter } : {} });
        return;
      }
      const refused = opts.gate(fr);
      if (refused) return send(refused);
      const route = compiled.find((r) => r.method === fr.method && r.re.test(fr.path));
      if (!route) return send({ status: 404, body: opts.errorBody(404, `no route ${fr.method} ${fr.path}`) });
      const m = route.re.exec(fr.path)!;
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
      let answer: FakeResponse;
      try {
        answer = route.handler(fr, params);
      } catch (err) {
        answer = { status: 500, body: opts.errorBody(500, String(err)) };
      }
      if (armed?.fault.kind === 'hold') {
        const release = () => {
          if (!res.destroyed) send(answer);
        };
        held.add(res);
        res.on('close', () => held.delete(res));
        armed.fault.until.then(release, release);
        return;
      }
      if (armed?.fault.kind === 'hang') {
        // The effect happened; the answer is held until the client gives up and closes.
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      send(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject(f) {
      const { method, path, times, ...fault } = f;
      faults.push({ method, path: pattern(path), remaining: times ?? 1, fault: fault as Fault });
    },
    received(f) {
      return new Promise((resolve) => waiters.push({ method: f.method, path: pattern(f.path), resolve }));
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let counter = 0;
/** A vendor-looking id (20 alphanumerics, like GoHighLevel's). */
export function fakeId(prefix = ''): string {
  counter++;
  const rand = Math.random().toString(36).slice(2, 12).padEnd(10, '0');
  return (prefix + counter.toString(36) + rand + 'x'.repeat(20)).slice(0, 20);
}
