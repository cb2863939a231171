/**
 * History in Chromium against the real app: each version says what it changed in words (the
 * server's business diff), any older version opens read-only on the canvas under a banner (nothing
 * can be edited or saved there), and restoring from that preview first says what it changes.
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

const texts = (changes: { text: string }[]) => changes.map((c) => c.text);

describe('history: business diffs and read-only versions', () => {
  it('shows what each version changed, opens an old one read-only, and restores it after saying what changes', async () => {
    const { agentId } = await newAgent(h, locationId);
    const wf = wfPath(agentId);
    // v1: Voicemail texts and tags; v2: Call Back books; v3: the SMS text changes; v4: Call Back stops booking.
    await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'send-sms', config: { body: 'Sorry we missed you' } }, { type: 'add-tag', config: { tags: ['vm-left'] } }] } });
    await h.api('POST', `${wf}/outcomes/CALLBACK/nodes`, { body: { nodes: [{ type: 'book-appointment', config: { durationMinutes: 30 } }] } });
    const v2 = await storedWorkflow(h, agentId);
    const sms = v2.nodes.find((n) => n.type === 'send-sms')!.id;
    const book = v2.nodes.find((n) => n.type === 'book-appointment')!.id;
    const tag = v2.nodes.find((n) => n.type === 'add-tag')!.id;
    await h.api('PATCH', wf, { body: { nodes: [{ id: sms, config: { body: 'Hi {{contact.firstName}}, call us back' } }] } });
    expect((await h.api('DELETE', `${wf}/nodes/${book}`)).status).toBe(200);
    const diffOf = async (a: number, b: number) => texts((await h.api('GET', `${wf}/versions/${a}/diff/${b}`)).body.data.changes);

    const page = await newPage(browser);
    const writes = recordWrites(page);
    await openEditor(page, h, agentId);
    await page.getByTestId('tab-history').click();
    // Each version, in words, as the server derives it from the graphs.
    for (const [v, words] of [
      [4, 'Call Back no longer does anything (it books an appointment before)'],
      [3, 'Voicemail: the SMS text changed from "Sorry we missed you" to "Hi {{contact.firstName}}, call us back"'],
      [2, 'Call Back now books an appointment'],
      [1, 'Voicemail now sends an SMS, then adds tag vm-left'],
    ] as const) {
      const changes = page.getByTestId(`version-changes-${v}`);
      await changes.scrollIntoViewIfNeeded();
      await changes.locator('li').first().waitFor();
      const shown = await changes.locator('li').allTextContents();
      expect(shown).toEqual(await diffOf(v - 1, v));
      expect(shown).toContain(words);
    }
    await page.getByTestId('version-row-4').scrollIntoViewIfNeeded();
    await shot(page, 'editor-history-diff');

    // Version 2, read-only: its steps on the canvas, a banner, nothing to edit or save.
    await page.getByTestId('preview-2').click();
    const banner = page.getByTestId('preview-banner');
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toMatch(/Version 2.*read-only.*the current version is 4/);
    await page.locator('[data-testid="canvas"][data-read-only="true"][data-ready="true"]').waitFor();
    await expect.poll(() => stepIds(page)).toEqual([sms, tag, book].sort());
    await expect(page.getByTestId(`node-${sms}`).textContent()).resolves.toContain('Sorry we missed you');
    await expect(page.getByTestId(`lane-add-VOICEMAIL`).isVisible()).resolves.toBe(false);
    await expect(page.getByTestId(`add-after-${book}`).isVisible()).resolves.toBe(false);
    await expect(page.getByTestId('save-status').textContent()).resolves.toBe('Viewing version 2, read-only');
    await expect(page.getByTestId('save-button').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('test-run-button').isDisabled()).resolves.toBe(true);
    // A step of the old version cannot be dragged: its place in the flow stays (the view may pan).
    const node = page.locator(`.react-flow__node[data-id="${book}"]`);
    const placed = () => node.evaluate((el) => (el as HTMLElement).style.transform);
    const before = await placed();
    const box = (await node.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 150, box.y + 120, { steps: 5 });
    await page.mouse.up();
    expect(await placed()).toBe(before);
    await shot(page, 'editor-version-preview');

    // Back to the current version: the working canvas as it was.
    await page.getByTestId('preview-close').click();
    await banner.waitFor({ state: 'detached' });
    await page.locator('[data-testid="canvas"]:not([data-read-only])[data-ready="true"]').waitFor();
    await expect.poll(() => stepIds(page)).toEqual([sms, tag].sort());
    expect(writes).toEqual([]);

    // Restore from the preview: the dialog first says what changes from the current version.
    await page.getByTestId('preview-2').click();
    await banner.waitFor();
    await page.getByTestId('preview-restore').click();
    const restoreChanges = page.getByTestId('restore-changes');
    await restoreChanges.locator('li').first().waitFor();
    await expect(restoreChanges.locator('li').allTextContents()).resolves.toEqual(await diffOf(4, 2));
    await expect(restoreChanges.textContent()).resolves.toContain('Call Back now books an appointment');
    await shot(page, 'editor-restore-dialog');
    await page.getByTestId('restore-confirm').click();
    await waitSaved(page, 5);
    await expect(page.getByTestId('save-status').textContent()).resolves.toBe('Restored version 2 as version 5');
    await expect(banner.count()).resolves.toBe(0);
    await expect.poll(() => stepIds(page)).toEqual([sms, tag, book].sort());
    const stored = await storedWorkflow(h, agentId);
    expect(stored.nodes.map(({ id, type, config }) => ({ id, type, config }))).toEqual(v2.nodes.map(({ id, type, config }) => ({ id, type, config })));
    expect(stored.dispositionEntries).toEqual(v2.dispositionEntries);
    expect(writes).toEqual([`PUT ${wf}`]);
    await page.close();
  });
});
