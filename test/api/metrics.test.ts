import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { createOpsApp, listen } from '../../server/app.js';
import { metricsAccess } from '../../server/ops/endpoints.js';
import type { Ports } from '../../engine/ports.js';

/** `name{labels} value` lines of a Prometheus text exposition, by series. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** The value of the one series of `name` whose labels include all of `labels`. */
function value(series: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const hits = [...series].filter(([key]) => (key === name || key.startsWith(`${name}{`)) && want.every((w) => key.includes(w)));
  if (hits.length !== 1) throw new Error(`${hits.length} series of ${name} with ${want.join(',')}: ${hits.map(([k]) => k).join(' | ')}`);
  return hits[0]![1];
}

let h: Harness;
let failFirstTag = true;
beforeAll(async () => {
  h = await createHarness({
    temporal: true,
    // The first add-tag attempt times out at the CRM, so attempts show a retry.
    ports: (base): Ports => ({
      ...base,
      crm: {
        ...base.crm,
        addTags: async (e, contactId, tags) => {
          if (failFirstTag) {
            failFirstTag = false;
            throw new Error('CRM timed out');
          }
          return base.crm.addTags(e, contactId, tags);
        },
      },
    }),
  });
});
afterAll(async () => h?.close());

describe('GET /metrics (Prometheus)', () => {
  it('after a few calls shows requests by route, call events, runs by outcome, steps by action and Temporal worker metrics, all non-zero', async () => {
    const ctx = await createProjectAgentCampaign(h);
    const wf = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow`;
    expect((await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm'] } }, { type: 'send-sms', config: { body: 'Sorry we missed you' } }] } })).status).toBe(200);
    expect((await h.api('POST', `${wf}/outcomes/CALLBACK/nodes`, { body: { nodes: [{ type: 'add-note', config: { body: 'call back' } }] } })).status).toBe(200);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: ctx.locationId, phone: '+15125550123' });
    const events = [callEnded(ctx.campaignId, { contactId: contact.id }), callEnded(ctx.campaignId, { contactId: contact.id }), callEnded(ctx.campaignId, { contactId: contact.id, disposition: 'CALLBACK' })];
    for (const e of events) expect((await postCallEvent(h, e)).status).toBe(202);
    for (const e of events) expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'succeeded' });
    expect((await postCallEvent(h, events[0]!)).status).toBe(200);
    expect((await postCallEvent(h, events[1]!, { secret: 'not-the-secret' })).status).toBe(401);

    const res = await fetch(`${h.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const m = parse(text);

    // HTTP by route template (never a concrete id), status, with a duration histogram.
    const append = { route: '/api/agent-builder/agents/:agentId/campaign/workflow/outcomes/:outcome/nodes', method: 'POST', status: '200' };
    expect(value(m, 'http_requests_total', append)).toBe(2);
    expect(value(m, 'http_request_duration_seconds_count', append)).toBe(2);
    expect(value(m, 'http_request_duration_seconds_sum', append)).toBeGreaterThan(0);
    expect(value(m, 'http_request_duration_seconds_bucket', { ...append, le: '+Inf' })).toBe(2);
    expect(value(m, 'http_requests_total', { route: '/api/events/calls', status: '202' })).toBe(3);
    expect(text).not.toContain(ctx.agentId);
    expect(text).not.toContain(events[0]!.call.callId);

    // Call events accepted, duplicate, refused.
    expect(value(m, 'call_events_total', { source: 'calls', type: 'call.ended', result: 'accepted' })).toBe(3);
    expect(value(m, 'call_events_total', { source: 'calls', type: 'call.ended', result: 'duplicate' })).toBe(1);
    expect(value(m, 'call_events_total', { source: 'calls', result: 'refused', status: '401' })).toBe(1);

    // Post-call runs by outcome and status.
    expect(value(m, 'post_call_runs_total', { outcome: 'VOICEMAIL', status: 'succeeded' })).toBe(2);
    expect(value(m, 'post_call_runs_total', { outcome: 'CALLBACK', status: 'succeeded' })).toBe(1);

    // Steps: duration and attempts by action type (the first add-tag attempt failed and was retried).
    expect(value(m, 'post_call_step_attempts_total', { action: 'add-tag', status: 'failed' })).toBe(1);
    expect(value(m, 'post_call_step_attempts_total', { action: 'add-tag', status: 'succeeded' })).toBe(2);
    expect(value(m, 'post_call_step_attempts_total', { action: 'send-sms', status: 'succeeded' })).toBe(2);
    expect(value(m, 'post_call_step_attempts_total', { action: 'add-note', status: 'succeeded' })).toBe(1);
    expect(value(m, 'post_call_step_duration_seconds_count', { action: 'send-sms', status: 'succeeded' })).toBe(2);
    expect(value(m, 'post_call_step_duration_seconds_sum', { action: 'send-sms', status: 'succeeded' })).toBeGreaterThan(0);

    // The Temporal SDK's own worker metrics, from its runtime's Prometheus exporter.
    const queue = { task_queue: h.taskQueue };
    expect(value(m, 'temporal_workflow_completed', { ...queue, workflow_type: 'postCallLocalRun' })).toBe(3);
    // Post-call actions run as local activities: the SDK counts them under `local_activity_*`.
    expect(value(m, 'temporal_local_activity_execution_latency_count', { ...queue, activity_type: 'addTag' })).toBe(3);
    expect(value(m, 'temporal_local_activity_execution_failed', { ...queue, activity_type: 'addTag' })).toBe(1);
    expect(value(m, 'temporal_worker_task_slots_available', { ...queue, worker_type: 'LocalActivityWorker' })).toBeGreaterThan(0);
    expect(value(m, 'temporal_worker_task_slots_available', { ...queue, worker_type: 'ActivityWorker' })).toBeGreaterThan(0);
  });

  it('with METRICS_TOKEN set, a scrape needs the token', async () => {
    const t = await createHarness({ config: { metricsToken: 'scrape-token-123' } });
    try {
      expect((await fetch(`${t.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer scrape-token-123' } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('http_requests_total');
    } finally {
      await t.close();
    }
  });

  it('with METRICS_ADDRESS set, /metrics moves to its own listener', async () => {
    const t = await createHarness({ config: { metricsAddress: '127.0.0.1:0' } });
    const ops = listen(createOpsApp(t.services), 0, '127.0.0.1');
    try {
      await new Promise<void>((r) => ops.once('listening', () => r()));
      expect((await fetch(`${t.url}/metrics`)).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${(ops.address() as AddressInfo).port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_requests_total');
    } finally {
      await new Promise<void>((r) => ops.close(() => r()));
      await t.close();
    }
  });

  it('without a token or its own listener, only loopback clients may scrape', () => {
    const base = { token: undefined, dedicatedListener: false, authorization: '' };
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(metricsAccess({ ...base, remoteAddress })).toBe('ok');
    for (const remoteAddress of ['10.0.0.7', '::ffff:192.168.1.4', '2001:db8::1', undefined]) expect(metricsAccess({ ...base, remoteAddress })).toBe('forbidden');
    expect(metricsAccess({ ...base, remoteAddress: '10.0.0.7', dedicatedListener: true })).toBe('ok');
    expect(metricsAccess({ ...base, remoteAddress: '127.0.0.1', token: 't0k' })).toBe('unauthorized');
  });
});
