/**
 * The "Test" button, in Chromium against the real app and a real Temporal worker: pick an outcome,
 * sample call fields (defaults from the agent's post-call fields) and a contact; the run goes on the
 * sandbox and the canvas lights its path up step by step, each step with its status and what it did
 * (the SMS as it would be sent, the slot it would book). Test runs are listed apart from real runs.
 *
 * The calendar port waits on a gate the test opens, so the run is seen mid-way (the SMS sent, the
 * booking still running) without timing luck.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { bookingGate } from '../helpers/booking-gate.js';
import { newAgent, newPage, openEditor, shot, wfPath } from './editor-page.js';

let h: Harness;
let browser: Browser;
let locationId: string;
/** Bookings wait at this gate while it is held. */
const bookings = bookingGate();
const holdBookings = bookings.hold;
const release = bookings.release;

beforeAll(async () => {
  h = await createHarness({ temporal: true, ports: bookings.ports });
  browser = await launchBrowser();
  ({ locationId } = await createProjectAgentCampaign(h));
});
afterAll(async () => {
  release();
  await browser?.close();
  await h?.close();
});

const GRAPH = {
  nodes: [
    { id: 'n1', type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, see you at {{call.fields.appointment_time}}' } },
    { id: 'n2', type: 'book-appointment', config: { calendarId: 'cal_main', durationMinutes: 45 } },
    { id: 'n3', type: 'add-tag', config: { tags: ['booked'] } },
    { id: 'n4', type: 'send-sms', config: { body: 'Sorry we missed you, {{contact.firstName}}' } },
  ],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n3' },
  ],
  dispositionEntries: { SUCCESS: 'n1', VOICEMAIL: 'n4' },
  expectedVersion: 0,
};

describe('test runs in the editor', () => {
  it('runs an outcome on sample data and lights the path up step by step, apart from real runs', async () => {
    const { agentId, campaignId } = await newAgent(h, locationId, 'Booker', { postCallFields: [{ name: 'appointment_time', type: 'datetime' }, { name: 'confirmed', type: 'boolean' }] });
    expect((await h.api('PUT', wfPath(agentId), { body: GRAPH })).status).toBe(200);
    // A real call ended in Voicemail earlier: it is a run, not a test run.
    const ana = await h.store.crm.createContact(h.agencyId, { locationId, firstName: 'Ana', phone: '+15125550123' });
    const real = callEnded(campaignId, { contactId: ana.id, disposition: 'VOICEMAIL' });
    expect((await postCallEvent(h, real)).status).toBe(202);
    await expect(awaitRun(h, real.call.callId)).resolves.toMatchObject({ status: 'succeeded' });
    const realId = (await h.store.executions.firstOfCall(h.agencyId, real.call.callId))!.id;

    const page = await newPage(browser);
    await openEditor(page, h, agentId);
    await page.getByTestId('test-run-button').click();
    const dialog = page.getByTestId('test-run-dialog');
    await dialog.waitFor();
    await expect(page.getByTestId('test-run-sandbox').textContent()).resolves.toContain('Nothing is sent to real contacts');
    // The agent's post-call fields, with sample values by type: a slot tomorrow at 15:00 UTC, a yes.
    await expect(page.getByTestId('test-field-appointment_time').inputValue()).resolves.toMatch(/^\d{4}-\d\d-\d\dT15:00:00Z$/);
    await expect(page.getByTestId('test-field-confirmed').isChecked()).resolves.toBe(true);
    await page.getByTestId('test-outcome').selectOption('SUCCESS');
    await page.getByTestId('test-field-appointment_time').fill('2031-03-04T15:00:00Z');
    await page.getByTestId('test-contact-firstName').fill('Zoe');
    await shot(page, 'editor-test-run-dialog');

    holdBookings();
    const started = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/workflow/test-runs'));
    await page.getByTestId('test-run-start').click();
    const body = (await (await started).request().postDataJSON()) as Record<string, unknown>;
    expect(body).toMatchObject({ outcome: 'SUCCESS', fields: { appointment_time: '2031-03-04T15:00:00Z', confirmed: true }, contact: { firstName: 'Zoe' } });
    expect(body.contact).toEqual({ firstName: 'Zoe' });
    // The outcome and the summary have their own inputs: not asked again as the platform's fields.
    expect(Object.keys(body.fields as object).sort()).toEqual(['appointment_time', 'callback_time', 'confirmed']);
    await dialog.waitFor({ state: 'detached' });

    // Mid-way: the SMS went (as it would be sent), the booking is running, the tag not reached yet.
    await page.locator('[data-testid="node-n2"][data-status="running"]').waitFor();
    await expect(page.getByTestId('node-n1').getAttribute('data-status')).resolves.toBe('succeeded');
    await expect(page.getByTestId('node-n1-run-text').textContent()).resolves.toBe('SMS: Hi Zoe, see you at 2031-03-04T15:00:00Z');
    await expect(page.getByTestId('node-n3').getAttribute('data-status')).resolves.toBeNull();
    await expect(page.getByTestId('node-n4').getAttribute('class')).resolves.toContain('run-dim');
    await expect(page.getByTestId('run-banner').textContent()).resolves.toMatch(/Test run on the sandbox.*Success, running/);
    await expect(page.getByTestId('run-detail').getAttribute('aria-busy')).resolves.toBe('true');
    await shot(page, 'editor-test-run-in-progress');

    release();
    await page.locator('[data-testid="node-n3"][data-status="succeeded"]').waitFor();
    await expect(page.getByTestId('node-n2').getAttribute('data-status')).resolves.toBe('succeeded');
    // The slot it would book, the same for every viewer (UTC).
    await expect(page.getByTestId('node-n2-run-text').textContent()).resolves.toBe('Books 2031-03-04 15:00–15:45 UTC on calendar cal_main');
    await expect(page.getByTestId('node-n3-run-text').textContent()).resolves.toBe('Adds tag booked');
    await page.getByTestId('run-banner').filter({ hasText: 'succeeded, 3 steps' }).waitFor();
    const onPath = await page.locator('[data-testid^="edge-e"][data-on-path]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(onPath.sort()).toEqual(['edge-e1', 'edge-e2']);
    await expect(page.getByTestId('run-detail-title').textContent()).resolves.toMatch(/^Test run .*: succeeded$/);
    await expect(page.getByTestId('run-step-text-n1').textContent()).resolves.toBe('SMS: Hi Zoe, see you at 2031-03-04T15:00:00Z');
    await shot(page, 'editor-test-run-done');

    // Test runs are listed apart: the real run is under Calls only, the test run under Test runs only.
    const tests = (await h.api('GET', `${wfPath(agentId)}/executions?kind=test`)).body.data as { id: string; status: string }[];
    expect(tests.map((t) => t.status)).toEqual(['succeeded']);
    await expect(page.getByTestId('runs-kind-test').getAttribute('aria-pressed')).resolves.toBe('true');
    await page.getByTestId(`execution-row-${tests[0]!.id}`).waitFor();
    await expect(page.getByTestId(`execution-row-${realId}`).count()).resolves.toBe(0);
    await page.getByTestId('runs-kind-run').click();
    await page.getByTestId(`execution-row-${realId}`).waitFor();
    await expect(page.getByTestId(`execution-row-${tests[0]!.id}`).count()).resolves.toBe(0);
    // The project's own CRM got nothing from the test: no contact Zoe, no appointment.
    expect(h.db.prepare('SELECT count(*) AS n FROM crm_contacts WHERE agency_id = ? AND location_id = ?').get(h.agencyId, locationId)).toEqual({ n: 1 });
    expect(h.db.prepare('SELECT count(*) AS n FROM appointments WHERE agency_id = ? AND location_id = ?').get(h.agencyId, locationId)).toEqual({ n: 0 });
    await page.close();
  });

  it('tests with an existing contact by id, from the Runs tab', async () => {
    const { agentId } = await newAgent(h, locationId);
    expect((await h.api('PUT', wfPath(agentId), { body: GRAPH })).status).toBe(200);
    const bea = await h.store.crm.createContact(h.agencyId, { locationId, firstName: 'Bea', phone: '+15125550188', tags: ['vip'] });
    const page = await newPage(browser);
    await openEditor(page, h, agentId);
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('runs-new-test').click();
    await page.getByTestId('test-outcome').selectOption('VOICEMAIL');
    await page.getByTestId('test-contact-existing').check();
    // An empty id is refused in the form, before anything is sent.
    await page.getByTestId('test-run-start').click();
    await page.getByTestId('test-run-dialog').getByText('The id of a contact of this project').waitFor();
    await page.getByTestId('test-contact-id').fill(bea.id);
    await page.getByTestId('test-run-start').click();
    await page.locator('[data-testid="node-n4"][data-status="succeeded"]').waitFor();
    await expect(page.getByTestId('node-n4-run-text').textContent()).resolves.toBe('SMS: Sorry we missed you, Bea');
    await page.getByTestId('run-banner').filter({ hasText: 'succeeded, 1 step.' }).waitFor();
    // The contact itself was only read: its tags are as they were.
    expect((await h.store.crm.getContact(h.agencyId, locationId, bea.id))!.tags).toEqual(['vip']);
    await page.close();
  });
});
