/**
 * The visual editor, end to end in Chromium against the real app (SQLite file, Temporal worker):
 * sign in and navigate, add an SMS with tokens (append), build an if branch (PUT), delete with
 * re-linking (DELETE), undo/redo, copy/paste. Every test checks the canvas and the stored graph.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { addStep, applyForm, canvasReady, edgePairs, expectBrowserErrors, newAgent, newPage, openEditor, recordWrites, save, shot, signIn, stepIds, storedWorkflow, versionSummaries, waitSaved, wfPath } from './editor-page.js';

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

describe('editing a workflow in the browser', () => {
  it('signs in, picks project and campaign, adds an SMS with tokens to Voicemail, saves, and sees it after a reload', async () => {
    const { agentId, campaignId } = await newAgent(h, locationId, 'Voicemail agent');
    await h.store.crm.addCustomValue(h.agencyId, locationId, 'Business name', 'business_name', 'Bright Smile Dental');
    const page = await newPage(browser);
    const writes = recordWrites(page);

    // Sign in once, then project -> campaign (the URL follows).
    await page.goto(`${h.url}/editor/`);
    await page.getByLabel('API key').waitFor();
    await shot(page, 'editor-sign-in');
    await signIn(page, h.adminKey);
    await page.getByTestId(`project-${locationId}`).click();
    await page.getByTestId(`campaign-${campaignId}`).waitFor();
    await shot(page, 'editor-campaigns');
    await page.getByTestId(`campaign-${campaignId}`).click();
    await canvasReady(page);
    expect(new URL(page.url()).pathname).toBe(`/editor/agents/${agentId}`);
    expect(new URL(page.url()).searchParams.get('campaignId')).toBe(campaignId);

    // One lane per outcome the agent can emit (outreach + appointment booking), in dashboard order.
    const lanes = await page.locator('[data-testid^="lane-"][role="group"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(lanes).toEqual(['lane-VOICEMAIL', 'lane-SUCCESS', 'lane-CALLBACK', 'lane-NO_ACTION', 'lane-RESCHEDULE']);
    await expect(page.getByTestId('lane-VOICEMAIL').textContent()).resolves.toContain('Voicemail');
    await shot(page, 'editor-empty-lanes');

    // Add a send-sms at the end of Voicemail; type, then insert tokens from the picker.
    const sms = await addStep(page, 'lane-add-VOICEMAIL', 'send-sms');
    await page.getByTestId('field-body').fill('Hi ');
    await page.getByTestId('field-body').press('End');
    await page.getByTestId('field-body-tokens').selectOption('{{contact.firstName}}');
    await page.getByTestId('field-body').press('End');
    await page.getByTestId('field-body').pressSequentially(', this is ');
    await page.getByTestId('field-body-tokens').selectOption('{{custom_values.business_name}}');
    await page.getByTestId('field-body').press('End');
    await page.getByTestId('field-body').pressSequentially(' — sorry we missed you!');
    const body = 'Hi {{contact.firstName}}, this is {{custom_values.business_name}} — sorry we missed you!';
    await expect(page.getByTestId('field-body').inputValue()).resolves.toBe(body);
    await applyForm(page);
    await expect(page.getByTestId('save-status').textContent()).resolves.toBe('Unsaved changes');
    await page.getByTestId('save-button').click();
    await waitSaved(page, 1);

    let stored = await storedWorkflow(h, agentId);
    expect(stored.version).toBe(1);
    expect(stored.nodes).toEqual([expect.objectContaining({ id: sms, type: 'send-sms', config: { body } })]);
    expect(stored.dispositionEntries.VOICEMAIL).toBe(sms);
    expect((await versionSummaries(h, agentId))[0]).toBe('appended 1 node to VOICEMAIL');
    expect(writes).toEqual([`POST ${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`]);

    // Then a tag after it, from the "+" under the SMS; Ctrl+S saves (again one append).
    const tag = await addStep(page, `add-after-${sms}`, 'add-tag');
    await page.getByTestId('field-tags').fill('vm-left');
    await applyForm(page);
    await save(page);
    await waitSaved(page, 2);
    stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.find((n) => n.id === tag)).toMatchObject({ type: 'add-tag', config: { tags: ['vm-left'] } });
    expect(stored.edges).toEqual([expect.objectContaining({ source: sms, target: tag })]);
    expect(writes).toEqual([`POST ${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`, `POST ${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`]);

    // Reload: the key is still in this tab's session; the steps are drawn from the stored graph.
    // The opening reads start in the entry module, before the editor's chunk runs, and the page
    // takes them: each is made once.
    const reads: string[] = [];
    page.on('request', (r) => r.method() === 'GET' && r.url().includes('/api/') && reads.push(new URL(r.url()).pathname));
    await page.reload();
    await canvasReady(page);
    const agentPath = `/api/agent-builder/agents/${agentId}`;
    const opening = [agentPath, wfPath(agentId), `/api/agent-builder/projects/${locationId}/campaigns`, `/api/v2/projects/${locationId}`];
    expect(opening.map((p) => reads.filter((r) => r === p).length)).toEqual([1, 1, 1, 1]);
    await expect.poll(() => stepIds(page)).toEqual([sms, tag].sort());
    await expect(page.getByTestId(`node-${sms}`).textContent()).resolves.toContain('Hi {{contact.firstName}}, this is {{custom_values.business_name}}');
    await expect(page.getByTestId(`node-${tag}`).textContent()).resolves.toContain('+ vm-left');

    // Warnings are listed and clickable: the campaign has no caller ID yet.
    await page.getByTestId('tab-warnings').click();
    const warning = page.locator('[data-testid="warning-item"][data-code="SMS_WITHOUT_CALLER_ID"]');
    await warning.click();
    await expect(page.locator(`.react-flow__node[data-id="${sms}"]`).getAttribute('class')).resolves.toContain('selected');
    await expect(page.getByTestId('node-form').getAttribute('data-node-id')).resolves.toBe(sms);
    expect(stored.warnings.map((w) => w.code)).toContain('SMS_WITHOUT_CALLER_ID');

    // The digest reads like a sentence per outcome.
    await page.getByTestId('tab-digest').click();
    await expect.poll(() => page.getByTestId('digest-text').textContent()).toContain('Voicemail:');
    const digest = await page.getByTestId('digest-text').textContent();
    expect(digest).toContain('Voicemail: send SMS "Hi {{contact.firstName}}');
    expect(digest).toContain('→ add tag vm-left');
    expect(digest).toBe((await h.api('GET', `${wfPath(agentId)}/digest`)).text);
    await shot(page, 'editor-voicemail-sms');
    await page.close();
  });

  it('a deep link opened with a key that is no longer accepted goes back to sign-in, saying why', async () => {
    const { agentId } = await newAgent(h, locationId, 'Revoked key');
    const page = await newPage(browser);
    // The key was in the tab's session from an earlier sign-in; the reads at boot get 401s before
    // the app has set its handler for them.
    await page.addInitScript(() => sessionStorage.setItem('vc.apiKey', 'vc_not_a_key'));
    await page.goto(`${h.url}/editor/agents/${agentId}`);
    await page.getByLabel('API key').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That API key was not accepted');
    expectBrowserErrors(page, [/401/]);
    await page.close();
  });

  it('builds an if branch in Call Back: condition, a step on "true" and one on "false"', async () => {
    const { agentId } = await newAgent(h, locationId);
    const page = await newPage(browser);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);

    const branch = await addStep(page, 'lane-add-CALLBACK', 'if');
    await page.getByTestId('condition-0-field').fill('call.fields.callback_time');
    await expect(page.getByTestId('condition-0-op').inputValue()).resolves.toBe('exists');
    await applyForm(page);
    await expect(page.getByTestId(`node-${branch}`).textContent()).resolves.toContain('if call.fields.callback_time');

    const setField = await addStep(page, `add-after-${branch}-true`, 'set-field');
    await page.getByTestId('field-field').fill('contact.callback_time');
    await page.getByTestId('field-value-tokens').selectOption('{{call.fields.callback_time}}');
    await applyForm(page);

    const tag = await addStep(page, `add-after-${branch}-false`, 'add-tag');
    await page.getByTestId('field-tags').fill('callback-unscheduled');
    await applyForm(page);

    // Branch handles are labelled on the canvas.
    await expect.poll(() => edgePairs(page)).toEqual([`${branch}->${setField}`, `${branch}->${tag}`].sort());
    await expect(page.locator('.edge-label').allTextContents()).resolves.toEqual(expect.arrayContaining(['true', 'false']));
    await save(page);
    await waitSaved(page, 1);
    await shot(page, 'editor-if-branch');

    const stored = await storedWorkflow(h, agentId);
    expect(stored.dispositionEntries.CALLBACK).toBe(branch);
    expect(stored.nodes.find((n) => n.id === branch)).toMatchObject({ type: 'if', config: { match: 'all', conditions: [{ field: 'call.fields.callback_time', op: 'exists' }] } });
    expect(stored.nodes.find((n) => n.id === setField)).toMatchObject({ type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' } });
    expect(stored.nodes.find((n) => n.id === tag)).toMatchObject({ type: 'add-tag', config: { tags: ['callback-unscheduled'] } });
    expect(stored.edges.map((e) => ({ source: e.source, target: e.target, sourceHandle: e.sourceHandle })).sort((a, b) => a.target.localeCompare(b.target))).toEqual(
      [
        { source: branch, target: setField, sourceHandle: 'true' },
        { source: branch, target: tag, sourceHandle: 'false' },
      ].sort((a, b) => a.target.localeCompare(b.target)),
    );
    // An if is built with PUT (the append endpoint builds routers only).
    expect(writes).toEqual([`PUT ${wfPath(agentId)}`]);
    expect((await versionSummaries(h, agentId))[0]).toBe('appended 3 nodes to CALLBACK');
    expect(stored.warnings.filter((w) => w.code === 'BRANCH_HANDLE_UNCONNECTED')).toEqual([]);

    const digest = (await h.api('GET', `${wfPath(agentId)}/digest`)).text;
    expect(digest).toContain('Call Back: if call.fields.callback_time');
    await page.close();
  });

  it('builds a router with two cases in No Action, each case a labelled handle', async () => {
    const { agentId } = await newAgent(h, locationId);
    const page = await newPage(browser);
    await openEditor(page, h, agentId);

    const router = await addStep(page, 'lane-add-NO_ACTION', 'switch');
    await page.getByTestId('case-0-label').fill('Interested');
    await page.getByTestId('case-0-condition-0-field').fill('call.fields.call_outcome');
    await page.getByTestId('case-0-condition-0-value').fill('interested');
    await page.getByTestId('add-case').click();
    await page.getByTestId('case-1-label').fill('Not now');
    await page.getByTestId('case-1-condition-0-field').fill('call.fields.call_outcome');
    await page.getByTestId('case-1-condition-0-value').fill('not_now');
    await applyForm(page);
    await expect(page.locator(`[data-testid="node-${router}"] .handle-label`).allTextContents()).resolves.toEqual(['Interested', 'Not now', 'otherwise']);

    const tag = await addStep(page, `add-after-${router}-case-1`, 'add-tag');
    await page.getByTestId('field-tags').fill('interested');
    await applyForm(page);
    const note = await addStep(page, `add-after-${router}-default`, 'add-note');
    await page.getByTestId('field-body').fill('No clear answer: {{call.callSummary}}');
    await applyForm(page);
    // Both edges are drawn from their own handles (the router's handles changed with its cases).
    await expect.poll(() => edgePairs(page)).toEqual([`${router}->${tag}`, `${router}->${note}`]);
    await expect(page.locator('.edge-label').allTextContents()).resolves.toEqual(expect.arrayContaining(['Interested', 'otherwise']));
    await save(page);
    await waitSaved(page, 1);
    await shot(page, 'editor-router');

    const stored = await storedWorkflow(h, agentId);
    expect(stored.dispositionEntries.NO_ACTION).toBe(router);
    expect(stored.nodes.find((n) => n.id === router)!.config).toEqual({
      cases: [
        { id: 'case-1', label: 'Interested', match: 'all', conditions: [{ field: 'call.fields.call_outcome', op: 'eq', value: 'interested' }] },
        { id: 'case-2', label: 'Not now', match: 'all', conditions: [{ field: 'call.fields.call_outcome', op: 'eq', value: 'not_now' }] },
      ],
    });
    expect(stored.edges.map((e) => [e.sourceHandle, e.target]).sort()).toEqual([
      ['case-1', tag],
      ['default', note],
    ]);
    // The case with nothing on it is worth a note, and the editor lists it.
    expect(stored.warnings).toContainEqual(expect.objectContaining({ code: 'BRANCH_HANDLE_UNCONNECTED', nodeId: router }));
    await page.getByTestId('tab-warnings').click();
    await expect(page.locator(`[data-testid="warning-item"][data-node-id="${router}"]`).count()).resolves.toBe(1);
    await page.close();
  });

  it('deletes a step and the chain is re-linked; undo and redo; copy and paste', async () => {
    const { agentId } = await newAgent(h, locationId);
    const seeded = await h.api('POST', `${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`, {
      body: {
        nodes: [
          { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}' } },
          { type: 'add-tag', config: { tags: ['vm-left'] } },
          { type: 'add-note', config: { body: 'Left a voicemail' } },
        ],
        expectedVersion: 0,
      },
    });
    expect(seeded.status).toBe(200);
    const [a, b, c] = seeded.body.workflow.nodes.map((n: { id: string }) => n.id) as [string, string, string];
    const page = await newPage(browser);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);
    await expect.poll(() => edgePairs(page)).toEqual([`${a}->${b}`, `${b}->${c}`]);

    // Delete the middle step with the keyboard: the canvas re-links a -> c at once.
    await page.locator(`.react-flow__node[data-id="${b}"]`).click();
    await page.keyboard.press('Delete');
    await expect.poll(() => stepIds(page)).toEqual([a, c].sort());
    await expect.poll(() => edgePairs(page)).toEqual([`${a}->${c}`]);
    await expect(page.getByTestId('save-button').isEnabled()).resolves.toBe(true);
    await expect(page.getByTestId('notice').textContent()).resolves.toContain('re-linked');

    // Undo brings it back, redo removes it again.
    await page.keyboard.press('Control+z');
    await expect.poll(() => stepIds(page)).toEqual([a, b, c].sort());
    await expect.poll(() => edgePairs(page)).toEqual([`${a}->${b}`, `${b}->${c}`]);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => stepIds(page)).toEqual([a, c].sort());
    await save(page);
    await waitSaved(page, 2);

    let stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.map((n) => n.id).sort()).toEqual([a, c].sort());
    expect(stored.edges.map((e) => [e.source, e.target])).toEqual([[a, c]]);
    expect((await versionSummaries(h, agentId))[0]).toBe(`deleted ${b}`);
    expect(writes).toEqual([`DELETE ${wfPath(agentId)}/nodes/${b}`]);

    // Copy the note, select the SMS, paste: a copy goes in between, with a fresh id.
    await page.locator(`.react-flow__node[data-id="${c}"]`).click();
    await page.keyboard.press('Control+c');
    await page.locator(`.react-flow__node[data-id="${a}"]`).click();
    await page.keyboard.press('Control+v');
    await expect.poll(() => stepIds(page)).toHaveLength(3);
    const ids = await stepIds(page);
    const copy = ids.find((id) => id !== a && id !== c)!;
    await expect.poll(() => edgePairs(page)).toEqual([`${a}->${copy}`, `${copy}->${c}`].sort());
    await save(page);
    await waitSaved(page, 3);
    stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.find((n) => n.id === copy)).toMatchObject({ type: 'add-note', config: { body: 'Left a voicemail' } });
    expect(stored.edges.map((e) => `${e.source}->${e.target}`).sort()).toEqual([`${a}->${copy}`, `${copy}->${c}`].sort());
    expect(writes.at(-1)).toBe(`PUT ${wfPath(agentId)}`);
    await shot(page, 'editor-delete-relink-paste');
    await page.close();
  });

  it('keeps a moved step where the admin put it after saving and reloading; the form refuses stand-ins', async () => {
    const { agentId } = await newAgent(h, locationId);
    await h.api('POST', `${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['a'] } }, { type: 'add-tag', config: { tags: ['b'] } }] } });
    const page = await newPage(browser);
    await openEditor(page, h, agentId);

    // Drag the second step aside and save: its position is stored (PUT), the other is laid out.
    const node = page.locator('.react-flow__node[data-id="n2"]');
    const box = (await node.boundingBox())!;
    await page.mouse.move(box.x + 60, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + 260, box.y + 60, { steps: 8 });
    await page.mouse.up();
    await save(page);
    await waitSaved(page, 2);
    const moved = (await storedWorkflow(h, agentId)).nodes.find((n) => n.id === 'n2')!;
    await page.reload();
    await canvasReady(page);
    const after = (await page.locator('.react-flow__node[data-id="n2"]').boundingBox())!;
    const first = (await page.locator('.react-flow__node[data-id="n1"]').boundingBox())!;
    expect(after.x - first.x).toBeGreaterThan(120);
    expect((await storedWorkflow(h, agentId)).nodes.find((n) => n.id === 'n2')!.position).toEqual(moved.position);

    // Insert a step between the two: the edge's "+" (saved with PUT, positions included).
    const writes = recordWrites(page);
    const between = await addStep(page, 'edge-insert-e1', 'add-note');
    await page.getByTestId('field-body').fill('Called back');
    await applyForm(page);
    await expect.poll(() => edgePairs(page)).toEqual([`n1->${between}`, `${between}->n2`]);
    await save(page);
    await waitSaved(page, 3);
    const stored = await storedWorkflow(h, agentId);
    expect(stored.edges.map((e) => `${e.source}->${e.target}`).sort()).toEqual([`n1->${between}`, `${between}->n2`]);
    expect(stored.nodes.find((n) => n.id === 'n2')!.position).toEqual(moved.position);
    expect(writes).toEqual([`PUT ${wfPath(agentId)}`]);

    // A stand-in slips past nothing: the form says so before the server would.
    await page.locator('.react-flow__node[data-id="n1"]').click();
    await page.getByTestId('field-tags').fill('REPLACE-WITH-TAG');
    await expect(page.getByTestId('form-apply').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('node-form').textContent()).resolves.toContain('unreplaced stand-in');
    await page.close();
  });

  it('works from the keyboard: focus a step, select, delete, undo, add from a "+" with the arrow keys', async () => {
    const { agentId } = await newAgent(h, locationId);
    await h.api('POST', `${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['a'] } }, { type: 'add-tag', config: { tags: ['b'] } }] } });
    const page = await newPage(browser);
    await openEditor(page, h, agentId);

    // Steps are focusable and named for screen readers.
    const n1 = page.locator('.react-flow__node[data-id="n1"]');
    await expect(n1.getAttribute('aria-label')).resolves.toBe('Add tag, step n1: + a');
    await n1.focus();
    await page.keyboard.press('Enter');
    await expect(n1.getAttribute('class')).resolves.toContain('selected');
    await n1.focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => stepIds(page)).toEqual(['n2']);
    await page.keyboard.press('Control+z');
    await expect.poll(() => stepIds(page)).toEqual(['n1', 'n2']);

    // The "+" under the last step opens the add menu with the keyboard; arrows move, Enter adds.
    await page.getByTestId('add-after-n2').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('add-menu').waitFor();
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('add-menu-item-add-tag');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const form = page.getByTestId('node-form');
    await form.waitFor();
    await expect(form.getAttribute('data-node-id')).resolves.toBe('n3');
    await expect.poll(() => stepIds(page)).toEqual(['n1', 'n2', 'n3']);
    // The new step's form takes the keyboard: type, then Ctrl+Enter applies.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('field-tags');
    await page.keyboard.type('c');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('node-n3').textContent()).resolves.toContain('− c');

    // Arrow keys move the selected step like a drag; Ctrl+S saves the whole graph with it.
    const before = (await n1.boundingBox())!;
    await n1.focus();
    await page.keyboard.press('Enter');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    const after = (await n1.boundingBox())!;
    expect(after.x).toBeGreaterThan(before.x + 10);
    await save(page);
    await waitSaved(page, 2);
    const stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.map((n) => [n.id, n.type]).sort()).toEqual([['n1', 'add-tag'], ['n2', 'add-tag'], ['n3', 'remove-tag']]);
    expect(stored.nodes.find((n) => n.id === 'n3')!.config).toEqual({ tags: ['c'] });
    await page.close();
  });
});
