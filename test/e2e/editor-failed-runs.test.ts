/**
 * Failed runs across campaigns, in Chromium against the real app and a real Temporal worker: the
 * link a failure alert carries (`/editor/agents/{id}?campaignId=…&run=…`) opens the run in the
 * editor with its path painted; the failed-runs page lists every campaign's failed runs, and the
 * selected ones are retried in bulk from their failed step (the others stay).
 *
 * The calendar refuses bookings for good until the test lets it (a CRM fault fixed meanwhile).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PermanentPortError, type Ports } from '../../engine/ports.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { canvasReady, newAgent, newPage, shot, signIn, wfPath } from './editor-page.js';

let h: Harness;
let browser: Browser;
let locationId: string;
let calendarDown = true;

beforeAll(async () => {
  h = await createHarness({
    temporal: true,
    ports: (base): Ports => ({
      ...base,
      calendar: {
        book: async (e, r) => {
          if (calendarDown) throw new PermanentPortError('calendar cal_main is not accepting bookings');
          return base.calendar.book(e, r);
        },
      },
    }),
  });
  browser = await launchBrowser();
  ({ locationId } = await createProjectAgentCampaign(h));
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** A campaign whose Success chain tags, then books: the booking fails while the calendar is down. */
async function failedRun(name: string, day: number) {
  const { agentId, campaignId } = await newAgent(h, locationId, name);
  const put = await h.api('PUT', wfPath(agentId), {
    body: {
      nodes: [
        { id: 'n1', type: 'add-tag', config: { tags: ['booking'] } },
        { id: 'n2', type: 'book-appointment', config: { calendarId: 'cal_main', durationMinutes: 30 } },
      ],
      edges: [{ id: 'e1', source: 'n1', target: 'n2' }],
      dispositionEntries: { SUCCESS: 'n1' },
      expectedVersion: 0,
    },
  });
  expect(put.status, put.text).toBe(200);
  const contact = await h.store.crm.createContact(h.agencyId, { locationId, firstName: name, phone: '+15125550123' });
  const event = callEnded(campaignId, { contactId: contact.id, disposition: 'SUCCESS', fields: [{ key: 'appointment_time', value: `2031-01-0${day}T15:00:00Z` }] });
  expect((await postCallEvent(h, event)).status).toBe(202);
  await expect(awaitRun(h, event.call.callId)).resolves.toMatchObject({ status: 'failed' });
  return { agentId, campaignId, runId: (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!.id };
}

describe('failed runs', () => {
  it('an alert link opens the run; the failed-runs page retries the selected runs from their failed step', async () => {
    const a = await failedRun('Ada', 1);
    const b = await failedRun('Ben', 2);
    const c = await failedRun('Cy', 3);
    const listed = (await h.api('GET', '/api/agent-builder/failed-runs')).body.data as { id: string; link: string }[];
    const link = new URL(listed.find((r) => r.id === a.runId)!.link);
    expect(link.search).toBe(`?campaignId=${a.campaignId}&run=${a.runId}`);

    // The alert's link: the editor opens with the run's path painted, the failed step saying why.
    const page = await newPage(browser);
    await page.goto(`${h.url}${link.pathname}${link.search}`);
    await signIn(page, h.adminKey);
    await canvasReady(page);
    await page.locator('[data-testid="node-n2"][data-status="failed"]').waitFor();
    await expect(page.getByTestId('node-n1').getAttribute('data-status')).resolves.toBe('succeeded');
    await expect(page.getByTestId('run-banner').textContent()).resolves.toContain('failed');
    await expect(page.getByTestId('tab-runs').getAttribute('aria-selected')).resolves.toBe('true');
    await expect(page.getByTestId('run-step-n2').textContent()).resolves.toContain('calendar cal_main is not accepting bookings');
    await shot(page, 'editor-failed-run-link');

    // Every campaign's failed runs, in one list.
    await page.getByTestId('failed-runs-link').click();
    const table = page.getByTestId('failed-runs');
    await table.waitFor();
    for (const r of [a, b, c]) await page.getByTestId(`failed-row-${r.runId}`).waitFor();
    await expect(page.getByTestId(`failed-row-${b.runId}`).textContent()).resolves.toMatch(/Ben campaign.*Agent Ben.*book-appointment n2: calendar cal_main is not accepting bookings/);
    await expect(page.getByTestId('retry-selected').isDisabled()).resolves.toBe(true);

    // The calendar is fixed; Ada's and Ben's runs are retried, Cy's is left.
    calendarDown = false;
    await page.getByTestId(`select-${a.runId}`).check();
    await page.getByTestId(`select-${b.runId}`).check();
    await expect(page.getByTestId('retry-selected').textContent()).resolves.toBe('Retry selected (2)');
    await shot(page, 'editor-failed-runs-selected');
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/failed-runs/retry'));
    await page.getByTestId('retry-selected').click();
    const sent = (await answer).request().postDataJSON() as { executionIds: string[] };
    expect(sent.executionIds.sort()).toEqual([a.runId, b.runId].sort());
    await page.getByTestId('retry-summary').filter({ hasText: '2 retried.' }).waitFor();
    await expect(page.getByTestId(`retry-result-${a.runId}`).textContent()).resolves.toContain('Retrying from the failed step');
    await expect(page.getByTestId(`retry-result-${c.runId}`).count()).resolves.toBe(0);

    // Each retry starts at the booking (the tag is not added twice) and now succeeds.
    const retries = ((await (await answer).json()) as { data: { retry: { id: string; workflowId: string } }[] }).data.map((d) => d.retry);
    for (const r of retries) await expect(h.temporal!.client.workflow.getHandle(r.workflowId).result()).resolves.toMatchObject({ status: 'succeeded' });
    for (const r of retries) expect((await h.store.executions.get(h.agencyId, r.id))!.steps.map((s) => [s.nodeId, s.status])).toEqual([['n2', 'succeeded']]);
    await page.getByTestId('failed-refresh').click();
    await page.getByTestId(`failed-row-${a.runId}`).waitFor({ state: 'detached' });
    await expect(page.getByTestId(`failed-row-${b.runId}`).count()).resolves.toBe(0);
    await page.getByTestId(`failed-row-${c.runId}`).waitFor();
    await shot(page, 'editor-failed-runs-retried');
    expect((await h.store.executions.get(h.agencyId, c.runId))!.retriedBy ?? null).toBeNull();

    // A row opens its run in the editor, as the alert's link does.
    await page.getByTestId(`open-run-${c.runId}`).click();
    await canvasReady(page);
    await page.locator('[data-testid="node-n2"][data-status="failed"]').waitFor();
    expect(new URL(page.url()).searchParams.get('run')).toBe(c.runId);
    await page.close();
  });
});
