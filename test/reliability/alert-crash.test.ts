/**
 * An alert is never lost: its delivery is a Temporal workflow. The agency's alert URL refuses the
 * first deliveries; the worker process retrying them is killed with SIGKILL; another worker takes
 * over and the alert is delivered, once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { callEnded, postCallEvent } from '../helpers/events.js';
import { startWorkerProcess, until } from '../helpers/processes.js';
import { waitFor } from '../helpers/power-dialer.js';

let h: Harness;
let receiver: http.Server;
let url = '';
const answers: number[] = [];
let refuse = 3;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = refuse-- > 0 ? 500 : 204;
      answers.push(status);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`;
  h = await createHarness({ temporal: true, worker: false });
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => receiver.close(r));
});

describe('alert delivery across a worker crash', () => {
  it('kill -9 of the worker while the delivery is being retried: another worker delivers it, once', async () => {
    await h.api('PATCH', '/api/agency', { body: { alertWebhookUrl: url } });
    const c = await createProjectAgentCampaign(h);
    await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/outcomes/SUCCESS/nodes`, { body: { nodes: [{ type: 'book-appointment', config: { durationMinutes: 30 } }] } });
    const first = await startWorkerProcess(h);
    const e = callEnded(c.campaignId, { disposition: 'SUCCESS', fields: [{ key: 'appointment_time', value: '2031-01-01T15:00:00Z' }] });
    expect((await postCallEvent(h, e)).status).toBe(202);
    // The run fails, the alert is recorded and its delivery refused at least once.
    const alert = await waitFor('an alert with a refused delivery', async () => (await h.store.alerts.list(h.agencyId)).find((a) => a.attempts >= 1 && !a.deliveredAt), 30_000);
    expect(answers[0]).toBe(500);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const refusedBeforeKill = answers.length;
    const second = await startWorkerProcess(h);
    try {
      await until(async () => Boolean((await h.store.alerts.get(h.agencyId, alert.id))?.deliveredAt), 60_000);
    } finally {
      second.kill('SIGTERM');
    }
    expect(refusedBeforeKill).toBeLessThan(answers.length);
    expect(answers.filter((s) => s === 204)).toHaveLength(1);
    expect(answers.filter((s) => s === 500)).toHaveLength(3);
    expect(await h.store.alerts.get(h.agencyId, alert.id)).toMatchObject({ attempts: 4, lastError: null, deliveredAt: expect.any(String) });
  });
});
