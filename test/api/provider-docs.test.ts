/**
 * docs/providers.md read as a newcomer would, each claim run against the product: the body it
 * gives for a reconnect (GoHighLevel fake), the Vapi server URL it says a PUBLIC_URL gives (Vapi
 * fake), the stored transcript of its example messages, both units of `x-timestamp`, and the
 * demo's caller ID and what switching the demo to Vapi takes.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { loadConfig } from '../../server/config.js';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';
import { mapEndOfCallReport } from '../../server/adapters/vapi/server-messages.js';
import { seedDemo, DEMO_AGENCY } from '../../server/domain/seed.js';
import { chooseCallerId } from '../../engine/cadence/index.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/providers.md'), 'utf8');
const dialerDoc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/power-dialer.md'), 'utf8');
const TOKEN = 'pit-provider-docs-token-0123456789';
const VAPI_SECRET = 'vsec_provider-docs-secret-0123456';

/** `-d '<json>'` of each curl to a URL matching `url` in the docs. */
const curlBodies = (url: RegExp) =>
  [...doc.matchAll(/curl -X (\w+) (\$API.+?) -H[^\n]*\\\n\s*-d '([^']+)'/g)].filter((m) => url.test(m[2]!)).map((m) => JSON.parse(m[3]!) as Record<string, unknown>);

/**
 * The bodies the docs tell a reader to send to reconnect: its own examples, and the connect
 * example's when they say a reconnect takes "the same body".
 */
function reconnectBodies() {
  const own = curlBodies(/\/reconnect$/);
  const same = /\/reconnect`[^.]*the same body/.test(doc) ? curlBodies(/\/api\/v2\/projects$/) : [];
  return [...own, ...same];
}

/** Replaces the docs' `<placeholders>` in a body. */
const fill = (body: unknown, values: Record<string, string>): unknown => JSON.parse(JSON.stringify(body).replace(/<([^>]+)>/g, (_m, name: string) => values[name] ?? `<${name}>`));

let ghl: GohighlevelFake;
let vapi: VapiFake;
let h: Harness;
const publicUrlExample = (() => {
  const m = /`PUBLIC_URL=([^`]+)`\s+the\s+agency\s+`([^`]+)`\s+gets\s+`([^`]+)`/.exec(doc);
  return m ? { publicUrl: m[1]!, agencyId: m[2]!, serverUrl: m[3]! } : null;
})();

beforeAll(async () => {
  ghl = await startGohighlevelFake({ token: TOKEN });
  vapi = await startVapiFake();
  // As an operator would set it, with a trailing slash.
  const { publicUrl } = loadConfig(publicUrlExample ? { PUBLIC_URL: `${publicUrlExample.publicUrl}/` } : {});
  h = await createHarness({ config: { gohighlevelBaseUrl: ghl.url, vapiBaseUrl: vapi.url, publicUrl, defaultPlanLimit: 20 } });
});
afterAll(async () => {
  await h?.close();
  await ghl?.close();
  await vapi?.close();
});

describe('docs/providers.md against the product', () => {
  it('the body it gives for a reconnect moves a sandbox project onto the real location', async () => {
    const bodies = reconnectBodies();
    expect(bodies.length).toBeGreaterThan(0);
    for (const example of bodies) {
      const seeded = seedLocation(ghl);
      const sandbox = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seeded.locationId } });
      expect(sandbox.status, sandbox.text).toBe(200);
      const body = fill(example, { 'location id': seeded.locationId, 'private integration token': TOKEN });
      const r = await h.api('POST', `/api/v2/projects/${sandbox.body.data.id}/reconnect`, { body });
      expect(r.status, `${JSON.stringify(body)} -> ${r.text}`).toBe(200);
      expect(r.body.data).toMatchObject({ id: sandbox.body.data.id, crm_a: { id: seeded.locationId, name: 'Sunrise Dental' }, status: 'live' });
    }
    // What it says is refused there is refused, by name.
    const other = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'loc_docs_refused' } });
    const refused = await h.api('POST', `/api/v2/projects/${other.body.data.id}/reconnect`, { body: { crm: 'crm_a', locationId: 'loc_docs_refused', credentials: { token: TOKEN } } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^body\.(crm|locationId) is not an allowed property/);
  });

  it('the Vapi server URL is PUBLIC_URL as set, scheme included, as its example says', async () => {
    if (!publicUrlExample) throw new Error('docs/providers.md gives no example of a server URL built from PUBLIC_URL');
    expect(publicUrlExample.publicUrl).toMatch(/^https:\/\//);
    await h.store.agencies.ensure(publicUrlExample.agencyId, 'Acme', 3);
    const key = await h.key({ agencyId: publicUrlExample.agencyId });
    const r = await h.api('PUT', '/api/agency/credentials/vapi', { key, body: { apiKey: vapi.apiKey } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.serverUrl).toBe(publicUrlExample.serverUrl);
  });

  it('its example messages are stored as the transcript it shows', () => {
    const messages = JSON.parse(/these messages\n\n```json\n([\s\S]+?)```/.exec(doc)![1]!);
    const stored = /are stored as\n\n```text\n([\s\S]+?)\n```/.exec(doc)![1]!;
    const report = {
      type: 'end-of-call-report', endedReason: 'customer-ended-call', endedAt: '2026-03-02T15:05:00.000Z', startedAt: '2026-03-02T15:04:00.000Z',
      call: { id: 'c0ffee00-0000-4000-8000-0000000000d0' }, customer: { number: '+15125550123' }, artifact: { messages },
    };
    const mapped = mapEndOfCallReport(report, { outcomeField: 'outcome', campaignId: 'cmp_docs' });
    expect(mapped.event.call.transcript).toBe(stored);
    expect(doc).not.toMatch(/transcript \(`AI:` \/ `User:` turns\)/);
  });

  it('x-timestamp in seconds and in milliseconds, as it and the OpenAPI document say, are both accepted', async () => {
    expect(doc).toMatch(/Unix seconds\s+and Unix milliseconds are both accepted/);
    const api = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    expect(api.components.securitySchemes.vapiSignature.description).toMatch(/seconds or in milliseconds/);
    expect(api.paths['/api/events/vapi/{agencyId}'].post.description).toMatch(/seconds or milliseconds/);
    await h.services.credentials.put(h.agencyId, 'agency', 'vapi', { apiKey: 'vapi-private-key-docs', serverSecret: VAPI_SECRET, secretKind: 'hmac' });
    for (const timestamp of [String(Math.floor(Date.now() / 1000)), String(Date.now())]) {
      const raw = JSON.stringify({ message: { type: 'status-update', status: 'in-progress' } });
      const signature = createHmac('sha256', VAPI_SECRET).update(`${timestamp}.${raw}`).digest('hex');
      const r = await h.api('POST', `/api/events/vapi/${h.agencyId}`, { key: null, rawBody: raw, headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-timestamp': timestamp } });
      expect(r.status, `${timestamp}: ${r.text}`).toBe(200);
    }
  });

  it("the demo carries the caller ID the docs name, and the docs' Vapi steps for the demo leave the dialer a Vapi number", async () => {
    const named = /sandbox number \((\+\d+) on a fresh\s+data directory/.exec(doc)![1]!;
    expect(dialerDoc).toContain(`${named} on a fresh data directory`);
    const seeded = (await seedDemo({ store: h.store, planLimit: 3 }))!;
    const demo = (m: string, p: string, body?: unknown) => h.api(m, p, { key: seeded.adminKey, ...(body !== undefined && { body }) });
    const campaign = (await demo('GET', '/api/agent-builder/projects/loc_bright_smile/campaigns')).body.data[0];
    expect(campaign.fromNumbers).toEqual([named]);
    expect(await h.store.phoneNumbers.get(DEMO_AGENCY, named)).toMatchObject({ phoneNumber: named });
    expect(await h.store.phoneNumbers.ownedElsewhere(h.agencyId, named)).toBe(true);
    // The demo's lead (Ana, 512) is called from it.
    expect(chooseCallerId(campaign.fromNumbers, '+15125550123')).toBe(named);

    // Step 3 for the demo: register and assign a Vapi number, then take the sandbox one off.
    const vapiNumber = /`PUT \/api\/agent-builder\/phone-numbers\/(\+\d+)`/.exec(doc)![1]!;
    expect((await demo('PUT', `/api/agent-builder/phone-numbers/${encodeURIComponent(vapiNumber)}`, { vapiPhoneNumberId: 'd1a2b3c4-0000-4000-8000-0000000000f1' })).status).toBe(200);
    expect((await demo('POST', `/api/agent-builder/phone-numbers/${encodeURIComponent(vapiNumber)}/assign`, { campaignId: campaign.id })).status).toBe(200);
    const both = (await demo('GET', '/api/agent-builder/projects/loc_bright_smile/campaigns')).body.data[0].fromNumbers;
    // Why the docs say to take it off: left in the pool, the sandbox number is still chosen.
    expect(chooseCallerId(both, '+15125550123')).toBe(named);
    const deletePath = new RegExp(`\`DELETE (/api/agent-builder/phone-numbers/\\${named}/campaigns/)<campaign id>\``).exec(doc)![1]!;
    const off = await demo('DELETE', `${deletePath.replace(named, encodeURIComponent(named))}${campaign.id}`);
    expect(off.status, off.text).toBe(200);
    const left = (await demo('GET', '/api/agent-builder/projects/loc_bright_smile/campaigns')).body.data[0].fromNumbers;
    expect(left).toEqual([vapiNumber]);
    expect(chooseCallerId(left, '+15125550123')).toBe(vapiNumber);
  });
});
