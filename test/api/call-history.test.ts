import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { expectConforms } from '../helpers/contract.js';

let h: Harness;
let a: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let b: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
const callIds: string[] = [];

beforeAll(async () => {
  h = await createHarness({ temporal: true, config: { defaultPlanLimit: 10 } });
  a = await createProjectAgentCampaign(h);
  b = await createProjectAgentCampaign(h);
  const plan: [typeof a, string, string][] = [
    [a, 'VOICEMAIL', '2026-11-01T10:00:00Z'],
    [a, 'CALLBACK', '2026-11-02T10:00:00Z'],
    [a, 'NO_ACTION', '2026-11-03T10:00:00Z'],
    [b, 'VOICEMAIL', '2026-11-04T10:00:00Z'],
    [a, 'VOICEMAIL', '2026-11-05T10:00:00Z'],
  ];
  for (const [ctx, disposition, at] of plan) {
    const e = callEnded(ctx.campaignId, { disposition, fields: [{ key: 'callback_time', value: null }, { key: 'score', value: 7 }] });
    e.call.dateTime = at;
    expect((await postCallEvent(h, e)).status).toBe(202);
    callIds.push(e.call.callId);
  }
  for (const id of callIds) await awaitRun(h, id);
});
afterAll(async () => h?.close());

describe('GET /api/call-history/by-call-id/{callId} (spec 2.6, 4.9)', () => {
  it('returns the record with every field of 2.6 and no storage names', async () => {
    const r = await h.api('GET', `/api/call-history/by-call-id/${callIds[1]}`);
    expect(r.status).toBe(200);
    expectConforms(h.services, 'getCallByCallId', 200, r.body);
    expect(r.body.data).toMatchObject({
      callId: callIds[1], date: '2026-11-02', dateTime: '2026-11-02T10:00:00.000Z', direction: 'outbound', status: 'ended', duration: 42, agent: 'Front desk',
      agentType: 'appointment_booking', campaignId: a.campaignId, disposition: { type: 'callBack', label: 'Call Back', color: expect.stringMatching(/^#/) },
      transcript: 'Agent: Hello\nLead: (voicemail)', transcriptSource: 'live', fields: [{ key: 'callback_time', value: null }, { key: 'score', value: 7 }],
    });
    expect(r.body.data.id).toMatch(/^call_/);
    expect(r.body.data).not.toHaveProperty('_id');
    expect(r.body.data).not.toHaveProperty('campaignSystem');
  });

  it('is 404 across tenants and for a project the caller cannot access', async () => {
    const other = await h.api('GET', `/api/call-history/by-call-id/${callIds[0]}`, { key: h.otherAgencyKey });
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ success: false, error: 'NotFound' });
    const pu = await h.key({ role: 'project_user', projectIds: [b.projectId] });
    expect((await h.api('GET', `/api/call-history/by-call-id/${callIds[0]}`, { key: pu })).status).toBe(404);
    expect((await h.api('GET', `/api/call-history/by-call-id/${callIds[3]}`, { key: pu })).status).toBe(200);
    expect((await h.api('GET', '/api/call-history/by-call-id/nope')).status).toBe(404);
  });
});

describe('GET /api/call-history', () => {
  it('lists newest first with cursor pagination', async () => {
    const first = await h.api('GET', '/api/call-history?limit=2');
    expectConforms(h.services, 'listCalls', 200, first.body);
    expect(first.body.data.calls.map((c: { callId: string }) => c.callId)).toEqual([callIds[4], callIds[3]]);
    const second = await h.api('GET', `/api/call-history?limit=2&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data.calls.map((c: { callId: string }) => c.callId)).toEqual([callIds[2], callIds[1]]);
    const third = await h.api('GET', `/api/call-history?limit=2&cursor=${second.body.data.nextCursor}`);
    expect(third.body.data.calls.map((c: { callId: string }) => c.callId)).toEqual([callIds[0]]);
    expect(third.body.data.nextCursor).toBeNull();
    expect((await h.api('GET', '/api/call-history?cursor=garbage')).status).toBe(400);
  });

  it('filters by disposition (any form), campaign and date range; project_user sees only its projects', async () => {
    const vm = await h.api('GET', '/api/call-history?disposition=voicemail');
    expect(vm.body.data.calls.map((c: { callId: string }) => c.callId)).toEqual([callIds[4], callIds[3], callIds[0]]);
    const byCampaign = await h.api('GET', `/api/call-history?campaignId=${b.campaignId}`);
    expect(byCampaign.body.data.calls.map((c: { callId: string }) => c.callId)).toEqual([callIds[3]]);
    const range = await h.api('GET', '/api/call-history?from=2026-11-02T00:00:00Z&to=2026-11-04T00:00:00Z');
    expect(range.body.data.calls.map((c: { callId: string }) => c.callId)).toEqual([callIds[2], callIds[1]]);
    const pu = await h.key({ role: 'project_user', projectIds: [b.projectId] });
    expect((await h.api('GET', '/api/call-history', { key: pu })).body.data.calls.map((c: { callId: string }) => c.callId)).toEqual([callIds[3]]);
    expect((await h.api('GET', '/api/call-history?disposition=maybe')).status).toBe(400);
  });

  it('excludeReviewed accepts exactly true or false; reviewed calls drop out', async () => {
    const marked = await h.api('PATCH', `/api/call-history/by-call-id/${callIds[4]}`, { body: { reviewed: true } });
    expect(marked.status).toBe(200);
    expect(marked.body.data.reviewed).toBe(true);
    const open = await h.api('GET', '/api/call-history?excludeReviewed=true');
    expect(open.body.data.calls.map((c: { callId: string }) => c.callId)).not.toContain(callIds[4]);
    const all = await h.api('GET', '/api/call-history?excludeReviewed=false');
    expect(all.body.data.calls.map((c: { callId: string }) => c.callId)).toContain(callIds[4]);
    for (const v of ['1', 'yes', 'TRUE', '']) {
      const r = await h.api('GET', `/api/call-history?excludeReviewed=${v}`);
      expect(r.status, v).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'VALIDATION' });
      expect(r.body.message).toContain('excludeReviewed');
    }
  });
});

describe('call events', () => {
  it('call.started is acknowledged and idempotent; payloads are schema-checked', async () => {
    const started = { type: 'call.started', call: { callId: 'started-1', campaignId: a.campaignId, phoneNumber: '+15125550123' } };
    expect((await postCallEvent(h, started)).status).toBe(202);
    expect((await postCallEvent(h, started, { timestamp: Math.floor(Date.now() / 1000) + 2 })).body.data.duplicate).toBe(true);
    const bad = await postCallEvent(h, { type: 'call.ended', call: { callId: 'x', campaignId: a.campaignId, phoneNumber: '555', disposition: 'VOICEMAIL', dateTime: new Date().toISOString() } });
    expect(bad.status).toBe(400);
    const unknownCampaign = await postCallEvent(h, callEnded('cmp_nope'));
    expect(unknownCampaign.status).toBe(400);
    expect(unknownCampaign.body.message).toContain('campaignId');
  });
});
