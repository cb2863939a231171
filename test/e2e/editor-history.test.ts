/**
 * Saving safely and looking back, in Chromium against the real app and a real Temporal worker:
 * a version conflict with a second client (diff, apply on top, a refusal shown on its step,
 * deliberate overwrite), restoring an older version, and a real post-call run's path on the canvas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { addStep, applyForm, edgePairs, expectBrowserErrors, newAgent, newPage, openEditor, recordWrites, save, shot, stepIds, storedWorkflow, waitSaved, wfPath } from './editor-page.js';

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

describe('saving against other writers, history and runs', () => {
  it('a second client saves first: the editor shows both sides and resolves it without losing anything', async () => {
    const { agentId } = await newAgent(h, locationId);
    const seeded = await h.api('POST', `${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }], expectedVersion: 0 } });
    const tag = seeded.body.workflow.nodes[0].id as string;
    const page = await newPage(browser);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);

    // We add an SMS at the end of Voicemail...
    await addStep(page, `add-after-${tag}`, 'send-sms');
    await page.getByTestId('field-body').fill('Sorry we missed you, {{contact.firstName}}!');
    await applyForm(page);
    // ...while another client appends to Call Back.
    const other = await h.api('POST', `${wfPath(agentId)}/outcomes/CALLBACK/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['callback'] } }], expectedVersion: 1 } });
    expect(other.status).toBe(200);

    await save(page);
    const dialog = page.getByTestId('conflict-dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('version 2 is stored now');
    await expect(page.getByTestId('conflict-theirs').textContent()).resolves.toContain('add tag callback');
    await expect(page.getByTestId('conflict-mine').textContent()).resolves.toContain('send SMS "Sorry we missed you');
    await shot(page, 'editor-conflict');
    expect((await storedWorkflow(h, agentId)).version).toBe(2);

    // Our change was one append: it can go on top of theirs.
    await page.getByTestId('conflict-rebase').click();
    await waitSaved(page, 3);
    let stored = await storedWorkflow(h, agentId);
    const sms = stored.nodes.find((n) => n.type === 'send-sms')!;
    expect(stored.nodes.map((n) => n.type).sort()).toEqual(['add-tag', 'add-tag', 'send-sms']);
    expect(stored.edges.map((e) => [e.source, e.target])).toEqual([[tag, sms.id]]);
    expect(stored.dispositionEntries.CALLBACK).toBe(other.body.workflow.dispositionEntries.CALLBACK);
    await expect.poll(() => stepIds(page)).toEqual(stored.nodes.map((n) => n.id).sort());
    expect(writes).toEqual([`POST ${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`, `POST ${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`]);

    // Next: we edit the tag step while the other client deletes it.
    await page.locator(`.react-flow__node[data-id="${tag}"]`).click();
    await page.getByTestId('field-tags').fill('vm-left, missed-call');
    await applyForm(page);
    expect((await h.api('DELETE', `${wfPath(agentId)}/nodes/${tag}?expectedVersion=3`)).status).toBe(200);
    await save(page);
    await dialog.waitFor();
    await expect(page.getByTestId('conflict-theirs').textContent()).resolves.toContain(`Removed ${tag}`);
    // Applying our edit on top is refused by the server: the refusal lands on the step it names.
    await page.getByTestId('conflict-rebase').click();
    await page.getByTestId(`node-${tag}-error`).waitFor();
    await expect(page.getByTestId('form-server-error').textContent()).resolves.toContain(tag);
    expect((await storedWorkflow(h, agentId)).version).toBe(4);

    // So we overwrite, deliberately: a PUT of our graph over version 4.
    await save(page);
    await dialog.waitFor();
    await page.getByTestId('conflict-overwrite').click();
    await waitSaved(page, 5);
    stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.find((n) => n.id === tag)).toMatchObject({ type: 'add-tag', config: { tags: ['vm-left', 'missed-call'] } });
    expect(stored.dispositionEntries.VOICEMAIL).toBe(tag);
    expect(stored.edges.map((e) => [e.source, e.target])).toEqual([[tag, sms.id]]);
    expect(writes.slice(2)).toEqual([`PATCH ${wfPath(agentId)}`, `PATCH ${wfPath(agentId)}`, `PATCH ${wfPath(agentId)}`, `PUT ${wfPath(agentId)}`]);
    // The browser logs each refusal this test provokes: the stale append and PATCHes (409) and the
    // PATCH of the deleted step (404). Nothing else may appear.
    const refused = (status: string, url: string) => new RegExp(`status of ${status} \\(http://[^)]*${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`);
    expectBrowserErrors(page, [
      refused('409 \\(Conflict\\)', `${wfPath(agentId)}/outcomes/VOICEMAIL/nodes`),
      refused('409 \\(Conflict\\)', wfPath(agentId)),
      refused('404 \\(Not Found\\)', wfPath(agentId)),
    ]);
    await page.close();
  });

  it('restores an older version from the history', async () => {
    const { agentId } = await newAgent(h, locationId);
    const base = `${wfPath(agentId)}`;
    await h.api('POST', `${base}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['first'] } }] } });
    await h.api('POST', `${base}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-note', config: { body: 'second' } }] } });
    await h.api('PATCH', base, { body: { nodes: [{ id: 'n1', config: { tags: ['third'] } }], expectedVersion: 2 } });
    const v1 = (await h.api('GET', `${base}/versions/1`)).body.data;
    const page = await newPage(browser);
    await openEditor(page, h, agentId);
    await expect.poll(() => stepIds(page)).toEqual(['n1', 'n2']);

    await page.getByTestId('tab-history').click();
    await page.getByTestId('version-row-1').waitFor();
    const rows = await page.locator('[data-testid^="version-row-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(rows).toEqual(['version-row-3', 'version-row-2', 'version-row-1']);
    await shot(page, 'editor-history');
    await page.getByTestId('restore-1').click();
    // The restore first says what it changes from the current version.
    await expect(page.getByTestId('restore-changes').textContent()).resolves.toContain('Voicemail no longer adds a note');
    await page.getByTestId('restore-confirm').click();
    await waitSaved(page, 4);
    await expect.poll(() => page.getByTestId('save-status').textContent()).toBe('Restored version 1 as version 4');
    await expect.poll(() => stepIds(page)).toEqual(['n1']);
    await expect(page.getByTestId('node-n1').textContent()).resolves.toContain('+ first');
    await page.getByTestId('version-row-4').waitFor();

    const stored = await storedWorkflow(h, agentId);
    expect(stored.version).toBe(4);
    expect(stored.nodes.map(({ id, type, config }) => ({ id, type, config }))).toEqual(v1.nodes.map(({ id, type, config }: { id: string; type: string; config: object }) => ({ id, type, config })));
    expect(stored.edges).toEqual(v1.edges);
    expect(stored.dispositionEntries).toEqual(v1.dispositionEntries);
    await page.close();
  });

  it('opens a real run from the execution history and highlights the path it took', async () => {
    const { agentId, campaignId } = await newAgent(h, locationId);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId, firstName: 'Ana', phone: '+15125550123' });
    const put = await h.api('PUT', wfPath(agentId), {
      body: {
        nodes: [
          { id: 'n1', type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, sorry we missed you!' }, position: { x: 0, y: 0 } },
          { id: 'n2', type: 'if', config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 10 }] }, position: { x: 0, y: 140 } },
          { id: 'n3', type: 'add-tag', config: { tags: ['long-call'] }, position: { x: -80, y: 280 } },
          { id: 'n4', type: 'add-tag', config: { tags: ['short-call'] }, position: { x: 80, y: 280 } },
        ],
        edges: [
          { id: 'e1', source: 'n1', target: 'n2' },
          { id: 'e2', source: 'n2', target: 'n3', sourceHandle: 'true' },
          { id: 'e3', source: 'n2', target: 'n4', sourceHandle: 'false' },
        ],
        dispositionEntries: { VOICEMAIL: 'n1' },
        expectedVersion: 0,
      },
    });
    expect(put.status).toBe(200);
    const event = callEnded(campaignId, { contactId: contact.id, disposition: 'VOICEMAIL' });
    expect((await postCallEvent(h, event)).status).toBe(202);
    await expect(awaitRun(h, event.call.callId)).resolves.toMatchObject({ status: 'succeeded' });

    const page = await newPage(browser);
    await openEditor(page, h, agentId);
    await page.getByTestId('tab-runs').click();
    const row = page.locator(`[data-call-id="${event.call.callId}"]`);
    // Each run links to its workflow in the Temporal Web UI.
    const temporalUrl = `${h.services.config.temporalUiUrl}/namespaces/default/workflows/${encodeURIComponent((await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!.workflowId)}`;
    await expect(page.locator(`[data-testid^="execution-temporal-"]`).first().getAttribute('href')).resolves.toBe(temporalUrl);
    await row.click();
    await page.getByTestId('run-banner').waitFor();
    await expect(page.getByTestId('run-temporal-link').getAttribute('href')).resolves.toBe(temporalUrl);
    await expect(page.getByTestId('run-banner').textContent()).resolves.toContain('ended in Voicemail: run succeeded');

    // Each visited step shows its status; the branch not taken is dimmed; the path's edges are highlighted.
    await expect(page.getByTestId('node-n1').getAttribute('data-status')).resolves.toBe('succeeded');
    await expect(page.getByTestId('node-n2').getAttribute('data-status')).resolves.toBe('evaluated');
    await expect(page.getByTestId('node-n3').getAttribute('data-status')).resolves.toBe('succeeded');
    await expect(page.getByTestId('node-n4').getAttribute('data-status')).resolves.toBeNull();
    await expect(page.getByTestId('node-n4').getAttribute('class')).resolves.toContain('run-dim');
    const onPath = await page.locator('[data-testid^="edge-e"][data-on-path]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
    expect(onPath.sort()).toEqual(['edge-e1', 'edge-e2']);
    await expect(page.locator('.entry-edge.on-path').count()).resolves.toBe(1);
    await expect(page.locator('.flow-edge.on-path').count()).resolves.toBe(2);
    // The step list shows what was sent, rendered.
    await expect(page.getByTestId('run-step-n1').textContent()).resolves.toContain('Hi Ana, sorry we missed you!');
    await shot(page, 'editor-run-path');

    const runs = (await h.api('GET', `${wfPath(agentId)}/executions`)).body.data as { callId: string; status: string; steps: { nodeId: string; status: string }[] }[];
    const run = runs.find((r) => r.callId === event.call.callId)!;
    expect(run.status).toBe('succeeded');
    expect(run.steps.map((s) => [s.nodeId, s.status])).toEqual([
      ['n1', 'succeeded'],
      ['n2', 'evaluated'],
      ['n3', 'succeeded'],
    ]);
    expect((await h.store.crm.getContact(h.agencyId, locationId, contact.id))!.tags).toEqual(['long-call']);

    // Closing the run clears the highlight.
    await page.getByTestId('run-close').click();
    await expect(page.getByTestId('node-n1').getAttribute('data-status')).resolves.toBeNull();
    await expect.poll(() => edgePairs(page)).toEqual(['n1->n2', 'n2->n3', 'n2->n4']);
    await page.close();
  });
});
