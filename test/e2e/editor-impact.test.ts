/**
 * Impact before save, in Chromium against the real app and a real Temporal worker: a change to what
 * runs first shows what it meets (calls of the last 7 days in each changed outcome, runs in flight,
 * which keep their pinned graph, and leads at each cadence step); nothing is written until the
 * admin confirms, and cancelling keeps the edit.
 *
 * The calendar port waits on a gate, so a real run is in flight while the change is saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { bookingGate } from '../helpers/booking-gate.js';
import { applyForm, newPage, openEditor, recordImpactReads, recordWrites, save, shot, storedWorkflow, waitSaved, wfPath } from './editor-page.js';

let h: Harness;
let browser: Browser;
const bookings = bookingGate(true);
const release = bookings.release;

beforeAll(async () => {
  h = await createHarness({ temporal: true, ports: bookings.ports });
  browser = await launchBrowser();
});
afterAll(async () => {
  release();
  await browser?.close();
  await h?.close();
});

describe('impact before save', () => {
  it('shows the calls, runs in flight and cadence leads a change meets, and saves only when confirmed', async () => {
    const c = await createProjectAgentCampaign(h);
    const wf = wfPath(c.agentId);
    const put = await h.api('PUT', wf, {
      body: {
        nodes: [
          { id: 'n1', type: 'add-tag', config: { tags: ['vm-left'] } },
          { id: 'n2', type: 'book-appointment', config: { calendarId: 'cal_main', durationMinutes: 30 } },
        ],
        edges: [],
        dispositionEntries: { VOICEMAIL: 'n1', SUCCESS: 'n2' },
        expectedVersion: 0,
      },
    });
    expect(put.status, put.text).toBe(200);
    // Three voicemails ended this week; a success is still booking (in flight on version 1).
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: c.locationId, firstName: 'Ana', phone: '+15125550123' });
    for (let i = 0; i < 3; i++) {
      const e = callEnded(c.campaignId, { contactId: contact.id, disposition: 'VOICEMAIL' });
      await postCallEvent(h, e);
      await expect(awaitRun(h, e.call.callId)).resolves.toMatchObject({ status: 'succeeded' });
    }
    const booking = callEnded(c.campaignId, { contactId: contact.id, disposition: 'SUCCESS', fields: [{ key: 'appointment_time', value: '2031-03-04T15:00:00Z' }] });
    await postCallEvent(h, booking);
    // A cadence of two calls, two leads waiting for the first (the calling window is far away).
    const cadence = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'Two tries', steps: [{ delayMinutes: 0 }, { delayMinutes: 60 }] } });
    await h.api('PATCH', `/api/agent-builder/projects/${c.locationId}/campaigns/${c.campaignId}`, {
      body: { active: true, activeTags: ['impact-lead'], config: { cadenceId: cadence.body.data.id }, callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' } },
    });
    for (const phone of ['+15125550161', '+15125550162']) {
      expect((await h.api('POST', '/api/power-dialer/leads', { body: { campaignId: c.campaignId, contact: { firstName: 'Ima', phone, tags: ['impact-lead'] } } })).status).toBe(200);
    }
    await expect.poll(async () => await h.store.executions.inFlight(h.agencyId, c.campaignId)).toEqual([{ version: 1, n: 1 }]);

    const page = await newPage(browser);
    const writes = recordWrites(page);
    const impactReads = recordImpactReads(page);
    await openEditor(page, h, c.agentId);
    await page.locator('.react-flow__node[data-id="n1"]').click();
    await page.getByTestId('field-tags').fill('voicemail-left');
    await applyForm(page);
    await save(page);

    const dialog = page.getByTestId('impact-dialog');
    await dialog.waitFor();
    await expect(page.getByTestId('impact-changes').locator('li').allTextContents()).resolves.toEqual(['Voicemail: the tags added changed from vm-left to voicemail-left']);
    await expect(page.getByTestId('impact-calls-VOICEMAIL').textContent()).resolves.toBe('Voicemail: 3 calls ended in it in the last 7 days');
    await expect(page.getByTestId('impact-calls').locator('li').count()).resolves.toBe(1);
    await expect(page.getByTestId('impact-in-flight').textContent()).resolves.toMatch(/^1 run in flight \(1 run on version 1\)\. Runs already started keep the version they started with \(their graph is pinned\)/);
    await expect(page.getByTestId('impact-cadence').locator('li').allTextContents()).resolves.toEqual(['Call 1: 2 leads waiting', 'Call 2: 0 leads waiting']);
    await shot(page, 'editor-impact-before-save');
    // The preview read the graph about to be saved; nothing was written.
    expect(impactReads).toHaveLength(1);
    expect(impactReads[0]!.nodes.find((n) => n.id === 'n1')!.config).toEqual({ tags: ['voicemail-left'] });
    expect(writes).toEqual([]);

    // Cancel: the edit stays, unsaved.
    await page.getByTestId('impact-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    await expect(page.getByTestId('save-status').textContent()).resolves.toBe('Unsaved changes');
    expect((await storedWorkflow(h, c.agentId)).version).toBe(1);

    // Save again, confirm: one write, version 2.
    await save(page);
    await dialog.waitFor();
    await page.getByTestId('impact-confirm').click();
    await waitSaved(page, 2);
    expect(writes).toEqual([`PATCH ${wf}`]);
    expect((await storedWorkflow(h, c.agentId)).nodes.find((n) => n.id === 'n1')!.config).toEqual({ tags: ['voicemail-left'] });

    // The run in flight finishes on the graph it started with.
    release();
    await expect(awaitRun(h, booking.call.callId)).resolves.toMatchObject({ status: 'succeeded' });
    expect((await h.store.executions.firstOfCall(h.agencyId, booking.call.callId))!.graphVersion).toBe(1);
    await page.close();
  });
});
