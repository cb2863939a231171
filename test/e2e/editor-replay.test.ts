/**
 * What-if replay in the editor (issue 40, item 7), in Chromium against the real app and a real
 * Temporal worker. Six real voicemail calls ran on version 1; version 2 changes the tag and sends
 * the SMS to more calls. Before saving an edit, *What if…* replays the calls through the saved
 * version and the edit; from History, two ticked versions are replayed, followed as they go and
 * cancelled mid-way, then run to the end: the differences in words and each call's path and
 * effects under both versions. A project connected to GoHighLevel (the fake) gets no write at all
 * from a replay, and each contact its stored run lacks is read once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { contactReads, dropStoredContacts, realCalls, V1, V2, wf } from '../helpers/replay.js';
import { seedLocation, startGohighlevelFake, type GohighlevelFake } from '../fakes/gohighlevel-fake.js';
import { applyForm, newPage, openEditor, openStep, recordWrites, shot, storedWorkflow } from './editor-page.js';

const TOKEN = 'pit-5d0c7a1e-replay-dental-token';
const reads = contactReads();
let fake: GohighlevelFake;
let h: Harness;
let browser: Browser;
let c: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let calls: string[];
/** v1 sends the SMS above 30 s (2 calls), v2 above 15 s (4 calls). */
const DURATIONS = [10, 20, 25, 40, 50, 5];

beforeAll(async () => {
  fake = await startGohighlevelFake({ token: TOKEN });
  h = await createHarness({ temporal: true, ports: (base) => reads.ports(base), config: { gohighlevelBaseUrl: fake.url, defaultPlanLimit: 10 } });
  browser = await launchBrowser();
  c = await createProjectAgentCampaign(h);
  expect((await h.api('PUT', wf(c.agentId), { body: { ...V1, expectedVersion: 0 } })).status).toBe(200);
  calls = await realCalls(h, c.campaignId, DURATIONS);
  expect((await h.api('PUT', wf(c.agentId), { body: { ...V2, expectedVersion: 1 } })).status).toBe(200);
});
afterAll(async () => {
  reads.release();
  await browser?.close();
  await h?.close();
  await fake?.close();
});

const status = (page: Page) => page.getByTestId('replay-status').textContent();
const summary = (page: Page) => page.locator('[data-testid="replay-summary"] li').allTextContents();

describe('what-if replay in the editor', () => {
  it('before saving: replays the calls through the saved version and the edit, and saves nothing', async () => {
    const page = await newPage(browser);
    const writes = recordWrites(page);
    const bodies: { fromVersion?: number; graph?: { nodes: { id: string; config: Record<string, unknown> }[] } }[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/workflow/replays')) bodies.push(r.postDataJSON());
    });
    await openEditor(page, h, c.agentId);
    await expect(page.getByTestId('replay-unsaved-button').isDisabled()).resolves.toBe(true);
    // The edit: tag missed-call too.
    await openStep(page, 'n1');
    await page.getByTestId('field-tags').fill('voicemail-left, missed-call');
    await applyForm(page);
    await page.getByTestId('replay-unsaved-button').click();
    await expect(page.getByTestId('replay-to').inputValue()).resolves.toBe('unsaved');
    await expect(page.getByTestId('replay-from').inputValue()).resolves.toBe('2');
    await page.getByTestId('replay-start').click();
    await expect.poll(() => status(page), { timeout: 20_000 }).toBe('Done: 6 of 6 calls would change');
    await expect(page.getByTestId('replay-title').textContent()).resolves.toBe('Version 2 → Unsaved changes');
    await expect(summary(page)).resolves.toEqual(['6 calls would now be tagged missed-call']);
    // The unsaved graph went in the request; nothing was written, the edit is still unsaved.
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.fromVersion).toBe(2);
    expect(bodies[0]!.graph!.nodes.find((n) => n.id === 'n1')!.config).toEqual({ tags: ['voicemail-left', 'missed-call'] });
    expect(writes).toEqual([`POST ${wf(c.agentId)}/replays`]);
    expect((await storedWorkflow(h, c.agentId)).version).toBe(2);
    await expect(page.getByTestId('save-status').textContent()).resolves.toBe('Unsaved changes');
    // One call's difference: the same path, one more tag.
    const row = page.getByTestId(`replay-call-${calls[3]}`);
    await expect(row.locator('.replay-call-diff').textContent()).resolves.toBe('+ tag missed-call');
    await row.getByRole('button').click();
    await expect(row.getByTestId('replay-side-after').locator('[data-effect="add-tag:missed-call"]').textContent()).resolves.toBe('+ tag missed-call');
    await expect(row.getByTestId('replay-side-before').locator('li.replay-step').allTextContents()).resolves.toEqual(['Add tag n1', 'If / else n2 → true', 'Send SMS n3']);
    await shot(page, 'editor-replay-unsaved');
    await page.close();
  });

  it('from History: two versions, followed as it goes, cancelled, then run to the end with each call’s difference', async () => {
    const page = await newPage(browser);
    await openEditor(page, h, c.agentId);
    await page.getByTestId('tab-history').click();
    await page.getByTestId('compare-1').check();
    await page.getByTestId('compare-2').check();
    // The 3rd call replayed (newest first) has lost its stored contact: its CRM read waits at a gate.
    dropStoredContacts(h, [calls[3]!]);
    const waiting = reads.hold();
    await page.getByTestId('replay-versions-button').click();
    await waiting;
    await expect.poll(() => status(page)).toBe('Replaying: 2 of 6 calls replayed');
    await expect(page.getByTestId('replay-progress').getAttribute('data-done')).resolves.toBe('2');
    await expect(page.getByTestId('replay-title').textContent()).resolves.toBe('Version 1 → Version 2');
    // What the first two calls already show.
    await expect(summary(page)).resolves.toEqual(['2 calls would now be tagged voicemail-left', '2 calls would no longer be tagged vm-left']);
    await shot(page, 'editor-replay-progress');
    await page.getByTestId('replay-cancel').click();
    await expect.poll(() => status(page)).toBe('Cancelled after 2 of 6 calls');
    reads.release();
    await expect(page.getByTestId('replay-calls').locator('li.replay-call').count()).resolves.toBe(2);

    // Again, to the end.
    await page.getByTestId('replay-new').click();
    await page.getByTestId('replay-from').selectOption('1');
    await page.getByTestId('replay-to').selectOption('2');
    await page.getByTestId('replay-start').click();
    await expect.poll(() => status(page), { timeout: 20_000 }).toBe('Done: 6 of 6 calls would change');
    await expect(summary(page)).resolves.toEqual(['6 calls would now be tagged voicemail-left', '2 calls would now get an SMS', '6 calls would no longer be tagged vm-left']);
    const row = page.getByTestId(`replay-call-${calls[1]}`);
    await expect(row.locator('.replay-call-diff').textContent()).resolves.toBe('+ tag voicemail-left · + SMS "Hi Lead 2, sorry we missed you!" · − tag vm-left');
    await row.getByRole('button').click();
    const before = row.getByTestId('replay-side-before');
    const after = row.getByTestId('replay-side-after');
    await expect(before.locator('li.replay-step').allTextContents()).resolves.toEqual(['Add tag n1', 'If / else n2 → false']);
    await expect(after.locator('li.replay-step').allTextContents()).resolves.toEqual(['Add tag n1', 'If / else n2 → true', 'Send SMS n3']);
    await expect(before.locator('.replay-effects li').allTextContents()).resolves.toEqual(['− tag vm-left']);
    await expect(after.locator('.replay-effects li').allTextContents()).resolves.toEqual(['+ tag voicemail-left', '+ SMS "Hi Lead 2, sorry we missed you!"']);
    await shot(page, 'editor-replay-versions');
    // A narrow window: the results stay readable, nothing wider than the window.
    await page.setViewportSize({ width: 390, height: 844 });
    await row.locator('.replay-call-diff').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = (await page.getByTestId('replay-calls').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.getByTestId('replay-calls').scrollIntoViewIfNeeded();
    await shot(page, 'editor-replay-narrow');
    await page.close();
  });

  it('on a project connected to GoHighLevel: no write reaches it, and a contact is read once, only for a run stored without it', async () => {
    const seeded = seedLocation(fake);
    for (let i = 1; i <= 3; i++) {
      fake.state.contacts.set(`c_more_${i}`, { ...seeded.contact, id: `c_more_${i}`, phone: `+1512555770${i}`, firstName: `Pat${i}`, tags: ['lead'], customFields: [], notes: [] });
    }
    const project = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: seeded.locationId, credentials: { token: TOKEN } } });
    expect(project.status, project.text).toBe(200);
    const agent = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Front desk', agentType: 'outreach', locationId: seeded.locationId, capabilityIds: ['appointment_booking'] } });
    const agentId = agent.body.data.id as string;
    const campaignId = agent.body.data.campaignId as string;
    expect((await h.api('PATCH', `/api/agent-builder/projects/${seeded.locationId}/campaigns/${campaignId}`, { body: { fromNumbers: ['+15125550100'] } })).status).toBe(200);
    expect((await h.api('PUT', wf(agentId), { body: { ...V1, expectedVersion: 0 } })).status).toBe(200);
    const ids = [seeded.contact.id, 'c_more_1', 'c_more_2', 'c_more_3'];
    const ghlCalls = await realCalls(h, campaignId, [40, 20, 50, 10], { contactId: (i) => ids[i]!, phone: (i) => fake.state.contacts.get(ids[i]!)!.phone! });
    // The real runs did write to the CRM: tags, and SMS for the long calls.
    expect(fake.requests.some((r) => r.method === 'POST' && r.path.endsWith('/tags'))).toBe(true);
    expect((await h.api('PUT', wf(agentId), { body: { ...V2, expectedVersion: 1 } })).status).toBe(200);
    dropStoredContacts(h, [ghlCalls[0]!, ghlCalls[2]!]);
    const contactsBefore = JSON.stringify([...fake.state.contacts.values()]);
    const mark = fake.requests.length;

    const page = await newPage(browser);
    await openEditor(page, h, agentId);
    await page.getByTestId('tab-history').click();
    await page.getByTestId('compare-1').check();
    await page.getByTestId('compare-2').check();
    await page.getByTestId('replay-versions-button').click();
    await expect.poll(() => status(page), { timeout: 20_000 }).toBe('Done: 4 of 4 calls would change');
    await expect(summary(page)).resolves.toEqual(['4 calls would now be tagged voicemail-left', '1 call would now get an SMS', '4 calls would no longer be tagged vm-left']);

    const during = fake.requests.slice(mark).map((r) => `${r.method} ${r.path}`);
    // Not one write; the only reads are the two contacts the stored runs lacked, once each.
    expect(during.filter((r) => !r.startsWith('GET '))).toEqual([]);
    expect(during.sort()).toEqual([`GET /contacts/${ids[0]}`, `GET /contacts/${ids[2]}`].sort());
    expect(JSON.stringify([...fake.state.contacts.values()])).toBe(contactsBefore);
    expect(fake.state.messages.filter((m) => m.direction === 'outbound')).toHaveLength(2); // the real runs' two SMS, none more
    await page.getByTestId('replay-show-all').check();
    await page.getByTestId(`replay-call-${ghlCalls[0]}`).getByRole('button').click();
    await expect(page.getByTestId('replay-call-detail').textContent()).resolves.toContain('it was read from the CRM, once');
    await shot(page, 'editor-replay-gohighlevel');
    await page.close();
  });
});
