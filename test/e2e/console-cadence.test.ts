/**
 * Cadence status, in Chromium against the real app and a real Temporal worker, with a voice
 * platform the test drives: a speed-to-lead + power-dialer campaign with a three-step cadence and
 * a two-hour calling window read in each lead's own zone. Contacts are enrolled from the page (one
 * given by its fields, one by its id); one is called at once and its voicemail moves it to the
 * second step, one in Tokyo is parked until the window opens on Tokyo's clock, one is being
 * called. The page shows the leads per step and parked, each next call on the governing zone's
 * clock and why then; the search narrows the lists; a lead is removed; a refused enrolment says why.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { callEnded, postCallEvent } from '../helpers/events.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { dialerCampaign, fakeVoice, waitFor, type PlacedCall } from '../helpers/power-dialer.js';
import { expectBrowserErrors, newPage, shot, signIn } from './editor-page.js';
import { consoleReady } from './console-page.js';

let h: Harness;
let browser: Browser;
const voice = fakeVoice();
let d: Awaited<ReturnType<typeof dialerCampaign>>;
const H = new Date().getUTCHours();
const opening = `${String(H).padStart(2, '0')}:00`;

beforeAll(async () => {
  h = await createHarness({ temporal: true, voice: voice.platform });
  browser = await launchBrowser();
  d = await dialerCampaign(h, {
    dialing: 's2l_pd',
    steps: [{ delayMinutes: 0, label: 'Call now' }, { delayMinutes: 240, label: 'After 4 hours' }, { delayMinutes: 0, at: '10:00', dayOffset: 1 }],
    // Open now in UTC, for two hours every day; shut in Tokyo (UTC+9) at this moment.
    callingWindow: { days: [1, 2, 3, 4, 5, 6, 7], start: `${H}:00`, end: `${(H + 2) % 24}:00`, tz: 'UTC' },
  });
  const mtc = await h.api('PATCH', `/api/agent-builder/projects/${d.locationId}/campaigns/${d.campaignId}`, { body: { multipleTimezoneCheck: true } });
  expect(mtc.status, mtc.text).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** The platform reports the end of a call through the signed events endpoint. */
async function end(call: PlacedCall, disposition: string) {
  const event = callEnded(call.campaignId, { callId: call.callId, disposition, contactId: call.contactId, phoneNumber: call.to });
  const r = await postCallEvent(h, { ...event, call: { ...event.call, leadId: call.leadId } });
  expect(r.status, r.text).toBe(202);
}

const count = (page: import('playwright-core').Page, list: string) => page.getByTestId(`${list}-count`).textContent();

describe('cadence status', () => {
  it('shows leads per step and parked, each next call on its zone’s clock and why; searches, enrols and removes', async () => {
    const page = await newPage(browser);
    await page.goto(`${h.url}/editor/projects/${d.locationId}/campaigns/${d.campaignId}/cadence`);
    await signIn(page, h.adminKey);
    await consoleReady(page);
    await page.getByTestId('parked-count').filter({ hasText: '0' }).waitFor();
    await expect(page.getByTestId('cadence-windows').textContent()).resolves.toBe(`every day ${H}:00–${(H + 2) % 24}:00 (UTC)`);
    await shot(page, 'console-cadence-empty');

    // Ana, given by her fields: called at once; her voicemail moves her to the second attempt.
    await page.getByTestId('enrol-firstName').fill('Ana');
    await page.getByTestId('enrol-lastName').fill('Lopez');
    await page.getByTestId('enrol-phone').fill('+15125550101');
    await page.getByTestId('enrol-timezone').fill('UTC');
    await expect(page.getByTestId('enrol-tags').inputValue()).resolves.toBe(d.activeTag);
    const enrolled = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/power-dialer/leads'));
    await page.getByTestId('enrol-submit').click();
    const ana = ((await (await enrolled).json()) as { data: { _id: string } }).data._id;
    await page.getByTestId('enrol-result').filter({ hasText: 'Enrolled: Ana Lopez, attempt 1' }).waitFor();
    await end(await voice.call(ana, 1), 'VOICEMAIL');
    await waitFor('Ana at the second attempt', async () => (await h.store.leads.get(h.agencyId, ana))?.cadenceStep === 1 && (await h.store.leads.get(h.agencyId, ana))?.callStatus === 'scheduled');

    // Kenji, a contact of the CRM by id, in Tokyo: the window is shut on his clock, so he is parked.
    const kenji = await h.store.crm.createContact(h.agencyId, { locationId: d.locationId, firstName: 'Kenji', lastName: 'Sato', fullName: 'Kenji Sato', phone: '+15125550102', timezone: 'Asia/Tokyo', tags: [d.activeTag] });
    await page.getByTestId('enrol-mode-known').check();
    await page.getByTestId('enrol-contact-id').fill(kenji.id);
    await page.getByTestId('enrol-submit').click();
    await page.getByTestId('enrol-result').filter({ hasText: 'Kenji Sato' }).waitFor();
    const kenjiLead = await waitFor('Kenji parked', async () => (await h.store.leadSearch.page({ agencyId: h.agencyId, mode: 'parked', limit: 10, offset: 0, campaignIds: [d.campaignId] })).leads[0]);

    // Cy, enrolled over the API, is being called now.
    const cy = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId: d.campaignId, contact: { firstName: 'Cy', lastName: 'Young', phone: '+15125550103', timezone: 'UTC', tags: [d.activeTag] } } });
    expect(cy.status, cy.text).toBe(200);
    const cyId: string = cy.body.data._id;
    await voice.call(cyId, 1);
    await waitFor('Cy calling', async () => (await h.store.leads.get(h.agencyId, cyId))?.callStatus === 'calling');

    await page.reload();
    await page.getByTestId(`lead-${kenjiLead.id}`).waitFor();
    await expect(count(page, 'step-0')).resolves.toBe('1');
    await expect(count(page, 'step-1')).resolves.toBe('1');
    await expect(count(page, 'step-2')).resolves.toBe('0');
    await expect(count(page, 'parked')).resolves.toBe('1');
    await page.locator(`[data-testid="step-0"] [data-testid="lead-${cyId}"][data-status="calling"]`).waitFor();

    // Ana: the second attempt, four hours after the first, moved to the window's next opening (UTC).
    const anaRow = (await h.store.leads.get(h.agencyId, ana))!;
    const anaNext = page.getByTestId(`next-${ana}`);
    await expect(anaNext.getAttribute('datetime')).resolves.toBe(anaRow.nextCallTime);
    await expect(anaNext.getAttribute('data-zone')).resolves.toBe('UTC');
    await expect(anaNext.getAttribute('data-local')).resolves.toBe(opening);
    await expect(page.getByTestId(`why-${ana}`).textContent()).resolves.toBe(
      `attempt 2 of 3: 4 hours after the previous attempt (“After 4 hours”); the calling window every day ${H}:00–${(H + 2) % 24}:00 (UTC) opens then.`,
    );
    // Kenji: parked until the window opens on Tokyo's clock, his own zone.
    const kenjiNext = page.getByTestId(`next-${kenjiLead.id}`);
    await expect(kenjiNext.getAttribute('datetime')).resolves.toBe(kenjiLead.nextCallTime);
    await expect(kenjiNext.getAttribute('data-zone')).resolves.toBe('Asia/Tokyo');
    await expect(kenjiNext.getAttribute('data-local')).resolves.toBe(opening);
    await expect(page.getByTestId(`zone-${kenjiLead.id}`).textContent()).resolves.toBe('Asia/Tokyo: the lead’s own zone (multiple time zones on)');
    await expect(page.getByTestId(`why-${kenjiLead.id}`).textContent()).resolves.toMatch(/^speed-to-lead call \(attempt 1 of 3\) waiting for the calling window; the calling window every day .* opens then\.$/);
    await shot(page, 'console-cadence');

    // The lists' search.
    await page.getByTestId('lead-search').fill('kenji');
    await page.getByTestId('lead-search-submit').click();
    await page.getByTestId('step-1-count').filter({ hasText: '0' }).waitFor();
    await expect(count(page, 'parked')).resolves.toBe('1');
    await expect(count(page, 'step-0')).resolves.toBe('0');
    await page.getByTestId('lead-search').fill('');
    await page.getByTestId('lead-search-submit').click();
    await page.getByTestId('step-1-count').filter({ hasText: '1' }).waitFor();

    // Remove Cy: gone from the list and from the API.
    await page.getByTestId(`lead-remove-${cyId}`).click();
    await page.getByTestId('lead-remove-confirm').click();
    await page.getByTestId(`lead-${cyId}`).waitFor({ state: 'detached' });
    await expect(count(page, 'step-0')).resolves.toBe('0');
    expect((await h.api('GET', `/api/power-dialer/leads/${cyId}`)).status).toBe(404);

    // A contact without the campaign's tag is refused, and the page says why.
    await page.getByTestId('enrol-mode-new').check();
    await page.getByTestId('enrol-firstName').fill('Dee');
    await page.getByTestId('enrol-phone').fill('+15125550104');
    await page.getByTestId('enrol-tags').fill('someone-else');
    await page.getByTestId('enrol-submit').click();
    await expect(page.getByTestId('enrol-failure').textContent()).resolves.toMatch(/Could not enrol this contact: .*activeTags/);
    expectBrowserErrors(page, [/409/]);
    await shot(page, 'console-cadence-refused');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId(`lead-${ana}`).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'console-cadence-narrow');
  });

  it('a project_user key reads its project’s cadence status without enrol or remove', async () => {
    const key = await h.key({ role: 'project_user', scopes: ['projects:read', 'power_dialer:read'], projectIds: [d.projectId] });
    const page = await newPage(browser);
    await page.goto(`${h.url}/editor/projects/${d.locationId}/campaigns/${d.campaignId}/cadence`);
    await signIn(page, key);
    await page.getByTestId('step-1-count').filter({ hasText: '1' }).waitFor();
    await expect(page.locator('[data-testid^="lead-remove-"]').count()).resolves.toBe(0);
    await expect(page.getByTestId('enrol-form').count()).resolves.toBe(0);
    await shot(page, 'console-cadence-project-user');
    expectBrowserErrors(page, [/403/]);
  });
});
