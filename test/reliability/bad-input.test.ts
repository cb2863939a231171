/** Hostile and malformed requests: each a clean 4xx in the spec's envelope, never a 5xx or a stack trace. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';

let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
beforeAll(async () => {
  h = await createHarness({ config: { rateLimitPoints: 1_000_000 } });
  ctx = await createProjectAgentCampaign(h);
});
afterAll(async () => h?.close());

/** Raw fetch: the harness's contract check would reject some of these on purpose-made paths. */
async function raw(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}) {
  const res = await fetch(h.url + path, { method, body: init.body, headers: { authorization: `Bearer ${h.adminKey}`, ...(init.headers ?? {}) } });
  const text = await res.text();
  return { status: res.status, text, json: (() => { try { return JSON.parse(text); } catch { return null; } })() };
}

function expectClean4xx(r: { status: number; text: string; json: any }, status?: number) {
  if (status) expect(r.status, r.text).toBe(status);
  expect(r.status, r.text).toBeGreaterThanOrEqual(400);
  expect(r.status, r.text).toBeLessThan(500);
  expect(r.json?.success).toBe(false);
  expect(r.text).not.toMatch(/\n\s+at |\.ts:\d+|node_modules/);
}

const json = { 'content-type': 'application/json' };
const append = () => `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`;

describe('bad input', () => {
  it('a body over 1 MB is 413', async () => {
    const big = JSON.stringify({ nodes: [{ type: 'add-note', config: { body: 'x'.repeat(1_200_000) } }] });
    expectClean4xx(await raw('POST', append(), { body: big, headers: json }), 413);
  });

  it('deeply nested JSON is refused, not a crash', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    expectClean4xx(await raw('POST', append(), { body: `{"nodes":${deep}}`, headers: json }));
    const deepObj = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000);
    expectClean4xx(await raw('PUT', `/api/v2/projects/${ctx.projectId}`, { body: deepObj, headers: json }));
  });

  it('wrong content types are 415', async () => {
    expectClean4xx(await raw('POST', append(), { body: 'nodes=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415);
    expectClean4xx(await raw('POST', append(), { body: '<nodes/>', headers: { 'content-type': 'text/xml' } }), 415);
  });

  it('invalid UTF-8 and NUL bytes', async () => {
    const bad = Buffer.concat([Buffer.from('{"nodes":[{"type":"add-note","config":{"body":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}]}')]);
    const r = await raw('POST', append(), { body: bad, headers: json });
    // Decoded with replacement characters it is a valid request; either way, never a 5xx.
    expect(r.status).toBeLessThan(500);
    expectClean4xx(await raw('GET', `/api/agent-builder/agents/a%00b`), 404);
  });

  it('an Idempotency-Key over 255 characters is 400', async () => {
    const r = await raw('POST', append(), { body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] }), headers: { ...json, 'Idempotency-Key': 'k'.repeat(5000) } });
    expectClean4xx(r, 400);
  });

  it('path traversal and SQL metacharacters in ids and query parameters are plain not-found or validation errors', async () => {
    for (const id of ['..%2F..%2Fetc%2Fpasswd', "x'%20OR%20'1'%3D'1", '1%3B%20DROP%20TABLE%20projects%3B--', '%27%22%5C']) {
      expectClean4xx(await raw('GET', `/api/v2/projects/${id}`), 404);
      expectClean4xx(await raw('GET', `/api/agent-builder/agents/${id}/campaign/workflow`), 404);
      expectClean4xx(await raw('GET', `/api/call-history/by-call-id/${id}`), 404);
    }
    const q = await raw('GET', `/api/power-dialer/pipeline/leads?cadenceStep=0&search=${encodeURIComponent("%' OR 1=1 --")}`);
    expect(q.status).toBe(200);
    expect(q.json.data.total).toBe(0);
    expect(h.repos.projects.get(h.agencyId, ctx.projectId)).toBeDefined();
  });

  it('a very long URL is refused cleanly', async () => {
    const r = await fetch(`${h.url}/api/v2/projects/${'a'.repeat(60_000)}`, { headers: { authorization: `Bearer ${h.adminKey}` } });
    expect(r.status).toBe(431);
    expect(await r.json()).toMatchObject({ success: false, error: 'RequestHeaderFieldsTooLarge' });
  });

  it('wrong JSON types and unknown fields name the field', async () => {
    const r = await raw('POST', append(), { body: JSON.stringify({ nodes: 'add-tag' }), headers: json });
    expectClean4xx(r, 400);
    expect(r.json.message).toContain('body.nodes');
    const extra = await raw('POST', append(), { body: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['a'] } }], admin: true }), headers: json });
    expectClean4xx(extra, 400);
    expect(extra.json.message).toContain('body.admin');
  });
});
