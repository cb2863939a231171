/**
 * Test runs: the real post-call workflow on sample data with every effect on the sandbox, recorded
 * apart from real runs, and never a request to the project's real CRM. Failure alerts: a run that
 * fails after its retries, and a project that becomes disconnected, reach the agency as a signed
 * webhook and an email, each with a link into the editor.
 */
import http from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { waitFor } from '../helpers/power-dialer.js';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';

let h: Harness;
let ghl: GohighlevelFake;
const TOKEN = 'pit-test-runs-token-0123';
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
let receiver: http.Server;
let receiverUrl = '';

beforeAll(async () => {
  ghl = await startGohighlevelFake({ token: TOKEN });
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`;
  h = await createHarness({ temporal: true, config: { gohighlevelBaseUrl: ghl.url, defaultPlanLimit: 20, publicUrl: 'https://app.example.test' } });
});
afterAll(async () => {
  await h?.close();
  await ghl?.close();
  await new Promise((r) => receiver.close(r));
});

const resultOf = (workflowId: string) => h.temporal!.client.workflow.getHandle(workflowId).result();

describe('test runs', () => {
  it('runs the chain on sample data on the sandbox, records rendered inputs, and stays apart from real runs', async () => {
    const c = await createProjectAgentCampaign(h);
    await h.store.crm.addCustomValue(h.agencyId, c.locationId, 'Business name', 'business_name', 'Bright Smile Dental');
    const wf = `/api/agent-builder/agents/${c.agentId}/campaign/workflow`;
    await h.api('POST', `${wf}/outcomes/SUCCESS/nodes`, {
      body: { nodes: [{ type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, {{custom_values.business_name}} booked you for {{call.fields.appointment_time}}' } }, { type: 'book-appointment', config: { calendarId: 'cal_main', durationMinutes: 45 } }, { type: 'add-tag', config: { tags: ['booked'] } }] },
    });
    const started = await h.api('POST', `${wf}/test-runs`, { body: { outcome: 'success', fields: { appointment_time: '2031-03-04T15:00:00Z' }, contact: { firstName: 'Zoe', phone: '+15125550177' } } });
    expect(started.status, started.text).toBe(202);
    expect(started.body.data).toMatchObject({ kind: 'test', status: 'running', outcome: 'SUCCESS' });
    expect(await resultOf(started.body.data.workflowId)).toMatchObject({ status: 'succeeded', steps: 3 });

    const run = await h.api('GET', `${wf}/executions/${started.body.data.id}`);
    expect(run.body.data.steps.map((s: { nodeType: string; status: string }) => [s.nodeType, s.status])).toEqual([['send-sms', 'succeeded'], ['book-appointment', 'succeeded'], ['add-tag', 'succeeded']]);
    // Each step's rendered input: the SMS as it would be sent, the slot it would book.
    expect(run.body.data.steps[0].input.body).toBe('Hi Zoe, Bright Smile Dental booked you for 2031-03-04T15:00:00Z');
    expect(run.body.data.steps[1].output).toMatchObject({ startsAt: '2031-03-04T15:00:00.000Z', endsAt: '2031-03-04T15:45:00.000Z' });

    // Apart from real runs: not in the run list, no call record, nothing on the project's own sandbox location.
    expect((await h.api('GET', `${wf}/executions`)).body.data).toEqual([]);
    expect((await h.api('GET', `${wf}/executions?kind=test`)).body.data.map((e: { id: string }) => e.id)).toEqual([started.body.data.id]);
    expect((await h.api('GET', `/api/call-history/by-call-id/${started.body.data.callId}`)).status).toBe(404);
    expect(h.db.prepare('SELECT count(*) AS n FROM crm_contacts WHERE agency_id = ? AND location_id = ?').get(h.agencyId, c.locationId)).toEqual({ n: 0 });
    expect(h.db.prepare("SELECT count(*) AS n FROM appointments WHERE agency_id = ? AND location_id = ?").get(h.agencyId, c.locationId)).toEqual({ n: 0 });
    // Test runs never raise failure alerts, and a failing one says so in its history.
    const failing = await h.api('POST', `${wf}/test-runs`, { body: { outcome: 'SUCCESS' } });
    expect(await resultOf(failing.body.data.workflowId)).toMatchObject({ status: 'failed' });
    expect((await h.api('GET', `${wf}/executions/${failing.body.data.id}`)).body.data.error).toMatch(/appointment_time/);
    expect((await h.store.alerts.list(h.agencyId)).filter((a) => (a.payload as { executionId?: string }).executionId === failing.body.data.id)).toEqual([]);
  });

  it('makes no request to the real CRM of a project connected to one', async () => {
    const seeded = seedLocation(ghl);
    const project = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seeded.locationId, credentials: { token: TOKEN } } });
    expect(project.status, project.text).toBe(200);
    const agent = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Desk', agentType: 'outreach', locationId: seeded.locationId, capabilityIds: ['appointment_booking'] } });
    const wf = `/api/agent-builder/agents/${agent.body.data.id}/campaign/workflow`;
    await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, {
      body: { nodes: [{ type: 'add-tag', config: { tags: ['vm'] } }, { type: 'add-note', config: { body: 'note' } }, { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}' } }, { type: 'send-email', config: { subject: 'Hi', body: 'x' } }, { type: 'move-stage', config: { pipelineId: seeded.pipeline.id, stageId: seeded.pipeline.stages[0]!.id } }] },
    });
    const before = ghl.requests.length;
    const started = await h.api('POST', `${wf}/test-runs`, { body: { outcome: 'VOICEMAIL', contact: { firstName: 'Ana', phone: '+15125550123', email: 'ana@example.com' } } });
    expect(started.status, started.text).toBe(202);
    expect(await resultOf(started.body.data.workflowId)).toMatchObject({ status: 'succeeded', steps: 5 });
    expect(ghl.requests.slice(before)).toEqual([]);
  });
});

describe('failure alerts', () => {
  const verify = (secret: string, header: string, body: string) => {
    const [t, v1] = header.split(',').map((p) => p.split('=')[1]);
    return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex') === v1;
  };

  it('a run that fails after its retries: a signed webhook with a link to the run, and an email', async () => {
    const set = await h.api('PATCH', '/api/agency', { body: { alertWebhookUrl: receiverUrl, alertEmail: 'ops@agency.example' } });
    expect(set.status, set.text).toBe(200);
    const c = await createProjectAgentCampaign(h);
    await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/outcomes/SUCCESS/nodes`, { body: { nodes: [{ type: 'book-appointment', config: { durationMinutes: 30 } }] } });
    const e = callEnded(c.campaignId, { disposition: 'SUCCESS', fields: [{ key: 'appointment_time', value: '2031-01-01T15:00:00Z' }] });
    await postCallEvent(h, e);
    expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'failed' });
    const executionId = (await h.store.executions.firstOfCall(h.agencyId, e.call.callId))!.id;

    const delivery = await waitFor('the alert webhook', () => received.find((r) => JSON.parse(r.body).executionId === executionId));
    const body = JSON.parse(delivery.body);
    expect(body).toMatchObject({ type: 'run.failed', agencyId: h.agencyId, executionId, campaignId: c.campaignId, outcome: 'SUCCESS', failedStep: { nodeType: 'book-appointment' } });
    expect(body.link).toBe(`https://app.example.test/editor/agents/${c.agentId}?campaignId=${c.campaignId}&run=${executionId}`);
    expect(delivery.headers['x-agency-id']).toBe(h.agencyId);
    expect(delivery.headers['x-alert-id']).toBe(body.id);
    expect(verify((await h.store.agencies.get(h.agencyId))!.signingSecret, String(delivery.headers['x-signature']), delivery.body)).toBe(true);
    const alert = await waitFor('the alert marked delivered and emailed', async () => {
      const a = await h.store.alerts.get(h.agencyId, body.id);
      return a?.deliveredAt && a.emailedAt ? a : undefined;
    });
    expect(alert.attempts).toBe(1);
    const email = h.db.prepare("SELECT recipient, subject, body FROM outbox WHERE agency_id = ? AND channel = 'email' AND idempotency_key = ?").get(h.agencyId, `alert:${body.id}:email`) as { recipient: string; subject: string; body: string };
    expect(email).toMatchObject({ recipient: 'ops@agency.example', subject: expect.stringContaining('post-call run failed') });
    expect(email.body).toContain(body.link);
    const listed = await h.api('GET', '/api/agency/alerts');
    expect(listed.body.data.find((a: { id: string }) => a.id === body.id)).toMatchObject({ kind: 'run.failed', deliveredAt: expect.any(String), attempts: 1 });
  });

  it('a project disconnected by its CRM: an alert with a link to the project', async () => {
    const seeded = seedLocation(ghl);
    await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seeded.locationId, credentials: { token: TOKEN } } });
    const agent = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Desk', agentType: 'outreach', locationId: seeded.locationId, capabilityIds: [] } });
    await h.api('POST', `/api/agent-builder/agents/${agent.body.data.id}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm'] } }] } });
    ghl.inject({ method: 'POST', path: /\/tags$/, kind: 'status', status: 401, message: 'Invalid JWT' });
    const e = callEnded(agent.body.data.campaignId, { contactId: seeded.contact.id });
    await postCallEvent(h, e);
    expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'failed' });
    const disconnected = await waitFor('the disconnected alert', () => received.find((r) => JSON.parse(r.body).type === 'project.disconnected' && JSON.parse(r.body).locationId === seeded.locationId));
    expect(JSON.parse(disconnected.body)).toMatchObject({ reason: expect.stringContaining('401'), link: `https://app.example.test/editor/projects/${seeded.locationId}` });
    // The failed run was alerted too.
    await waitFor('the run alert', () => received.find((r) => JSON.parse(r.body).callId === e.call.callId));
  });
});
