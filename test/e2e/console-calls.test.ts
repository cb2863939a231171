/**
 * The calls pages, in Chromium against the real app and a real Temporal worker: the list with the
 * spec's filters (outcome, campaign, dates, not reviewed yet), a call's page (outcome, summary,
 * transcript as turns, recording linked only when it is a web address, recorded fields, length and
 * cost), its post-call run opening in the editor with the path painted, and the editor's run view
 * linking back. A project_user key sees its own project's calls only.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { canvasReady, expectBrowserErrors, newAgent, newPage, shot, signIn, wfPath } from './editor-page.js';
import { consoleReady } from './console-page.js';

let h: Harness;
let browser: Browser;
let a: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let other: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let b: { agentId: string; campaignId: string };
const TRANSCRIPT = ['Agent: Hi Ana, this is Bright Smile Dental.', 'Lead: Oh, hi. Can you call me back tomorrow?', 'Agent: Of course.', 'Around three?'].join('\n');
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const ids = { recent: '', callback: '', old: '', elsewhere: '' };

async function call(campaignId: string, over: Record<string, unknown>, opts: Parameters<typeof callEnded>[1] = {}) {
  const base = callEnded(campaignId, opts);
  const event = { ...base, call: { ...base.call, ...over } };
  const r = await postCallEvent(h, event);
  expect(r.status, r.text).toBe(202);
  return event.call.callId;
}

beforeAll(async () => {
  h = await createHarness({ temporal: true });
  browser = await launchBrowser();
  a = await createProjectAgentCampaign(h);
  b = await newAgent(h, a.locationId, 'Reactivation desk');
  other = await createProjectAgentCampaign(h);
  const put = await h.api('PUT', wfPath(a.agentId), {
    body: { nodes: [{ id: 'n1', type: 'add-tag', config: { tags: ['vm-left'] } }], edges: [], dispositionEntries: { VOICEMAIL: 'n1' }, expectedVersion: 0 },
  });
  expect(put.status, put.text).toBe(200);
  ids.recent = await call(a.campaignId, { dateTime: ago(60), duration: 125, cost: 0.1234, transcript: TRANSCRIPT, recordingUrl: 'https://recordings.example.com/c1.mp3' }, {
    disposition: 'VOICEMAIL',
    callSummary: 'Ana asked to be called back tomorrow around three.',
    fields: [{ key: 'callback_time', value: '2031-03-04T15:00:00Z' }, { key: 'interested', value: true }],
  });
  ids.callback = await call(b.campaignId, { dateTime: ago(120), recordingUrl: 'javascript:alert(document.domain)' }, { disposition: 'CALLBACK', leadName: 'Ben Ode' });
  ids.old = await call(a.campaignId, { dateTime: ago(3 * 24 * 60) }, { disposition: 'NO_ACTION', leadName: 'Cy Old' });
  ids.elsewhere = await call(other.campaignId, { dateTime: ago(30) }, { disposition: 'VOICEMAIL', leadName: 'Dee Elsewhere' });
  await expect(awaitRun(h, ids.recent)).resolves.toMatchObject({ status: 'succeeded' });
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const rows = (page: Page) => page.locator('[data-testid^="call-row-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('call-row-'.length)));
const day = (minutesAgo: number) => {
  const d = new Date(Date.now() - minutesAgo * 60_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('calls', () => {
  it('lists calls newest first and filters them by outcome, campaign, dates and not reviewed', async () => {
    const page = await newPage(browser);
    await page.goto(`${h.url}/editor/calls`);
    await signIn(page, h.adminKey);
    await consoleReady(page);
    await page.getByTestId(`call-row-${ids.old}`).waitFor();
    expect(await rows(page)).toEqual([ids.elsewhere, ids.recent, ids.callback, ids.old]);
    await expect(page.getByTestId(`call-row-${ids.recent}`).textContent()).resolves.toMatch(/Ana Lopez.*Voicemail.*2:05.*\$0\.12.*No/);
    await shot(page, 'console-calls');

    await page.getByTestId('filter-outcome').selectOption('VOICEMAIL');
    await page.waitForURL(/disposition=VOICEMAIL/);
    await expect.poll(() => rows(page)).toEqual([ids.elsewhere, ids.recent]);
    await page.getByTestId('filter-campaign').selectOption(a.campaignId);
    await expect.poll(() => rows(page)).toEqual([ids.recent]);
    await page.getByTestId('filter-outcome').selectOption('');
    await expect.poll(() => rows(page)).toEqual([ids.recent, ids.old]);
    await page.getByTestId('filter-from').fill(day(24 * 60));
    await expect.poll(() => rows(page)).toEqual([ids.recent]);
    await page.getByTestId('filter-outcome').selectOption('TRANSFER');
    await page.getByTestId('calls-empty').filter({ hasText: 'No call matches these filters.' }).waitFor();
    await shot(page, 'console-calls-empty');

    // A filtered list is a link: the filters come back from the URL.
    await page.goto(`${h.url}/editor/calls?campaignId=${b.campaignId}`);
    await expect.poll(() => rows(page)).toEqual([ids.callback]);
    await expect(page.getByTestId('filter-campaign').inputValue()).resolves.toBe(b.campaignId);

    // Not reviewed yet: a call marked reviewed leaves the list (the API's excludeReviewed).
    expect((await h.api('PATCH', `/api/call-history/by-call-id/${ids.callback}`, { body: { reviewed: true } })).status).toBe(200);
    await page.goto(`${h.url}/editor/calls`);
    await page.getByTestId(`call-row-${ids.callback}`).waitFor();
    const listed = page.waitForRequest((r) => r.url().includes('/api/call-history?') && r.url().includes('excludeReviewed=true'));
    await page.getByTestId('filter-unreviewed').check();
    await listed;
    await expect.poll(() => rows(page)).toEqual([ids.elsewhere, ids.recent, ids.old]);
  });

  it('shows a call: outcome, summary, transcript as turns, recording, fields, length and cost; its run opens on the canvas and links back', async () => {
    const page = await newPage(browser);
    await page.goto(`${h.url}/editor/calls`);
    await signIn(page, h.adminKey);
    await page.getByTestId(`call-link-${ids.recent}`).click();
    await page.getByTestId('call-page').waitFor();
    await page.getByTestId('transcript').waitFor();
    await expect(page.locator('h1').textContent()).resolves.toMatch(/Ana Lopez\s*Voicemail/);
    await expect(page.getByTestId('call-summary').textContent()).resolves.toBe('Ana asked to be called back tomorrow around three.');
    const turns = await page.getByTestId('turn').evaluateAll((els) => els.map((e) => [e.getAttribute('data-speaker'), e.querySelector('.turn-text')!.textContent]));
    expect(turns).toEqual([
      ['agent', 'Hi Ana, this is Bright Smile Dental.'],
      ['lead', 'Oh, hi. Can you call me back tomorrow?'],
      ['agent', 'Of course.\nAround three?'],
    ]);
    await expect(page.getByTestId('call-recording-link').getAttribute('href')).resolves.toBe('https://recordings.example.com/c1.mp3');
    await expect(page.getByTestId('call-recording-link').getAttribute('rel')).resolves.toBe('noopener noreferrer');
    await expect(page.getByTestId('call-field-callback_time').textContent()).resolves.toBe('2031-03-04T15:00:00Z');
    await expect(page.getByTestId('call-field-interested').textContent()).resolves.toBe('true');
    await expect(page.getByTestId('call-duration').textContent()).resolves.toBe('2:05');
    await expect(page.getByTestId('call-cost').textContent()).resolves.toBe('$0.12');
    const run = (await h.store.executions.firstOfCall(h.agencyId, ids.recent))!;
    await page.locator(`[data-testid="call-run-${run.id}"][data-status="succeeded"]`).waitFor();
    await expect(page.getByTestId(`call-run-${run.id}`).textContent()).resolves.toContain('Adds tag vm-left');
    await shot(page, 'console-call');

    // Marked reviewed: stored.
    await page.getByTestId('call-reviewed').click();
    await page.locator('[data-testid="call-reviewed"][aria-pressed="true"]').waitFor();
    expect((await h.api('GET', `/api/call-history/by-call-id/${ids.recent}`)).body.data.reviewed).toBe(true);

    // The run on the canvas, its path painted; the run view links back to the call.
    await page.getByTestId(`call-run-link-${run.id}`).click();
    await canvasReady(page);
    await page.locator('[data-testid="node-n1"][data-status="succeeded"]').waitFor();
    expect(new URL(page.url()).searchParams.get('run')).toBe(run.id);
    await shot(page, 'console-call-run-on-canvas');
    await page.getByTestId('run-call-link').click();
    await page.getByTestId('call-page').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/editor/calls/${ids.recent}`);

    // A recording URL that is not a web address is shown as text, never as a link.
    await page.goto(`${h.url}/editor/calls/${ids.callback}`);
    await expect(page.getByTestId('call-recording').textContent()).resolves.toContain('Not a web address, so not linked: javascript:alert(document.domain)');
    await expect(page.locator('a[href^="javascript"]').count()).resolves.toBe(0);
    // Its campaign has no workflow: its run did nothing, and says so.
    const idle = (await h.store.executions.firstOfCall(h.agencyId, ids.callback))!;
    await page.locator(`[data-testid="call-run-${idle.id}"][data-status="succeeded"]`).waitFor();
    await expect(page.getByTestId(`call-run-${idle.id}`).textContent()).resolves.toContain('No step ran: this outcome had nothing to do on that version.');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${h.url}/editor/calls/${ids.recent}`);
    await page.getByTestId('transcript').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'console-call-narrow');
  });

  it('a project_user key sees only its project’s calls; another project’s call is not found', async () => {
    const key = await h.key({ role: 'project_user', scopes: ['projects:read', 'calls:read', 'workflows:read'], projectIds: [a.projectId] });
    const page = await newPage(browser);
    await page.goto(`${h.url}/editor/calls`);
    await signIn(page, key);
    await page.getByTestId(`call-row-${ids.old}`).waitFor();
    expect(await rows(page)).toEqual([ids.recent, ids.callback, ids.old]);
    await page.goto(`${h.url}/editor/calls/${ids.elsewhere}`);
    await expect(page.getByTestId('failure').textContent()).resolves.toContain(`Could not read call ${ids.elsewhere}: call ${ids.elsewhere} not found`);
    await page.goto(`${h.url}/editor/calls/${ids.recent}`);
    const run = (await h.store.executions.firstOfCall(h.agencyId, ids.recent))!;
    await page.getByTestId(`call-run-${run.id}`).waitFor();
    await shot(page, 'console-calls-project-user');
    expectBrowserErrors(page, [/403/, /404/]);
  });
});
