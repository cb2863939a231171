import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError } from '../../engine/ports.js';
import { classifyResponse, parseRetryAfter, secretsOf, vendorHttp, vendorMessageOf, VendorRefusedError } from '../../server/adapters/vendor-http.js';

/** vendor-http against a real server whose answers each test picks by path. */

const TOKEN = 'tok_9d8c7b6a5f4e3d2c1b0a';
let server: http.Server;
let base: string;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = req.url!.split('?')[0]!;
      const json = (status: number, b: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(b));
      };
      const m = /^\/status\/(\d+)$/.exec(path);
      if (path === '/echo') return json(200, { ok: true });
      if (path === '/empty') return res.writeHead(204).end();
      if (path === '/never') return; // no answer at all
      if (path === '/stall') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"partial":');
        return; // the body never ends
      }
      if (path === '/html500') return res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>');
      if (path === '/echo-token') return json(400, { message: `rejected header ${req.headers.authorization}` });
      if (m) {
        const q = new URL(req.url!, 'http://x').searchParams;
        return json(Number(m[1]), { statusCode: Number(m[1]), message: q.get('msg') ?? 'nope' }, q.get('ra') ? { 'retry-after': q.get('ra')! } : {});
      }
      json(404, { message: 'no route' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const client = (timeoutMs = 2_000, extra: Partial<Parameters<typeof vendorHttp>[0]> = {}) =>
  vendorHttp({ vendor: 'acme', baseUrl: `${base}/`, auth: async () => ({ authorization: `Bearer ${TOKEN}` }), timeoutMs, ...extra });

async function failure(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (x: unknown) => x as Error,
  );
  expect(e.message).not.toContain(TOKEN);
  return e;
}

describe('vendorHttp requests', () => {
  it('sends JSON with auth, extra headers and a query without empty values', async () => {
    expect(await client().request({ method: 'POST', path: '/echo', query: { a: 'x y', b: 2, c: undefined, d: null, e: false }, headers: { Version: '2021-07-28' }, json: { tags: ['a'] } })).toEqual({ ok: true });
    const r = seen.at(-1)!;
    expect(r.url).toBe('/echo?a=x+y&b=2&e=false');
    expect(r.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, version: '2021-07-28', 'content-type': 'application/json', accept: 'application/json' });
    expect(JSON.parse(r.body)).toEqual({ tags: ['a'] });
  });

  it('sends a form body, leaving out absent fields', async () => {
    await client().request({ method: 'POST', path: '/echo', form: { To: '+15125550123', Body: 'a & b', From: undefined } });
    const r = seen.at(-1)!;
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(r.body).toBe('To=%2B15125550123&Body=a+%26+b');
  });

  it('an empty success is null', async () => {
    expect(await client().request({ method: 'DELETE', path: '/empty' })).toBeNull();
  });

  it('asks for the auth headers on every request (a refreshed token is used at once)', async () => {
    let n = 0;
    const c = vendorHttp({ vendor: 'acme', baseUrl: base, auth: async () => ({ authorization: `Bearer t${++n}-abcdefgh` }) });
    await c.request({ method: 'GET', path: '/echo' });
    await c.request({ method: 'GET', path: '/echo' });
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer t2-abcdefgh');
  });
});

describe('vendorHttp failures', () => {
  it('401 → CredentialRejectedError with the vendor\'s words', async () => {
    const e = await failure(client().request({ method: 'GET', path: '/status/401?msg=Invalid%20JWT' }));
    expect(e).toBeInstanceOf(CredentialRejectedError);
    expect(e.message).toBe('acme GET /status/401?msg=Invalid%20JWT → HTTP 401: acme rejected the credential: Invalid JWT');
  });

  it('403 about the token → CredentialRejectedError; 403 about something else → permanent', async () => {
    expect(await failure(client().request({ method: 'GET', path: '/status/403?msg=The%20token%20does%20not%20have%20the%20scope' }))).toBeInstanceOf(CredentialRejectedError);
    const e = await failure(client().request({ method: 'GET', path: '/status/403?msg=Feature%20not%20in%20plan' }));
    expect(e).toBeInstanceOf(VendorRefusedError);
    expect(e).not.toBeInstanceOf(CredentialRejectedError);
  });

  it('429 → RateLimitedError honouring Retry-After in seconds, as a date, or a default', async () => {
    expect(((await failure(client().request({ method: 'GET', path: '/status/429?ra=2' }))) as RateLimitedError).retryAfterMs).toBe(2000);
    const at = new Date(Date.now() + 30_000).toUTCString();
    const dated = (await failure(client().request({ method: 'GET', path: `/status/429?ra=${encodeURIComponent(at)}` }))) as RateLimitedError;
    expect(dated).toBeInstanceOf(RateLimitedError);
    expect(dated.retryAfterMs).toBeGreaterThan(25_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(((await failure(client(2_000, { defaultRetryAfterMs: 7_000 }).request({ method: 'GET', path: '/status/429' }))) as RateLimitedError).retryAfterMs).toBe(7000);
    expect(((await failure(client().request({ method: 'GET', path: '/status/429?ra=soon' }))) as RateLimitedError).retryAfterMs).toBe(5000);
  });

  it('5xx → a plain transient Error, HTML bodies left out', async () => {
    const e = await failure(client().request({ method: 'GET', path: '/status/503?msg=maintenance' }));
    expect(e).not.toBeInstanceOf(PermanentPortError);
    expect(e).not.toBeInstanceOf(RateLimitedError);
    expect(e.message).toBe('acme GET /status/503?msg=maintenance → HTTP 503: maintenance');
    expect((await failure(client().request({ method: 'GET', path: '/html500' }))).message).toBe('acme GET /html500 → HTTP 502');
  });

  it('other 4xx → PermanentPortError (VendorRefusedError) with the status and the vendor\'s message', async () => {
    const e = (await failure(client().request({ method: 'GET', path: '/status/404?msg=Contact%20not%20found' }))) as VendorRefusedError;
    expect(e).toBeInstanceOf(PermanentPortError);
    expect(e.status).toBe(404);
    expect(e.vendorMessage).toBe('Contact not found');
  });

  it('no answer in time → VendorTimeoutError, for a silent server and for a body that never ends', async () => {
    const t0 = Date.now();
    const e = await failure(client(200).request({ method: 'POST', path: '/never', json: {} }));
    expect(e).toBeInstanceOf(VendorTimeoutError);
    expect((e as VendorTimeoutError).timeoutMs).toBe(200);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await failure(client(200).request({ method: 'GET', path: '/stall' }))).toBeInstanceOf(VendorTimeoutError);
  });

  it('a refused connection → a plain transient Error', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const c = vendorHttp({ vendor: 'acme', baseUrl: `http://127.0.0.1:${port}`, auth: async () => ({ authorization: `Bearer ${TOKEN}` }) });
    const e = await failure(c.request({ method: 'GET', path: '/x' }));
    expect(e).not.toBeInstanceOf(PermanentPortError);
    expect(e.message).toMatch(/^acme GET \/x: network error: ECONNREFUSED/);
  });

  it('a vendor that echoes the credential has it scrubbed, Bearer and Basic alike', async () => {
    expect((await failure(client().request({ method: 'GET', path: '/echo-token' }))).message).toBe('acme GET /echo-token → HTTP 400: rejected header [redacted]');
    const basic = vendorHttp({ vendor: 'acme', baseUrl: base, auth: async () => ({ authorization: `Basic ${Buffer.from(`AC123:${TOKEN}`).toString('base64')}` }) });
    const e = await failure(basic.request({ method: 'GET', path: '/echo-token' }));
    expect(e.message).toBe('acme GET /echo-token → HTTP 400: rejected header [redacted]');
  });
});

describe('vendor-http pure parts', () => {
  it('parseRetryAfter reads seconds and HTTP-dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:10 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('later', now)).toBeNull();
  });

  it('vendorMessageOf takes the vendor\'s own explanation', () => {
    expect(vendorMessageOf('{"statusCode":422,"message":["name must be a string","status is invalid"]}')).toBe('name must be a string; status is invalid');
    expect(vendorMessageOf('{"error":{"message":"quota"}}')).toBe('quota');
    expect(vendorMessageOf('{"code":21211,"message":"Invalid To"}')).toBe('Invalid To (code 21211)');
    expect(vendorMessageOf('{"title":"Invalid request","validation":[{"message":"To is required"}]}')).toBe('Invalid request: To is required');
    expect(vendorMessageOf('plain words')).toBe('plain words');
    expect(vendorMessageOf('<html>x</html>')).toBeNull();
    expect(vendorMessageOf('')).toBeNull();
  });

  it('classifyResponse maps every status family', () => {
    const base = { vendor: 'v', what: 'v GET /x', retryAfter: null, body: '{}', now: 0, defaultRetryAfterMs: 1000 };
    expect(classifyResponse({ ...base, status: 401 })).toBeInstanceOf(CredentialRejectedError);
    expect(classifyResponse({ ...base, status: 429 })).toBeInstanceOf(RateLimitedError);
    expect(classifyResponse({ ...base, status: 400 })).toBeInstanceOf(VendorRefusedError);
    expect(classifyResponse({ ...base, status: 409 })).toBeInstanceOf(PermanentPortError);
    const e = classifyResponse({ ...base, status: 500 });
    expect(e).not.toBeInstanceOf(PermanentPortError);
    expect(e).not.toBeInstanceOf(RateLimitedError);
  });

  it('secretsOf covers the header value, the token and Basic auth\'s password, not the account id', () => {
    const s = secretsOf({ authorization: `Basic ${Buffer.from('AC0123456789:supersecretpw').toString('base64')}` });
    expect(s).toContain('supersecretpw');
    expect(s).toContain('AC0123456789:supersecretpw');
    expect(s).not.toContain('AC0123456789');
  });
});
