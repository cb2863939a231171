/**
 * Server-side request forgery through the alert webhook (OWASP API7:2023): a tenant's URL may name
 * only a public address, checked when it is saved and again, on the address actually connected to,
 * at every delivery. The product runs with private targets refused (as in production); the public
 * target is a real host at a public address in a network namespace of its own.
 */
import http from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { waitFor } from '../helpers/power-dialer.js';
import { startPublicHost, type PublicHost } from '../helpers/public-host.js';
import { createAlertActivities } from '../../server/alerts/activities.js';
import { outboundClient, type Resolve } from '../../server/outbound/guarded-client.js';
import { sandboxMessaging } from '../../server/adapters/sandbox-messaging.js';

let h: Harness;
let pub: PublicHost;
/** an internal service on the server's own network: nothing may ever reach it */
let internal: http.Server;
let internalHits = 0;
let internalPort = 0;

beforeAll(async () => {
  pub = await startPublicHost();
  internal = http.createServer((_req, res) => {
    internalHits++;
    res.writeHead(200).end('internal-admin');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  internalPort = (internal.address() as AddressInfo).port;
  h = await createHarness({ temporal: true, config: { outboundAllowPrivate: false } });
});
afterAll(async () => {
  await h?.close();
  pub?.close();
  await new Promise((r) => internal?.close(r));
});

/** Every refused class, in the spellings a tenant might use to hide it. */
const internalUrls = () => [
  [`http://127.0.0.1:${internalPort}/internal-admin`, 'loopback address'],
  [`http://localhost:${internalPort}/internal-admin`, 'loopback address'],
  [`http://2130706433:${internalPort}/`, 'loopback address'],
  [`http://0x7f.1:${internalPort}/`, 'loopback address'],
  [`http://127.1:${internalPort}/`, 'loopback address'],
  [`http://[::ffff:127.0.0.1]:${internalPort}/`, 'loopback address'],
  [`http://[::1]:${internalPort}/`, 'loopback address'],
  ['http://169.254.169.254/latest/meta-data/', 'link-local address'],
  ['http://[::ffff:169.254.169.254]/latest/meta-data/', 'link-local address'],
  ['http://10.0.0.5:5432/', 'private address'],
  ['http://172.20.1.1/', 'private address'],
  ['http://192.168.0.10:7233/', 'private address'],
  ['http://100.64.3.2/', 'shared (CGNAT) address'],
  ['http://0.0.0.0:8233/', 'unspecified address'],
  ['http://224.0.0.251/', 'multicast address'],
  ['http://255.255.255.255/', 'broadcast address'],
  ['http://[fd00:ec2::254]/', 'private address'],
  ['http://[fe80::1]/', 'link-local address'],
] as const;

describe('saving an alert webhook URL', () => {
  it('refuses every internal address with a 400 naming the field and the reason', async () => {
    for (const [url, reason] of internalUrls()) {
      const res = await h.api('PATCH', '/api/agency', { body: { alertWebhookUrl: url } });
      expect(res.status, `${url}: ${res.text}`).toBe(400);
      expect(res.body.message, url).toBe(`body.alertWebhookUrl: refused: ${reason}; alerts are delivered to public addresses only`);
    }
    const agency = await h.api('GET', '/api/agency');
    expect(agency.body.data.settings.alertWebhookUrl).toBeUndefined();
    expect(internalHits).toBe(0);
  });

  it('accepts a public address, and a name it cannot resolve now (delivery decides)', async () => {
    for (const url of [pub.url('/hooks'), 'https://ops.agency.example/hooks/voice-alerts']) {
      const res = await h.api('PATCH', '/api/agency', { body: { alertWebhookUrl: url } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.settings.alertWebhookUrl).toBe(url);
    }
  });
});

describe('delivering an alert', () => {
  const activities = (resolve?: Resolve) =>
    createAlertActivities({ config: h.services.config, store: h.store, email: sandboxMessaging(h.store, 0), outbound: outboundClient({ allowPrivate: false, resolve }) });
  /** An alert whose agency's URL is stored as given: as if saved before this check, or resolving elsewhere since. */
  const alertTo = async (url: string) => {
    await h.store.agencies.saveSettings(h.agencyId, { ...await h.store.agencies.settings(h.agencyId), alertWebhookUrl: url });
    return h.store.alerts.record(h.agencyId, 'run.failed', { callId: 'call_x', outcome: 'SUCCESS' });
  };

  it('to a public address: delivered over the guarded client, signed, after a real failed run', async () => {
    const set = await h.api('PATCH', '/api/agency', { body: { alertWebhookUrl: pub.url('/hooks/alerts') } });
    expect(set.status, set.text).toBe(200);
    const c = await createProjectAgentCampaign(h);
    await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/outcomes/SUCCESS/nodes`, { body: { nodes: [{ type: 'book-appointment', config: { durationMinutes: 30 } }] } });
    const e = callEnded(c.campaignId, { disposition: 'SUCCESS', fields: [{ key: 'appointment_time', value: '2031-01-01T15:00:00Z' }] });
    await postCallEvent(h, e);
    expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'failed' });
    const delivery = await waitFor('the alert at the public host', () => pub.received.find((r) => r.path === '/hooks/alerts' && JSON.parse(r.body).callId === e.call.callId));
    const [t, v1] = delivery.headers['x-signature']!.split(',').map((p) => p.split('=')[1]);
    expect(createHmac('sha256', (await h.store.agencies.get(h.agencyId))!.signingSecret).update(`${t}.${delivery.body}`).digest('hex')).toBe(v1);
    const alert = await waitFor('the alert marked delivered', async () => (await h.store.alerts.list(h.agencyId, 10)).find((a) => a.id === JSON.parse(delivery.body).id && a.deliveredAt));
    expect(alert.lastError).toBeNull();
  });

  it('to an internal address stored anyway: refused at delivery, nothing sent, the reason a class only', async () => {
    for (const [url, reason] of internalUrls()) {
      const id = await alertTo(url);
      await expect(activities().deliverAlertWebhook({ agencyId: h.agencyId, alertId: id })).rejects.toThrow(`the alert URL was refused: ${reason}`);
      const alert = (await h.store.alerts.get(h.agencyId, id))!;
      expect(alert).toMatchObject({ attempts: 1, deliveredAt: null, lastError: `the alert URL was refused: ${reason}` });
    }
    expect(internalHits).toBe(0);
  });

  it('to a name that resolved publicly when saved and to loopback since (DNS rebinding): refused', async () => {
    let answer = pub.address;
    const resolve: Resolve = async () => [{ address: answer, family: 4 }];
    const client = outboundClient({ allowPrivate: false, resolve });
    const url = `http://rebind.example.test:${internalPort}/internal-admin`;
    expect(await client.check(url)).toBeNull();
    answer = '127.0.0.1';
    expect(await client.check(url)).toBe('loopback address');
    const id = await alertTo(url);
    await expect(activities(resolve).deliverAlertWebhook({ agencyId: h.agencyId, alertId: id })).rejects.toThrow('refused: loopback address');
    // A name with one public and one internal answer is refused too: either could be the one connected to.
    const mixed: Resolve = async () => [{ address: pub.address, family: 4 }, { address: '10.0.0.7', family: 4 }];
    await expect(activities(mixed).deliverAlertWebhook({ agencyId: h.agencyId, alertId: await alertTo('http://mixed.example.test/') })).rejects.toThrow('refused: private address');
    expect(internalHits).toBe(0);
  });

  it('a redirect to loopback is not followed: the attempt records the status only', async () => {
    const target = `http://127.0.0.1:${internalPort}/internal-admin`;
    const id = await alertTo(pub.url(`/redirect?to=${encodeURIComponent(target)}`));
    const before = pub.received.length;
    await expect(activities().deliverAlertWebhook({ agencyId: h.agencyId, alertId: id })).rejects.toThrow('the alert URL answered 302');
    // The receiver's log line travels through a pipe: wait for it rather than race it.
    await waitFor('the public host to log the POST', () => pub.received.length > before || undefined);
    expect(pub.received.slice(before).map((r) => [r.method, r.path.split('?')[0]])).toEqual([['POST', '/redirect']]);
    expect((await h.store.alerts.get(h.agencyId, id))!.lastError).toBe('the alert URL answered 302');
    expect(internalHits).toBe(0);
  });

  it('a public address that refuses the connection: the reason names no address or port', async () => {
    const id = await alertTo(`http://${pub.address}:8081/hooks`);
    await expect(activities().deliverAlertWebhook({ agencyId: h.agencyId, alertId: id })).rejects.toThrow();
    const { lastError } = (await h.store.alerts.get(h.agencyId, id))!;
    expect(lastError).toBe('the alert URL could not be reached: connection refused');
    const listed = await h.api('GET', '/api/agency/alerts');
    expect(listed.text).not.toContain(String(internalPort));
  });
});
