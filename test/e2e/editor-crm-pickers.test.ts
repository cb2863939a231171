/**
 * The editor's CRM-backed pickers, end to end in Chromium against the real app on the sandbox CRM:
 * pipeline and stage for move-stage, calendar for book-appointment, the contact field for
 * set-field, custom values in the token menu; read lazily, once per session, refreshable; a
 * stored id the CRM lacks stays visible; a disconnected project (or a failed read) leaves free text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { SCOPES } from '../../server/store/index.js';
import { addStep, applyForm, openStep, canvasReady, expectBrowserErrors, newAgent, newPage, openEditor, recordWrites, save, shot, signIn, storedWorkflow, waitSaved, wfPath } from './editor-page.js';

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

/** The CRM reads the page makes, as "pipelines", "calendars", "crm-custom-fields", "crm-custom-values". */
function recordCrmReads(page: Page): string[] {
  const reads: string[] = [];
  page.on('request', (req) => {
    const m = /\/api\/agent-builder\/agents\/[^/]+\/(crm\/pipelines|crm\/calendars|crm-custom-fields|crm-custom-values)$/.exec(new URL(req.url()).pathname);
    if (m) reads.push(m[1]!.replace('crm/', ''));
  });
  return reads;
}

const optionTexts = (page: Page, testId: string) => page.getByTestId(testId).locator('option').allTextContents();

describe('CRM pickers in the step forms', () => {
  it('move-stage: pipeline and stage chosen by name store their ids; the pipelines are read once, when a form needs them', async () => {
    const { agentId } = await newAgent(h, locationId, 'Stages agent');
    const page = await newPage(browser);
    const reads = recordCrmReads(page);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);
    // Nothing is read from the CRM while the editor loads.
    expect(reads).toEqual([]);

    const step = await addStep(page, 'lane-add-SUCCESS', 'move-stage');
    await expect.poll(() => optionTexts(page, 'field-pipelineId')).toEqual(['Choose a pipeline…', 'Patients']);
    await page.getByTestId('field-pipelineId').selectOption({ label: 'Patients' });
    // The stage select offers the stages of that pipeline, by name.
    await expect.poll(() => optionTexts(page, 'field-stageId')).toEqual(['Choose a stage…', 'New lead', 'Contacted', 'Booked', 'Lost']);
    await page.getByTestId('field-stageId').selectOption({ label: 'Booked' });
    await expect.poll(() => page.getByTestId('crm-source').textContent()).toContain("Pipelines from the project's CRM.");
    await shot(page, 'editor-crm-move-stage');
    await applyForm(page);
    await save(page);
    await waitSaved(page, 1);

    const stored = await storedWorkflow(h, agentId);
    expect(stored.nodes).toEqual([expect.objectContaining({ id: step, type: 'move-stage', config: { pipelineId: 'pl_patients', stageId: 'st_booked' } })]);
    expect(writes).toEqual([`POST ${wfPath(agentId)}/outcomes/SUCCESS/nodes`]);

    // A second move-stage form uses what was read: one read per editor session.
    await addStep(page, `add-after-${step}`, 'move-stage');
    await expect.poll(() => optionTexts(page, 'field-pipelineId')).toEqual(['Choose a pipeline…', 'Patients']);
    // Back on the first step: its choices are shown by name.
    await openStep(page, step);
    await expect.poll(() => page.getByTestId('field-pipelineId').locator('option:checked').textContent()).toBe('Patients');
    await expect.poll(() => page.getByTestId('field-stageId').locator('option:checked').textContent()).toBe('Booked');
    expect(reads).toEqual(['pipelines']);
    await page.close();
  });

  it('move-stage: a stored pipeline or stage the CRM no longer lists stays visible and selectable, with a warning', async () => {
    const { agentId } = await newAgent(h, locationId, 'Old stages agent');
    const seeded = await h.api('POST', `${wfPath(agentId)}/outcomes/SUCCESS/nodes`, {
      body: {
        nodes: [
          { type: 'move-stage', config: { pipelineId: 'pl_retired', stageId: 'st_old' } },
          { type: 'move-stage', config: { pipelineId: 'pl_patients', stageId: 'st_gone' } },
        ],
        expectedVersion: 0,
      },
    });
    expect(seeded.status).toBe(200);
    const [gonePipeline, goneStage] = (seeded.body.workflow.nodes as { id: string }[]).map((n) => n.id) as [string, string];
    const page = await newPage(browser);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);

    await page.locator(`.react-flow__node[data-id="${gonePipeline}"]`).click();
    const pipeline = page.getByTestId('field-pipelineId');
    await expect.poll(() => pipeline.locator('option:checked').textContent()).toBe('unknown pipeline pl_retired');
    await expect.poll(() => optionTexts(page, 'field-pipelineId')).toEqual(['Choose a pipeline…', 'unknown pipeline pl_retired', 'Patients']);
    await expect.poll(() => page.getByTestId('field-stageId').locator('option:checked').textContent()).toBe('unknown stage st_old');
    await expect.poll(() => page.getByTestId('field-warning').textContent()).toContain('The CRM does not list pipeline pl_retired');
    await shot(page, 'editor-crm-unknown-pipeline');
    // Renaming the step keeps the ids it has (never silently dropped).
    await page.getByTestId('field-label').fill('Old pipeline');
    await applyForm(page);

    await page.locator(`.react-flow__node[data-id="${goneStage}"]`).click();
    await expect.poll(() => page.getByTestId('field-pipelineId').locator('option:checked').textContent()).toBe('Patients');
    await expect.poll(() => page.getByTestId('field-stageId').locator('option:checked').textContent()).toBe('unknown stage st_gone');
    await expect.poll(() => optionTexts(page, 'field-stageId')).toEqual(['Choose a stage…', 'unknown stage st_gone', 'New lead', 'Contacted', 'Booked', 'Lost']);
    await expect.poll(() => page.getByTestId('field-warning').textContent()).toContain('Pipeline Patients has no stage st_gone');
    // Choosing a real stage replaces it; the warning goes.
    await page.getByTestId('field-stageId').selectOption({ label: 'Lost' });
    await page.getByTestId('field-warning').waitFor({ state: 'detached' });
    await applyForm(page);
    await save(page);
    await waitSaved(page, 2);

    const stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.find((n) => n.id === gonePipeline)).toMatchObject({ label: 'Old pipeline', config: { pipelineId: 'pl_retired', stageId: 'st_old' } });
    expect(stored.nodes.find((n) => n.id === goneStage)).toMatchObject({ config: { pipelineId: 'pl_patients', stageId: 'st_lost' } });
    expect(writes).toEqual([`PATCH ${wfPath(agentId)}`]);
    await page.close();
  });

  it("book-appointment: a calendar chosen by name, or none for the campaign's calendar", async () => {
    const { agentId } = await newAgent(h, locationId, 'Calendar agent');
    const page = await newPage(browser);
    await openEditor(page, h, agentId);

    const step = await addStep(page, 'lane-add-SUCCESS', 'book-appointment');
    await expect.poll(() => optionTexts(page, 'field-calendarId')).toEqual(["The campaign's calendar", 'Main calendar']);
    await expect(page.getByTestId('field-calendarId').inputValue()).resolves.toBe('');
    await page.getByTestId('field-calendarId').selectOption({ label: 'Main calendar' });
    await shot(page, 'editor-crm-calendar');
    await applyForm(page);
    await save(page);
    await waitSaved(page, 1);
    expect((await storedWorkflow(h, agentId)).nodes.find((n) => n.id === step)?.config).toEqual({ calendarId: 'cal_main', startField: 'appointment_time', durationMinutes: 30 });

    // Back to the campaign's calendar: the id is left out.
    await page.getByTestId('field-calendarId').selectOption({ label: "The campaign's calendar" });
    await applyForm(page);
    await save(page);
    await waitSaved(page, 2);
    expect((await storedWorkflow(h, agentId)).nodes.find((n) => n.id === step)?.config).toEqual({ startField: 'appointment_time', durationMinutes: 30 });
    await page.close();
  });

  it('set-field: a custom field chosen by name stores its key; a field the list lacks is typed', async () => {
    await h.store.crm.addCustomField(h.agencyId, locationId, 'Callback time', 'callback_time', 'DATE');
    await h.store.crm.addCustomField(h.agencyId, locationId, 'Insurance provider', 'insurance_provider');
    const { agentId } = await newAgent(h, locationId, 'Fields agent');
    const page = await newPage(browser);
    await openEditor(page, h, agentId);

    const picked = await addStep(page, 'lane-add-CALLBACK', 'set-field');
    await expect.poll(() => optionTexts(page, 'field-field-picker')).toEqual(['Choose a custom field…', 'Callback time', 'Insurance provider']);
    await page.getByTestId('field-field-picker').selectOption({ label: 'Callback time' });
    await expect(page.getByTestId('field-field').inputValue()).resolves.toBe('contact.callback_time');
    await page.locator('.field-hint').filter({ hasText: 'Custom field “Callback time” (date).' }).waitFor();
    await page.getByTestId('field-value-tokens').selectOption('{{call.dateTime}}');
    await shot(page, 'editor-crm-set-field');
    await applyForm(page);

    const typed = await addStep(page, `add-after-${picked}`, 'set-field');
    await page.getByTestId('field-field').fill('contact.pincode');
    await expect.poll(() => page.getByTestId('field-field-picker').locator('option:checked').textContent()).toBe('Another field (typed below)');
    await page.locator('.field-hint').filter({ hasText: "Not one of this location's custom fields" }).waitFor();
    await page.getByTestId('field-value').fill('78701');
    await applyForm(page);
    await save(page);
    await waitSaved(page, 1);

    const stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.find((n) => n.id === picked)?.config).toEqual({ field: 'contact.callback_time', value: '{{call.dateTime}}' });
    expect(stored.nodes.find((n) => n.id === typed)?.config).toEqual({ field: 'contact.pincode', value: '78701' });
    await page.close();
  });

  it("custom values are tokens in the text fields' menu, by name; Refresh reads the CRM again", async () => {
    await h.store.crm.addCustomValue(h.agencyId, locationId, 'Clinic address', 'clinic_address', '12 Main St');
    const { agentId } = await newAgent(h, locationId, 'Tokens agent');
    const page = await newPage(browser);
    const reads = recordCrmReads(page);
    await openEditor(page, h, agentId);
    expect(reads).toEqual([]);

    const sms = await addStep(page, 'lane-add-VOICEMAIL', 'send-sms');
    const menu = page.getByTestId('field-body-tokens');
    await menu.locator('optgroup[label="Custom values"] option', { hasText: 'Clinic address' }).waitFor({ state: 'attached' });
    await expect(menu.locator('optgroup[label="Custom values"] option').allTextContents()).resolves.toContain('Clinic address — {{custom_values.clinic_address}}');
    await page.getByTestId('field-body').fill('See you at ');
    await page.getByTestId('field-body').press('End');
    await menu.selectOption('{{custom_values.clinic_address}}');
    await expect(page.getByTestId('field-body').inputValue()).resolves.toBe('See you at {{custom_values.clinic_address}}');

    // A value added in the CRM after the menu was read appears on Refresh.
    await h.store.crm.addCustomValue(h.agencyId, locationId, 'Parking note', 'parking_note', 'Free parking behind the building');
    await page.getByTestId('crm-refresh').click();
    await menu.locator('option', { hasText: 'Parking note — {{custom_values.parking_note}}' }).waitFor({ state: 'attached' });
    await page.getByTestId('field-body').press('End');
    await page.getByTestId('field-body').pressSequentially('. ');
    await menu.selectOption('{{custom_values.parking_note}}');
    await shot(page, 'editor-crm-custom-value-tokens');
    await applyForm(page);
    await save(page);
    await waitSaved(page, 1);
    expect((await storedWorkflow(h, agentId)).nodes.find((n) => n.id === sms)?.config).toEqual({ body: 'See you at {{custom_values.clinic_address}}. {{custom_values.parking_note}}' });
    // Read once on opening, once on Refresh; not on every render.
    expect(reads.filter((r) => r === 'crm-custom-values')).toHaveLength(2);
    await page.close();
  });

  it('a disconnected project: the form says to reconnect, ids are typed as free text, and Check again picks up a reconnect', async () => {
    const other = await createProjectAgentCampaign(h);
    const project = (await h.store.projects.get(h.agencyId, other.projectId))!;
    await h.store.projects.save({ ...project, status: 'disconnected', crm_a: null, disconnectedReason: 'the CRM refused the credential' });
    const page = await newPage(browser);
    const reads = recordCrmReads(page);
    await openEditor(page, h, other.agentId);

    const step = await addStep(page, 'lane-add-SUCCESS', 'move-stage');
    const notice = page.getByTestId('crm-disconnected');
    await expect(notice.textContent()).resolves.toContain("This project's CRM connection needs to be reconnected");
    await expect(notice.textContent()).resolves.toContain('the CRM refused the credential');
    await expect(page.getByTestId('field-pipelineId').evaluate((el) => el.tagName)).resolves.toBe('INPUT');
    await page.getByTestId('field-pipelineId').fill('pl_typed');
    await page.getByTestId('field-stageId').fill('st_typed');
    await shot(page, 'editor-crm-disconnected');
    await applyForm(page);

    const booking = await addStep(page, `add-after-${step}`, 'book-appointment');
    await expect(page.getByTestId('crm-disconnected').textContent()).resolves.toContain("This project's CRM connection needs to be reconnected");
    await page.getByTestId('field-calendarId').fill('cal_typed');
    await applyForm(page);

    // Text fields keep their standard tokens.
    await addStep(page, `add-after-${booking}`, 'send-sms');
    await page.getByTestId('crm-disconnected').waitFor();
    await page.getByTestId('field-body-tokens').selectOption('{{contact.firstName}}');
    await expect(page.getByTestId('field-body').inputValue()).resolves.toBe('{{contact.firstName}}');
    await page.getByTestId('field-body').press('End');
    await page.getByTestId('field-body').pressSequentially(', we will call you back.');
    await applyForm(page);
    await save(page);
    await waitSaved(page, 1);
    const stored = await storedWorkflow(h, other.agentId);
    expect(stored.nodes.find((n) => n.id === step)?.config).toEqual({ pipelineId: 'pl_typed', stageId: 'st_typed' });
    expect(stored.nodes.find((n) => n.id === booking)?.config).toMatchObject({ calendarId: 'cal_typed' });

    // Reconnected meanwhile: Check again reads the CRM, and the pickers come back (the typed id stays, flagged).
    await h.store.projects.save({ ...project, status: 'live' });
    await page.locator(`.react-flow__node[data-id="${step}"]`).click();
    await page.getByTestId('crm-retry').click();
    await page.locator('select[data-testid="field-pipelineId"]').waitFor();
    await expect.poll(() => page.getByTestId('field-pipelineId').locator('option:checked').textContent()).toBe('unknown pipeline pl_typed');
    await page.getByTestId('crm-disconnected').waitFor({ state: 'detached' });

    // Each read failed once with 409 and was not repeated until asked; the only console lines are
    // the browser's own reports of those responses, nothing from the editor.
    expect(reads.filter((r) => r === 'pipelines')).toHaveLength(2);
    expect(reads.filter((r) => r === 'calendars')).toHaveLength(1);
    // Chromium logs each refused read itself; those, and nothing else, are expected.
    expectBrowserErrors(page, [/status of 409 \(Conflict\)/]);
    await page.close();
  });

  it('a read that fails for another reason says so briefly, keeps free text, and Retry reads again', async () => {
    const { agentId } = await newAgent(h, locationId, 'Flaky CRM agent');
    const page = await newPage(browser);
    // The CRM is unreachable for the first read of the calendars.
    let refused = 0;
    await page.route('**/crm/calendars', async (route) => {
      if (refused++ > 0) return route.continue();
      await route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ success: false, error: 'VENDOR_UNAVAILABLE', message: 'the CRM did not answer in time' }) });
    });
    await openEditor(page, h, agentId);

    await addStep(page, 'lane-add-SUCCESS', 'book-appointment');
    await expect.poll(() => page.getByTestId('crm-failed').textContent()).toContain("Could not read the CRM's calendars: the CRM did not answer in time");
    await expect(page.getByTestId('field-calendarId').evaluate((el) => el.tagName)).resolves.toBe('INPUT');
    await shot(page, 'editor-crm-read-failed');
    await page.getByTestId('crm-retry').click();
    await expect.poll(() => optionTexts(page, 'field-calendarId')).toEqual(["The campaign's calendar", 'Main calendar']);
    await page.getByTestId('crm-failed').waitFor({ state: 'detached' });
    expectBrowserErrors(page, [/status of 502 \(Bad Gateway\)/]);
    await page.close();
  });

  it('a key without crm:read: the form says so and the ids are typed', async () => {
    const { agentId } = await newAgent(h, locationId, 'No CRM scope agent');
    const key = await h.key({ scopes: SCOPES.filter((s) => s !== 'crm:read') });
    const page = await newPage(browser);
    await page.goto(`${h.url}/editor/agents/${agentId}`);
    await signIn(page, key);
    await canvasReady(page);

    const step = await addStep(page, 'lane-add-SUCCESS', 'move-stage');
    await expect.poll(() => page.getByTestId('crm-forbidden').textContent()).toContain('This API key may not read the CRM (it needs the crm:read scope)');
    await page.getByTestId('field-pipelineId').fill('pl_patients');
    await page.getByTestId('field-stageId').fill('st_new');
    await applyForm(page);
    await save(page);
    await waitSaved(page, 1);
    expect((await storedWorkflow(h, agentId)).nodes.find((n) => n.id === step)?.config).toEqual({ pipelineId: 'pl_patients', stageId: 'st_new' });
    expectBrowserErrors(page, [/status of 403 \(Forbidden\)/]);
    await page.close();
  });
});
