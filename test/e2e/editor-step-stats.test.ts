/**
 * Step statistics on the canvas (issue 40, item 6), in Chromium against the real app and a real
 * Temporal worker: real calls run the campaign's workflow (one fails at a step, two skip a draft),
 * then *Statistics* shows on each step the runs that reached it, succeeded, failed and skipped it,
 * its p50/p95 duration and its last error; the window and the graph version change what is
 * counted; the last error's link opens its run with the path painted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { newAgent, newPage, openEditor, shot, wfPath } from './editor-page.js';

let h: Harness;
let browser: Browser;
let locationId: string;
beforeAll(async () => {
  h = await createHarness({ temporal: true });
  browser = await launchBrowser();
  ({ locationId } = await createProjectAgentCampaign(h));
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

// Voicemail: tag, then a branch on the call's length; a long call books (and fails: the campaign
// has no calendar), a short one reaches a draft, which runs skip.
const GRAPH = {
  nodes: [
    { id: 'n1', type: 'add-tag', config: { tags: ['vm-left'] } },
    { id: 'n2', type: 'if', config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 30 }] } },
    { id: 'n3', type: 'book-appointment', config: { durationMinutes: 30 } },
    { id: 'n4', type: 'add-note', config: {} },
  ],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n3', sourceHandle: 'true' },
    { id: 'e3', source: 'n2', target: 'n4', sourceHandle: 'false' },
  ],
  dispositionEntries: { VOICEMAIL: 'n1' },
};

async function call(campaignId: string, duration: number) {
  const event = callEnded(campaignId, { disposition: 'VOICEMAIL' });
  event.call.duration = duration;
  expect((await postCallEvent(h, event)).status).toBe(202);
  return { callId: event.call.callId, result: await awaitRun(h, event.call.callId) };
}

const figures = (page: Page, id: string) =>
  page.getByTestId(`node-${id}-stats`).evaluate((el) => ({
    text: el.textContent,
    reached: Number(el.getAttribute('data-reached')),
    succeeded: Number(el.getAttribute('data-succeeded') ?? 0),
    failed: Number(el.getAttribute('data-failed') ?? 0),
    skipped: Number(el.getAttribute('data-skipped') ?? 0),
  }));

describe('step statistics on the canvas', () => {
  it('shows each step’s figures for a window and a version; the last error opens its run', async () => {
    const { agentId, campaignId } = await newAgent(h, locationId);
    expect((await h.api('PUT', wfPath(agentId), { body: { ...GRAPH, expectedVersion: 0 } })).status).toBe(200);
    const failing = await call(campaignId, 42);
    expect(failing.result).toMatchObject({ status: 'failed', failedNodeId: 'n3' });
    await call(campaignId, 5);
    await call(campaignId, 8);
    // Version 2 changes the tag; one more call runs it.
    expect((await h.api('PATCH', wfPath(agentId), { body: { nodes: [{ id: 'n1', config: { tags: ['voicemail-left'] } }], expectedVersion: 1 } })).status).toBe(200);
    await call(campaignId, 3);
    // A version-1 run whose first step started three days ago: in the 7-day window, not in the last 24 hours.
    const old = (await h.store.executions.firstOfCall(h.agencyId, failing.callId))!;
    const then = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await h.store.executions.create({ id: 'exe_three_days_ago', agencyId: h.agencyId, workflowId: 'wf_three_days_ago', campaignId, agentId, callId: 'call_three_days_ago', outcome: 'VOICEMAIL', graphVersion: 1 });
    h.db.prepare("INSERT INTO execution_steps (execution_id, seq, node_id, node_type, status, attempts, started_at, finished_at) VALUES ('exe_three_days_ago', 1, 'n1', 'add-tag', 'succeeded', 1, ?, ?)").run(then, then);

    const page = await newPage(browser);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/step-stats')) asked.push(new URL(r.url()).search);
    });
    await openEditor(page, h, agentId);
    await page.getByTestId('stats-toggle').click();
    await expect(page.getByTestId('stats-toggle').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect.poll(() => page.getByTestId('stats-state').textContent()).toMatch(/^Real calls' runs since /);

    // Last 7 days, every version.
    await expect(figures(page, 'n1')).resolves.toMatchObject({ reached: 5, succeeded: 5, failed: 0 });
    await expect(figures(page, 'n2')).resolves.toMatchObject({ reached: 4, text: '4 reached · 4 evaluated' });
    await expect(figures(page, 'n3')).resolves.toMatchObject({ reached: 1, succeeded: 0, failed: 1, text: '1 reached · 0 ok · 1 failed' });
    await expect(figures(page, 'n4')).resolves.toMatchObject({ reached: 3, skipped: 3, text: '3 reached · 3 skipped as a draft' });
    await expect(page.getByTestId('node-n1-stats-time').textContent()).resolves.toMatch(/^p50 [\d.]+ m?s · p95 [\d.]+ m?s$/);
    const error = page.getByTestId('node-n3-stats-error');
    await expect(error.textContent()).resolves.toContain('no calendar');
    await expect(error.getAttribute('href')).resolves.toBe(`/editor/agents/${agentId}?campaignId=${campaignId}&run=${old.id}`);
    await shot(page, 'editor-step-stats');

    // The last 24 hours leave out the run of three days ago.
    await page.getByTestId('stats-window').selectOption('24h');
    await expect.poll(() => figures(page, 'n1').then((f) => f.reached)).toBe(4);
    // Version 2 alone: one call.
    await page.getByTestId('stats-version').selectOption('2');
    await expect.poll(() => figures(page, 'n1').then((f) => f.reached)).toBe(1);
    await expect(figures(page, 'n3')).resolves.toMatchObject({ reached: 0, text: 'No run reached this step' });
    await expect(figures(page, 'n4')).resolves.toMatchObject({ reached: 1, skipped: 1 });
    // Version 1 over 30 days: the three calls and the old run.
    await page.getByTestId('stats-window').selectOption('30d');
    await page.getByTestId('stats-version').selectOption('1');
    await expect.poll(() => figures(page, 'n1').then((f) => f.reached)).toBe(4);
    await expect(figures(page, 'n3')).resolves.toMatchObject({ failed: 1 });
    expect(asked).toEqual(['?window=7d', '?window=24h', '?window=24h&version=2', '?window=30d&version=2', '?window=30d&version=1']);
    await shot(page, 'editor-step-stats-version-1');
    // A narrow window: the window and version pickers stay on screen, nothing wider than the window.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('stats-window').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const id of ['stats-window', 'stats-version']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.x, id).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, id).toBeLessThanOrEqual(390);
    }
    await shot(page, 'editor-step-stats-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The last error opens its run: the Runs tab, the path painted, the failed step marked.
    await page.getByTestId('node-n3-stats-error').click();
    await page.getByTestId('run-banner').waitFor();
    await expect(page.getByTestId('run-detail-title').textContent()).resolves.toBe(`Call ${failing.callId}: failed`);
    await expect(page.getByTestId('node-n3').getAttribute('data-status')).resolves.toBe('failed');
    await expect(page.getByTestId('node-n1').getAttribute('data-status')).resolves.toBe('succeeded');
    await expect(page.getByTestId('node-n4').getAttribute('class')).resolves.toContain('run-dim');
    await expect(page.getByTestId('node-n3-stats').count()).resolves.toBe(0);
    await shot(page, 'editor-step-stats-error-run');
    // Closing the run brings the figures back; Hide turns them off.
    await page.getByTestId('run-close').click();
    await expect.poll(() => figures(page, 'n1').then((f) => f.reached)).toBe(4);
    await page.getByTestId('stats-close').click();
    await expect(page.getByTestId('stats-bar').count()).resolves.toBe(0);
    await expect(page.getByTestId('node-n1').textContent()).resolves.toContain('+ voicemail-left');
    await page.close();
  });
});
