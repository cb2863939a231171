/**
 * Starter workflows in Chromium against the real app: an empty workflow offers the API's templates
 * (with the outcomes each fills for this agent); choosing one writes it as version 1 and draws it,
 * without warnings. A workflow with steps never offers them; "Start from scratch" writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { newAgent, newPage, openEditor, recordWrites, shot, stepIds, storedWorkflow, waitSaved, wfPath } from './editor-page.js';

let h: Harness;
let browser: Browser;
let locationId: string;
beforeAll(async () => {
  h = await createHarness();
  browser = await launchBrowser();
  ({ locationId } = await createProjectAgentCampaign(h));
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('starting from a template', () => {
  it('an empty workflow offers the templates; choosing one fills the workflow', async () => {
    const { agentId, campaignId } = await newAgent(h, locationId, 'Booker');
    // A campaign ready to act (a calendar, a caller ID): no warning is about the campaign.
    await h.api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, { body: { config: { calendarId: 'cal_main' } } });
    await h.store.campaigns.save({ ...(await h.store.campaigns.get(h.agencyId, campaignId))!, fromNumbers: ['+15125550100'] });
    const offered = (await h.api('GET', `/api/agent-builder/workflow-templates?agentId=${agentId}`)).body.data as { id: string; name: string; outcomes: string[] }[];
    const booking = offered.find((t) => t.id === 'appointment-booking')!;

    const page = await newPage(browser);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);
    const picker = page.getByTestId('templates');
    await picker.waitFor();
    for (const t of offered.filter((x) => x.outcomes.length > 0)) await page.getByTestId(`template-${t.id}`).waitFor();
    const card = page.getByTestId('template-appointment-booking');
    await expect(card.textContent()).resolves.toContain('Success books the appointment');
    // The outcomes it fills, for this agent, by their dashboard labels.
    await expect(card.locator('.chip').count()).resolves.toBe(booking.outcomes.length);
    await expect(card.locator('.chip').first().textContent()).resolves.toBe('Success');
    await shot(page, 'editor-templates');

    await page.getByTestId('template-use-appointment-booking').click();
    await waitSaved(page, 1);
    await expect(page.getByTestId('save-status').textContent()).resolves.toBe('Started from “Appointment booking”: saved version 1');
    await picker.waitFor({ state: 'detached' });
    const stored = await storedWorkflow(h, agentId);
    expect(Object.keys(stored.dispositionEntries).sort()).toEqual([...booking.outcomes].sort());
    expect(stored.warnings).toEqual([]);
    await expect.poll(() => stepIds(page)).toEqual(stored.nodes.map((n) => n.id).sort());
    const book = stored.nodes.find((n) => n.type === 'book-appointment')!;
    await expect(page.getByTestId(`node-${book.id}`).textContent()).resolves.toContain('Book appointment');
    await expect(page.locator('[data-testid$="-warning"]').count()).resolves.toBe(0);
    expect(writes).toEqual([`POST ${wfPath(agentId)}/templates/appointment-booking`]);
    await shot(page, 'editor-template-applied');

    // Once it has steps, the workflow never offers templates again.
    await page.reload();
    await page.locator('[data-testid="canvas"][data-ready="true"]').waitFor();
    await expect(picker.count()).resolves.toBe(0);
    await page.close();
  });

  it('"Start from scratch" puts the templates away and writes nothing', async () => {
    const { agentId } = await newAgent(h, locationId, 'Scratch');
    const page = await newPage(browser);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);
    await page.getByTestId('templates').waitFor();
    await page.getByTestId('templates-dismiss').click();
    await page.getByTestId('templates').waitFor({ state: 'detached' });
    await page.getByTestId('lane-add-VOICEMAIL').waitFor();
    expect(writes).toEqual([]);
    expect((await storedWorkflow(h, agentId)).version).toBe(0);
    await page.close();
  });
});
