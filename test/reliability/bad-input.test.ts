/** Hostile and malformed requests: each a clean 4xx in the spec's envelope, never a 5xx or a stack trace. */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { errorEnvelopeViolation } from '../helpers/contract.js';
import { rowsOf } from '../helpers/state.js';

let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
beforeAll(async () => {
  h = await createHarness({ config: { rateLimitPoints: 1_000_000 } });
  ctx = await createProjectAgentCampaign(h);
});
afterAll(async () => h?.close());

interface Raw {
  status: number;
  text: string;
  json: any;
  headers: Headers;
  path: string;
  /** every stored row just before the request was sent */
  before: Stored;
}

type Stored = Record<string, unknown[]>;
/** Every row of every table: a refused request must leave all of them as they were. */
const stored = (): Stored => rowsOf(h.db, (h.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((t) => t.name));

/** Raw fetch: the harness's contract check would reject some of these on purpose-made paths. */
async function raw(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string>; duplex?: 'half' } = {}): Promise<Raw> {
  const before = stored();
  const res = await fetch(h.url + path, { method, body: init.body, headers: { authorization: `Bearer ${h.adminKey}`, ...(init.headers ?? {}) }, ...(init.duplex && { duplex: init.duplex }) } as RequestInit);
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, path, before, json: (() => { try { return JSON.parse(text); } catch { return null; } })() };
}

/**
 * A 4xx in the envelope of the path's family (spec 7, as test/helpers/contract.ts writes it out):
 * power-dialer paths `{success, error}` only; project 404s `{success, message}` only; everything
 * else `{success, error, message, code?}` with the status's error word. No stack. And nothing
 * stored changed: every row of every table is as it was before the request.
 */
function expectClean4xx(r: Raw, status?: number) {
  if (status) expect(r.status, r.text).toBe(status);
  expect(r.status, r.text).toBeGreaterThanOrEqual(400);
  expect(r.status, r.text).toBeLessThan(500);
  expect(r.headers.get('content-type'), r.text).toMatch(/application\/json/);
  expect(errorEnvelopeViolation(new URL(r.path, 'http://x').pathname, r.status, r.json), r.text).toBeNull();
  expect(r.text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules|SqliteError|SQLITE_/);
  expect(stored(), `${r.status} ${r.path.slice(0, 80)} changed stored state`).toEqual(r.before);
}

const json = { 'content-type': 'application/json' };
const append = () => `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`;
const tagBody = (tag: string) => JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: [tag] } }] });

/** A raw HTTP/1.1 request over one socket, for what fetch will not send (chunked bodies we control). */
function rawHttp(method: string, path: string, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders; before: Stored }> {
  const before = stored();
  return new Promise((resolve, reject) => {
    const u = new URL(h.url);
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers: { authorization: `Bearer ${h.adminKey}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers, before }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('bad input', () => {
  it('a body over 1 MB is 413, declared or chunked, and the connection stays usable', async () => {
    const big = JSON.stringify({ nodes: [{ type: 'add-note', config: { body: 'x'.repeat(1_200_000) } }] });
    expectClean4xx(await raw('POST', append(), { body: big, headers: json }), 413);
    // Chunked: no length up front, the limit trips mid-stream.
    const chunked = await rawHttp('POST', append(), { ...json, 'transfer-encoding': 'chunked' }, Array.from({ length: 20 }, () => Buffer.from('x'.repeat(64 * 1024))));
    expectClean4xx({ status: chunked.status, text: chunked.body, json: JSON.parse(chunked.body), headers: new Headers(chunked.headers as Record<string, string>), path: append(), before: chunked.before }, 413);
    expect(JSON.parse(chunked.body)).toMatchObject({ success: false, error: 'PayloadTooLarge' });
    // A compression bomb: 30 MB of zeros in 30 KB of gzip is cut off at 1 MB inflated.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"nodes":[{"type":"add-note","config":{"body":"'), Buffer.alloc(30_000_000, 0x30), Buffer.from('"}}]}')]));
    expect(bomb.length).toBeLessThan(100_000);
    expectClean4xx(await raw('POST', append(), { body: bomb, headers: { ...json, 'content-encoding': 'gzip' } }), 413);
    // Keep-alive connections are drained after an early refusal: the next requests are served.
    for (let i = 0; i < 3; i++) expect((await raw('GET', '/api/v2/projects')).status).toBe(200);
  });

  it('a corrupt compressed body is a 400, whatever the encoding', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const r = await raw('POST', append(), { body: tagBody('x'), headers: { ...json, 'content-encoding': encoding } });
      expectClean4xx(r, 400);
      expect(r.json.message).toContain('decompress');
    }
    expectClean4xx(await raw('POST', append(), { body: tagBody('x'), headers: { ...json, 'content-encoding': 'compress' } }), 415);
  });

  it('deeply nested JSON is refused with 400, not a crash', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expectClean4xx(await raw('POST', append(), { body: `{"nodes":${deep}}`, headers: json }), 400);
    const deepObj = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    expectClean4xx(await raw('PUT', `/api/v2/projects/${ctx.projectId}`, { body: deepObj, headers: json }), 400);
    // A wide but shallow body is fine: depth, not size, is what is limited here.
    const wide = await raw('PUT', `/api/v2/projects/${ctx.projectId}`, { body: JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, [i]]))), headers: json });
    expect(wide.status, wide.text).toBe(200);
  });

  it('wrong, missing and malformed content is 400 or 415', async () => {
    expectClean4xx(await raw('POST', append(), { body: 'nodes=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415);
    expectClean4xx(await raw('POST', append(), { body: '<nodes/>', headers: { 'content-type': 'text/xml' } }), 415);
    expectClean4xx(await raw('POST', append(), { body: tagBody('x'), headers: { 'content-type': 'text/plain' } }), 415);
    expectClean4xx(await raw('POST', append(), { body: tagBody('x') }), 415);
    const malformed = await raw('POST', append(), { body: '{"nodes": [', headers: json });
    expectClean4xx(malformed, 400);
    expect(malformed.json.message).toContain('malformed JSON');
    expectClean4xx(await raw('POST', append(), { body: '"just a string"', headers: json }), 400);
    // A declared body is required (spec 4.1), even where {} would be valid.
    const none = await raw('PUT', `/api/v2/projects/${ctx.projectId}`);
    expectClean4xx(none, 400);
    expect(none.json.message).toContain('body is required');
    const proto = await raw('PUT', `/api/v2/projects/${ctx.projectId}`, { body: '{"a":{"__proto__":{"admin":true}}}', headers: json });
    expectClean4xx(proto, 400);
    expect(proto.json.message).toContain('__proto__');
  });

  it('invalid UTF-8 is 400; valid multi-byte text split across chunks is stored exactly', async () => {
    const wrap = (bytes: number[]) => Buffer.concat([Buffer.from('{"nodes":[{"type":"add-note","config":{"body":"'), Buffer.from(bytes), Buffer.from('"}}]}')]);
    // a lone continuation byte, an overlong "/", a UTF-16 surrogate, a truncated 3-byte sequence, 0xFF
    for (const bytes of [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xc3, 0x28, 0xff]]) {
      const r = await raw('POST', append(), { body: wrap(bytes), headers: json });
      expectClean4xx(r, 400);
      expect(r.json.message).toContain('UTF-8');
    }
    const text = 'café – 日本語 – 😀 – \u{FFFD}';
    const body = Buffer.from(tagBody(text));
    const at = body.indexOf(Buffer.from('😀')) + 2; // in the middle of the 4-byte emoji
    const r = await rawHttp('POST', append(), { ...json, 'transfer-encoding': 'chunked' }, [body.subarray(0, at), body.subarray(at)]);
    expect(r.status, r.body).toBe(200);
    const stored = (await h.store.workflows.get(h.agencyId, ctx.campaignId)).graph.nodes.at(-1)!;
    expect(stored.config.tags).toEqual([text]);
  });

  it('NUL bytes: in a path id 404, in a query 200 or 400, in JSON strings stored as sent', async () => {
    expectClean4xx(await raw('GET', '/api/agent-builder/agents/a%00b'), 404);
    expectClean4xx(await raw('GET', '/api/v2/projects/%00'), 404);
    const q = await raw('GET', '/api/power-dialer/pipeline/leads?cadenceStep=0&search=%00');
    expect(q.status).toBe(200);
    expect(q.json.data.total).toBe(0);
    const r = await raw('POST', append(), { body: tagBody('a\u0000b'), headers: json });
    expect(r.status, r.text).toBe(200);
    expect((await h.store.workflows.get(h.agencyId, ctx.campaignId)).graph.nodes.at(-1)!.config.tags).toEqual(['a\u0000b']);
  });

  it('an Idempotency-Key that is empty or over 255 characters is 400; a refused request leaves no claim', async () => {
    for (const key of ['', 'k'.repeat(256), 'k'.repeat(5000)]) {
      const r = await raw('POST', append(), { body: tagBody('idem'), headers: { ...json, 'Idempotency-Key': key } });
      expectClean4xx(r, 400);
      expect(r.json.message).toContain('Idempotency-Key');
    }
    // A valid key on a request the handler refuses: no claim is left behind, so the corrected
    // request with the same key is served (decisions.md: only 2xx responses are stored).
    const key = `bad-input-${Date.now()}`;
    const refused = await raw('POST', append(), { body: JSON.stringify({ nodes: [{ type: 'send-sms', config: { body: 'REPLACE-WITH-MESSAGE' } }] }), headers: { ...json, 'Idempotency-Key': key } });
    expectClean4xx(refused, 400);
    const corrected = await raw('POST', append(), { body: tagBody('idem-ok'), headers: { ...json, 'Idempotency-Key': key } });
    expect(corrected.status, corrected.text).toBe(200);
  });

  it('path traversal and SQL metacharacters in ids and query parameters are plain not-found or validation errors', async () => {
    const before = stored();
    const ids = ['..%2F..%2Fetc%2Fpasswd', '..%252F..%252Fetc%252Fpasswd', '%2E%2E%2F%2E%2E%2Fapp.db', "x'%20OR%20'1'%3D'1", '1%3B%20DROP%20TABLE%20projects%3B--', '%27%22%5C', '%25', '*'];
    for (const id of ids) {
      expectClean4xx(await raw('GET', `/api/v2/projects/${id}`), 404);
      expectClean4xx(await raw('GET', `/api/agent-builder/agents/${id}/campaign/workflow`), 404);
      expectClean4xx(await raw('GET', `/api/call-history/by-call-id/${id}`), 404);
      expectClean4xx(await raw('GET', `/api/power-dialer/leads/${id}`), 404);
      expectClean4xx(await raw('DELETE', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/nodes/${id}`), 404);
    }
    const hostile = ["%' OR 1=1 --", "'; DROP TABLE projects; --", '" OR ""="', '\\', '%_%', '../../etc/passwd'];
    for (const v of hostile) {
      const e = encodeURIComponent(v);
      const leads = await raw('GET', `/api/power-dialer/pipeline/leads?cadenceStep=0&search=${e}`);
      expect(leads.status, leads.text).toBe(200);
      expect(leads.json.data.total).toBe(0);
      for (const path of [
        `/api/power-dialer/pipeline/leads?cadenceStep=0&campaignId=${e}`,
        `/api/power-dialer/pipeline/leads?cadenceStep=0&campaignIds=${e},${e}`,
        `/api/power-dialer/pipeline/s2l-parked?locationId=${e}`,
        `/api/call-history?disposition=${e}`,
        `/api/call-history?campaignId=${e}`,
        `/api/call-history?cursor=${e}`,
        `/api/agent-builder/agents?agentType=${e}`,
        `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/executions?status=${e}`,
        `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow?locationId=${e}&campaignId=${e}`,
      ]) {
        const r = await raw('GET', path);
        if (r.status === 200) expect(r.json.success).toBe(true);
        else expectClean4xx(r);
        expect(r.text).not.toMatch(/SQLITE|syntax error/i);
      }
    }
    expect(stored()).toEqual(before);
  });

  it('very long URLs and headers are refused cleanly, in the envelope', async () => {
    for (const path of [`/api/v2/projects/${'a'.repeat(60_000)}`, `/api/v2/projects?q=${'%41'.repeat(20_000)}`]) {
      const r = await raw('GET', path);
      expectClean4xx(r, 431);
      expect(r.json).toMatchObject({ success: false, error: 'RequestHeaderFieldsTooLarge' });
    }
    expectClean4xx(await raw('POST', `/api/v2/projects?q=${'%41'.repeat(20_000)}`, { body: JSON.stringify({ crm: 'crm_a', locationId: 'loc_long_url' }), headers: json }), 431);
    const longKey = await raw('GET', '/api/v2/projects', { headers: { authorization: `Bearer ${'k'.repeat(10_000)}` } });
    expectClean4xx(longKey, 401);
    // A path under the parser's limit reaches validation: ids are at most 200 characters.
    const long = await raw('GET', `/api/v2/projects/${'a'.repeat(8_000)}`);
    expectClean4xx(long, 400);
    expect(long.json.message).toContain('params.id');
  });

  it('undeclared methods are 405 with Allow, in the envelope; OPTIONS lists the operation path only', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/api/v2/projects', 'POST, HEAD, GET'],
      ['TRACE', '/api/v2/projects', 'POST, HEAD, GET'],
      ['PATCH', '/api/power-dialer/pipeline/leads', 'HEAD, GET'],
      ['TRACE', `/api/agent-builder/agents/${ctx.agentId}`, 'HEAD, GET, PATCH'],
    ] as const) {
      // fetch refuses TRACE: a plain http request sends it.
      const res = await rawHttp(method, path, {}, []);
      const r: Raw = { status: res.status, text: res.body, json: JSON.parse(res.body), headers: new Headers(res.headers as Record<string, string>), path, before: res.before };
      expectClean4xx(r, 405);
      expect(r.headers.get('allow')!.split(', ').sort()).toEqual(allow.split(', ').sort());
    }
    const options = await raw('OPTIONS', '/api/v2/projects/systems');
    expect(options.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD']);
    const res = await rawHttp('TRACE', '/api/no-such-thing', {}, []);
    expectClean4xx({ status: res.status, text: res.body, json: JSON.parse(res.body), headers: new Headers(res.headers as Record<string, string>), path: '/api/no-such-thing', before: res.before }, 404);
    expect(res.headers.allow).toBeUndefined();
  });

  it('wrong JSON types and unknown fields name the field', async () => {
    const r = await raw('POST', append(), { body: JSON.stringify({ nodes: 'add-tag' }), headers: json });
    expectClean4xx(r, 400);
    expect(r.json.message).toContain('body.nodes');
    const extra = await raw('POST', append(), { body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['a'] } }], admin: true }), headers: json });
    expectClean4xx(extra, 400);
    expect(extra.json.message).toContain('body.admin');
    const huge = await raw('POST', append(), { body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['a'] } }], expectedVersion: 1e308 }), headers: json });
    expectClean4xx(huge);
    const lead = await raw('GET', '/api/power-dialer/pipeline/leads?cadenceStep=-1');
    expectClean4xx(lead, 400);
    const page = await raw('GET', '/api/power-dialer/pipeline/leads?cadenceStep=0&limit=1000000000000000000000');
    expectClean4xx(page, 400);
  });
});
