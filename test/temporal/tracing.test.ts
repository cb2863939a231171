/**
 * One trace from the HTTP request that accepted a call event, through the Temporal client's start
 * and the workflow run, to each activity and the HTTP request it made to the CRM, exported over
 * OTLP/HTTP to an in-process receiver that keeps every span it is sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}
const SERVER = 2;
const CLIENT = 3;

const TOKEN = 'pit-7d1e4b2a-trace-test-token';
let receiver: http.Server;
let receiverUrl: string;
const spans: OtlpSpan[] = [];
const requests: { path: string; contentType: string }[] = [];
let fake: GohighlevelFake;
let h: Harness;

beforeAll(async () => {
  // An OTLP/HTTP receiver: POST /v1/traces with an ExportTraceServiceRequest in JSON.
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '' });
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const body = JSON.parse(raw.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  fake = await startGohighlevelFake({ token: TOKEN });
  h = await createHarness({ temporal: true, config: { otlpEndpoint: receiverUrl, gohighlevelBaseUrl: fake.url } });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? String(v.intValue) : undefined);
};

describe('tracing (OpenTelemetry, OTLP)', () => {
  it('a call event is one trace: HTTP request -> start -> workflow -> each activity -> its outgoing HTTP call', async () => {
    expect(h.services.tracing.enabled).toBe(true);
    const seeded = seedLocation(fake);
    expect((await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seeded.locationId, credentials: { token: TOKEN } } })).status).toBe(200);
    const agent = (await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Desk', agentType: 'outreach', locationId: seeded.locationId, capabilityIds: ['add_tag'] } })).body.data;
    const appended = await h.api('POST', `/api/agent-builder/agents/${agent.id}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }, { type: 'add-note', config: { body: 'Left a voicemail' } }] },
    });
    expect(appended.status).toBe(200);
    const event = callEnded(agent.campaignId, { contactId: seeded.contact.id });
    expect((await postCallEvent(h, event)).status).toBe(202);
    expect(await awaitRun(h, event.call.callId)).toMatchObject({ status: 'succeeded' });
    expect(fake.state.contacts.get(seeded.contact.id)!.tags).toContain('vm-left');

    // Workflow spans leave the worker through its sink after the run's last task: wait until the
    // receiver has the last activity's span, flushing the exporter each time round.
    await expect
      .poll(async () => {
        await h.services.tracing.forceFlush();
        return spans.filter((s) => s.name === 'RunActivity:addNote').length;
      }, { timeout: 20_000, interval: 200 })
      .toBe(1);

    expect(requests.every((r) => r.path === '/v1/traces' && r.contentType.includes('application/json'))).toBe(true);
    const root = spans.find((s) => s.kind === SERVER && s.name === 'POST /api/events/calls');
    expect(root, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(attr(root!, 'http.route')).toBe('/api/events/calls');
    expect(attr(root!, 'http.response.status_code')).toBe('202');
    const trace = spans.filter((s) => s.traceId === root!.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    // The request continued its caller's trace (traceparent): the sender here is this test's own
    // fetch, instrumented in the same process, so its client span is the trace's root.
    const sender = byId.get(root!.parentSpanId!);
    expect(sender?.kind).toBe(CLIENT);
    expect(sender!.parentSpanId || undefined).toBeUndefined();
    const childrenOf = (parent: OtlpSpan, name: (n: string) => boolean) => trace.filter((s) => s.parentSpanId === parent.spanId && name(s.name));
    const one = (parent: OtlpSpan, name: string) => {
      const found = childrenOf(parent, (n) => n === name);
      expect(found.map((s) => s.name), `${name} under ${parent.name}`).toEqual([name]);
      return found[0]!;
    };

    const start = one(root!, 'StartWorkflow:postCallLocalRun');
    const run = one(start, 'RunWorkflow:postCallLocalRun');
    for (const [activity, method, path] of [
      ['addTag', 'POST', `/contacts/${seeded.contact.id}/tags`],
      ['addNote', 'POST', `/contacts/${seeded.contact.id}/notes`],
    ] as const) {
      const scheduled = one(run, `StartActivity:${activity}`);
      const executed = one(scheduled, `RunActivity:${activity}`);
      const calls = childrenOf(executed, () => true).filter((s) => s.kind === CLIENT);
      expect(calls.length, `${activity}: outgoing calls`).toBeGreaterThanOrEqual(1);
      const effect = calls.find((s) => attr(s, 'http.request.method') === method && (attr(s, 'url.full') ?? '').includes(path));
      expect(effect, `${activity}: ${calls.map((s) => `${attr(s, 'http.request.method')} ${attr(s, 'url.full')}`).join(', ')}`).toBeDefined();
      expect(attr(effect!, 'url.full')!.startsWith(fake.url)).toBe(true);
      expect(attr(effect!, 'http.response.status_code')).toMatch(/^2\d\d$/);
    }
    // Every span of the trace hangs off the request: no orphan, no second root.
    for (const s of trace) if (s !== sender) expect(byId.has(s.parentSpanId!), `${s.name} has its parent in the trace`).toBe(true);
    // No credential in any span.
    expect(JSON.stringify(spans)).not.toContain(TOKEN);
  });
});
