/**
 * The API keys page, in Chromium against the real app: an admin key lists the agency's keys, makes
 * a project key offering only the scopes and projects it holds itself (from the keyboard), sees the
 * secret once with a copy button, and revokes a key; what the page did is what the API stored. A
 * project_user key sees none of the admin pages, and one reached by its URL says why not.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectBrowserErrors, newPage, shot, signIn } from './editor-page.js';
import { consoleReady, storageHolds, tabTo } from './console-page.js';

let h: Harness;
let browser: Browser;
let a: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let b: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
const MINE = ['projects:read', 'calls:read', 'power_dialer:read', 'keys:write', 'agency:read'] as const;

beforeAll(async () => {
  h = await createHarness();
  browser = await launchBrowser();
  a = await createProjectAgentCampaign(h);
  b = await createProjectAgentCampaign(h);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function openKeys(page: Page, key: string) {
  await page.goto(`${h.url}/editor/keys`);
  await signIn(page, key);
  await consoleReady(page);
}

describe('API keys', () => {
  it('an admin makes a project key from what it may grant, sees its secret once, and revokes a key', async () => {
    const { key: dana, secret: danaSecret } = await h.store.apiKeys.create({ agencyId: h.agencyId, name: "Dana's console", role: 'agency_admin', scopes: [...MINE], projectIds: [] });
    const other = await h.store.apiKeys.create({ agencyId: h.agencyId, name: 'Old script', role: 'agency_admin', scopes: ['projects:read'], projectIds: [] });
    const page = await newPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
    await openKeys(page, danaSecret);

    // Every key of the agency; the one signed in with says so and cannot revoke itself.
    await page.getByTestId(`key-row-${other.key.id}`).waitFor();
    await expect(page.getByTestId(`key-row-${dana.id}`).textContent()).resolves.toContain('you are signed in with this key');
    await expect(page.getByTestId(`key-revoke-${dana.id}`).count()).resolves.toBe(0);
    await expect(page.getByTestId('nav-keys').getAttribute('aria-current')).resolves.toBe('page');
    await shot(page, 'console-keys');

    // From the keyboard: New key, a name, the project_user role, two scopes, one project.
    await tabTo(page, 'key-new');
    await page.keyboard.press('Enter');
    await page.getByTestId('new-key-dialog').waitFor();
    // Only the scopes Dana's key holds, and only projects it reaches, are offered.
    const offered = await page.locator('[data-testid^="key-scope-"]:not([data-testid="key-scopes-all"])').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice('key-scope-'.length)));
    expect(offered.sort()).toEqual([...MINE].sort());
    await page.keyboard.type('Clinic dashboard');
    await tabTo(page, 'key-role-agency_admin');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('key-role-project_user').isChecked()).resolves.toBe(true);
    for (const scope of ['calls:read', 'power_dialer:read']) {
      await tabTo(page, `key-scope-${scope}`);
      await page.keyboard.press('Space');
    }
    await expect(page.locator('[data-testid^="key-project-"]').count()).resolves.toBe(2);
    await tabTo(page, `key-project-${a.locationId}`);
    await page.keyboard.press('Space');
    await shot(page, 'console-keys-new');
    await tabTo(page, 'key-create');
    await page.keyboard.press('Enter');

    // The secret, once, with a copy button; nothing of it in the browser's storage.
    const secretBox = page.getByTestId('key-secret-value');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^vck_/);
    await page.getByTestId('key-secret-copy').click();
    await page.getByTestId('key-secret').getByText('Copied.').waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(secret);
    await expect(storageHolds(page, secret)).resolves.toBe(false);
    await shot(page, 'console-keys-secret');

    // What the API stored: the role, the two scopes, project A only; the key reaches A and not B.
    const stored = ((await h.api('GET', '/api/keys')).body.data as { name: string; id: string; role: string; scopes: string[]; projectIds: string[]; createdBy: string }[]).find((k) => k.name === 'Clinic dashboard')!;
    expect(stored).toMatchObject({ role: 'project_user', projectIds: [a.projectId], createdBy: dana.id });
    expect(stored.scopes.sort()).toEqual(['calls:read', 'power_dialer:read']);
    const seen = await h.api('GET', '/api/call-history', { key: secret });
    expect(seen.status).toBe(200);
    expect((await h.api('GET', `/api/power-dialer/pipeline/leads?cadenceStep=0&locationId=${b.locationId}`, { key: secret })).status).toBe(403);

    // Closed, the secret is gone from the page too; the new key is listed, never its secret.
    await tabTo(page, 'key-created-done');
    await page.keyboard.press('Enter');
    await page.getByTestId('key-created').waitFor({ state: 'detached' });
    await page.getByTestId(`key-row-${stored.id}`).waitFor();
    expect(await page.content()).not.toContain(secret);
    await expect(storageHolds(page, secret)).resolves.toBe(false);

    // Revoke the old script's key: refused from its next request on.
    await page.getByTestId(`key-revoke-${other.key.id}`).click();
    await page.getByTestId('key-revoke-confirm').click();
    await page.locator(`[data-testid="key-row-${other.key.id}"][data-status="revoked"]`).waitFor();
    expect((await h.api('GET', '/api/v2/projects', { key: other.secret })).status).toBe(401);
    await shot(page, 'console-keys-revoked');

    // Narrow window: every key is a card with labelled fields.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId(`key-row-${stored.id}`).scrollIntoViewIfNeeded();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await shot(page, 'console-keys-narrow');
  });

  it('a project_user key sees only its projects and no admin page; the keys page reached by its URL says why not', async () => {
    const key = await h.key({ role: 'project_user', scopes: ['projects:read', 'calls:read'], projectIds: [a.projectId] });
    const page = await newPage(browser);
    await page.goto(`${h.url}/editor/`);
    await signIn(page, key);
    await consoleReady(page);
    await page.getByTestId(`project-${a.locationId}`).waitFor();
    await expect(page.getByTestId(`project-${b.locationId}`).count()).resolves.toBe(0);
    const nav = await page.getByTestId('console-nav').locator('a').allTextContents();
    expect(nav).toEqual(['Projects', 'Calls', 'Failed runs']);

    await page.goto(`${h.url}/editor/keys`);
    const failure = page.getByTestId('failure');
    await failure.waitFor();
    await expect(failure.getAttribute('data-kind')).resolves.toBe('forbidden');
    await expect(failure.textContent()).resolves.toMatch(/Your API key may not list the agency's API keys: this operation needs the role agency_admin/);
    await expect(page.getByTestId('key-new').count()).resolves.toBe(0);
    await shot(page, 'console-keys-project-user');
    // The browser logs each refused request: the page's and the two that ask what this key may see.
    expectBrowserErrors(page, [/403/]);
  });
});
