import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { ARTIFACTS, launchBrowser } from '../helpers/browser.js';

let h: Harness;
let browser: Browser;
beforeAll(async () => {
  h = await createHarness();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('/editor in Chromium', () => {
  it('signs in with an API key and shows the campaign graph', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    const append = await h.api('POST', `/api/agent-builder/agents/${agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
      body: { nodes: [{ type: 'send-sms', config: { body: 'Hi {{contact.firstName}}' } }, { type: 'add-tag', config: { tags: ['vm-left'] } }] },
    });
    expect(append.status).toBe(200);

    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${h.url}/editor/agents/${agentId}`);
    await page.getByLabel('API key').fill(h.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.react-flow__node').first().waitFor();
    const ids = await page.locator('.react-flow__node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    expect(ids.sort()).toEqual(append.body.workflow.nodes.map((n: { id: string }) => n.id).sort());
    await expect(page.getByTestId('version').textContent()).resolves.toContain('version 1');
    await page.screenshot({ path: path.join(ARTIFACTS, 'editor-foundation.png') });
    await page.close();
  });
});
