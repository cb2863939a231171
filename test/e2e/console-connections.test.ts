/**
 * The connections pages, in Chromium against the real app, with local GoHighLevel, Twilio and
 * Vapi fakes: a location connected with its token, then disconnected when the CRM refuses it (the
 * CRM's reason and when shown) and reconnected with a new one; Twilio and Vapi accounts set, Vapi's
 * server URL and generated secret shown once with the steps to paste them (the secret then verifies
 * Vapi's messages); the signing secret shown once and rotated with a grace period. Secrets never
 * reach the browser's storage and leave the page when their panel closes.
 */
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';
import { startTwilioFake, type TwilioFake } from '../fakes/twilio-fake.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';
import { launchBrowser } from '../helpers/browser.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectBrowserErrors, newAgent, newPage, shot, signIn } from './editor-page.js';
import { consoleReady, storageHolds } from './console-page.js';

const TOKEN = 'pit-console-token-0123456789';
const NEW_TOKEN = 'pit-console-token-rotated-987654';
const TWILIO = { accountSid: `AC${'0a'.repeat(16)}`, authToken: 'twilio-auth-token-0123456789' };

let h: Harness;
let browser: Browser;
let ghl: GohighlevelFake;
let twilio: TwilioFake;
let vapi: VapiFake;

beforeAll(async () => {
  ghl = await startGohighlevelFake({ token: TOKEN });
  twilio = await startTwilioFake(TWILIO);
  vapi = await startVapiFake();
  h = await createHarness({ config: { gohighlevelBaseUrl: ghl.url, twilioBaseUrl: twilio.url, vapiBaseUrl: vapi.url } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
  await ghl?.close();
  await twilio?.close();
  await vapi?.close();
});

async function openConnections(page: Page, key = h.adminKey) {
  await page.goto(`${h.url}/editor/connections`);
  await signIn(page, key);
  await consoleReady(page);
}

describe('connections', () => {
  it('connects a GoHighLevel location with a token; shows it disconnected with the CRM’s reason and when; reconnects it', async () => {
    const { locationId } = seedLocation(ghl);
    const page = await newPage(browser);
    await openConnections(page);
    await page.getByTestId('locations-empty').waitFor();
    await shot(page, 'console-connections-empty');

    // A token GoHighLevel refuses is refused by name; nothing is connected.
    await page.getByTestId('connect-location').fill(locationId);
    await page.getByTestId('connect-token').fill('pit-not-the-token-000');
    await page.getByTestId('connect-submit').click();
    await expect(page.getByTestId('connect-failure').textContent()).resolves.toMatch(/Could not connect this location: body\.credentials was rejected by GoHighLevel/);
    expectBrowserErrors(page, [/400/]);
    await expect(page.getByTestId('connect-token').inputValue()).resolves.toBe('');

    await page.getByTestId('connect-token').fill(TOKEN);
    await page.getByTestId('connect-submit').click();
    await page.getByTestId('connected-note').filter({ hasText: 'Connected Sunrise Dental (live)' }).waitFor();
    await page.locator(`[data-testid="status-${locationId}"][data-status="live"]`).waitFor();
    const project = (await h.api('GET', `/api/v2/projects/${locationId}`)).body.data;
    expect(project).toMatchObject({ status: 'live', crm_a: { name: 'Sunrise Dental', timezone: 'America/Chicago' } });
    await expect(storageHolds(page, TOKEN)).resolves.toBe(false);

    // The location's token is revoked in GoHighLevel; the next CRM read finds it out.
    const { agentId } = await newAgent(h, locationId);
    ghl.token = NEW_TOKEN;
    expect((await h.api('GET', `/api/agent-builder/agents/${agentId}/crm/pipelines`)).status).toBeGreaterThanOrEqual(400);
    const alert = ((await h.api('GET', '/api/agency/alerts')).body.data as { kind: string; createdAt: string; payload: { projectId: string; reason: string } }[]).find(
      (a) => a.kind === 'project.disconnected' && a.payload.projectId === project.id,
    )!;
    expect(alert).toBeDefined();

    await page.reload();
    await page.locator(`[data-testid="status-${locationId}"][data-status="disconnected"]`).waitFor();
    const reason = page.getByTestId(`reason-${locationId}`);
    await expect(reason.textContent()).resolves.toContain(`The CRM answered: “${alert.payload.reason}”`);
    await expect(reason.locator('time').getAttribute('datetime')).resolves.toBe(alert.createdAt);
    await shot(page, 'console-connections-disconnected');

    // Reconnect from the project's own page, with the new token.
    await page.getByTestId(`manage-${locationId}`).click();
    await page.getByTestId('project-connection-page').waitFor();
    await page.locator(`[data-testid="status-${locationId}"][data-status="disconnected"]`).waitFor();
    await page.getByTestId('reconnect-token').fill(NEW_TOKEN);
    await shot(page, 'console-project-connection');
    await page.getByTestId('reconnect-submit').click();
    await page.locator(`[data-testid="status-${locationId}"][data-status="live"]`).waitFor();
    const after = (await h.api('GET', `/api/v2/projects/${locationId}`)).body.data;
    expect(after).toMatchObject({ id: project.id, status: 'live', crm_a: { name: 'Sunrise Dental' } });
    expect(after.disconnectedReason).toBeUndefined();
    expect((await h.api('GET', `/api/agent-builder/agents/${agentId}/crm/pipelines`)).status).toBe(200);
    await expect(storageHolds(page, NEW_TOKEN)).resolves.toBe(false);
    await shot(page, 'console-project-reconnected');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('nav-connections').click();
    await page.locator(`[data-testid="status-${locationId}"][data-status="live"]`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'console-connections-narrow');
  });

  it('sets Twilio and Vapi; Vapi’s server URL and secret are shown once with the steps; the signing secret is shown once and rotated with a grace period', async () => {
    const page = await newPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
    await openConnections(page);
    await page.locator('[data-testid="twilio-status"][data-connected="false"]').waitFor();

    // Twilio, verified with Twilio first.
    await page.getByTestId('twilio-sid').fill(TWILIO.accountSid);
    await page.getByTestId('twilio-token').fill(TWILIO.authToken);
    await page.getByTestId('twilio-submit').click();
    await page.locator('[data-testid="twilio-status"][data-connected="true"]').waitFor();
    const agency = (await h.api('GET', '/api/agency')).body.data as { credentials: { provider: string; hint: string }[] };
    const hint = agency.credentials.find((c) => c.provider === 'twilio')!.hint;
    await expect(page.getByTestId('twilio-status').textContent()).resolves.toContain(`connected ${hint}, set`);
    expect(await page.content()).not.toContain(TWILIO.authToken);

    // Vapi: the key is verified; the answer's server URL and generated secret, with the steps.
    await page.getByTestId('vapi-key').fill(vapi.apiKey);
    await page.getByTestId('vapi-submit').click();
    await page.getByTestId('vapi-answer').waitFor();
    await expect(page.getByTestId('vapi-server-url-value').inputValue()).resolves.toBe(`${h.url}/api/events/vapi/${h.agencyId}`);
    const secret = await page.getByTestId('vapi-secret-value').inputValue();
    expect(secret).toMatch(/^vsec_/);
    await expect(page.getByTestId('vapi-steps').textContent()).resolves.toMatch(/HMAC.*x-signature.*x-timestamp.*Server URL/);
    await page.getByTestId('vapi-secret-copy').click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    await expect(storageHolds(page, secret)).resolves.toBe(false);
    await shot(page, 'console-connections-vapi');

    // The secret shown is the one Vapi's messages are verified with.
    const raw = JSON.stringify({ message: { type: 'status-update', status: 'in-progress' } });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
    const verified = await h.api('POST', `/api/events/vapi/${h.agencyId}`, { key: null, rawBody: raw, headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-timestamp': timestamp } });
    expect(verified.status, verified.text).toBe(200);

    await page.getByTestId('vapi-done').click();
    await page.locator('[data-testid="vapi-status"][data-connected="true"]').waitFor();
    expect(await page.content()).not.toContain(secret);

    // Replacing it: a new secret, the old one valid for the grace period.
    await page.getByTestId('vapi-key').fill(vapi.apiKey);
    await page.getByTestId('vapi-submit').click();
    await page.getByTestId('vapi-grace').waitFor();
    expect(await page.getByTestId('vapi-secret-value').inputValue()).not.toBe(secret);
    await page.getByTestId('vapi-done').click();

    // The signing secret of our call events: once.
    await page.getByTestId('signing-reveal').click();
    const shown = await page.getByTestId('signing-secret-value').inputValue();
    expect(shown).toBe((await h.store.agencies.get(h.agencyId))!.signingSecret);
    await page.getByTestId('signing-done').click();
    expect(await page.content()).not.toContain(shown);
    await page.getByTestId('signing-reveal').click();
    await page.getByTestId('signing-already-shown').waitFor();
    expectBrowserErrors(page, [/409/]);

    // Rotated with two hours' grace: a new secret, shown once; the old one until then.
    await page.getByTestId('rotate-grace').fill('2');
    const before = Date.now();
    await page.getByTestId('rotate-submit').click();
    const rotated = await page.getByTestId('signing-secret-value').inputValue();
    expect(rotated).not.toBe(shown);
    expect(rotated).toBe((await h.store.agencies.get(h.agencyId))!.signingSecret);
    const until = Date.parse((await page.getByTestId('signing-grace').locator('time').getAttribute('datetime'))!);
    expect(until - before).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(until - before).toBeLessThan(2 * 3600_000 + 60_000);
    await expect(storageHolds(page, rotated)).resolves.toBe(false);
    await shot(page, 'console-connections-signing-rotated');
    await page.getByTestId('signing-done').click();
    expect(await page.content()).not.toContain(rotated);
  });

  it('a project_user key reaches no connections page but its project’s status', async () => {
    const { locationId } = seedLocation(ghl);
    const made = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId, credentials: { token: ghl.token } } });
    expect(made.status, made.text).toBe(200);
    const key = await h.key({ role: 'project_user', scopes: ['projects:read'], projectIds: [made.body.data.id] });
    const page = await newPage(browser);
    await openConnections(page, key);
    await expect(page.getByTestId('failure').getAttribute('data-kind')).resolves.toBe('forbidden');
    await expect(page.getByTestId('nav-connections').count()).resolves.toBe(0);
    await page.goto(`${h.url}/editor/projects/${locationId}/connection`);
    await page.locator(`[data-testid="status-${locationId}"][data-status="live"]`).waitFor();
    await expect(page.getByTestId('reconnect-form').count()).resolves.toBe(0);
    await shot(page, 'console-project-connection-project-user');
    expectBrowserErrors(page, [/403/]);
  });
});
