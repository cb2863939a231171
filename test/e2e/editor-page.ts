/**
 * Driving /editor in Chromium for the end-to-end tests: sign in, wait for the canvas, add steps,
 * read the canvas. Selectors are the editor's stable data-testids.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, onTestFinished } from 'vitest';
import { ARTIFACTS } from '../helpers/browser.js';
import type { Harness } from '../helpers/harness.js';

export const VIEWPORT = { width: 1280, height: 800 };

const browserErrors = new WeakMap<Page, string[]>();

/**
 * A page for one test. Every uncaught exception in the page and every console error is collected,
 * and the test fails when it finishes if any is left: an editor that throws while the assertions
 * happen to pass is still broken. Errors a test provokes on purpose are claimed with
 * `expectBrowserErrors`, in the test, never here.
 */
export async function newPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  browserErrors.set(page, errors);
  // The app runs under its Content-Security-Policy: any violation is an error the test fails on.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`));
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.stack ?? err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const at = msg.location().url;
    errors.push(`console.error: ${msg.text()}${at ? ` (${at})` : ''}`);
  });
  onTestFinished(() => {
    const left = errors.splice(0);
    if (left.length) throw new Error(`the page reported ${left.length} error(s):\n${left.join('\n')}`);
  });
  return page;
}

/**
 * Claims the console errors a test causes on purpose (the browser logs every 4xx answer, such as
 * the 409 of a save against a newer version). Each pattern must match at least one error, so a
 * claim cannot outlive the behaviour it names; everything unclaimed still fails the test.
 */
export function expectBrowserErrors(page: Page, patterns: RegExp[]): void {
  const errors = browserErrors.get(page);
  if (!errors) throw new Error('not a page made by newPage');
  for (const re of patterns) {
    const hits = errors.filter((e) => re.test(e));
    if (hits.length === 0) throw new Error(`expected a browser error matching ${re}, saw: ${errors.join(' | ') || 'none'}`);
    for (const hit of hits) errors.splice(errors.indexOf(hit), 1);
  }
}

/** As expectBrowserErrors, for errors the browser reports a moment after the action (CSP violations): each is awaited first. */
export async function awaitBrowserErrors(page: Page, patterns: RegExp[]): Promise<void> {
  const errors = browserErrors.get(page);
  if (!errors) throw new Error('not a page made by newPage');
  await expect.poll(() => patterns.every((re) => errors.some((e) => re.test(e))), { timeout: 5000 }).toBe(true);
  expectBrowserErrors(page, patterns);
}

/** Waits until the canvas is laid out and framed (the editor sets data-ready then). */
export async function canvasReady(page: Page): Promise<void> {
  await page.locator('[data-testid="canvas"][data-ready="true"]').waitFor();
}

export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens an agent's workflow by deep link and signs in on the way. */
export async function openEditor(page: Page, h: Harness, agentId: string, campaignId?: string): Promise<void> {
  await page.goto(`${h.url}/editor/agents/${agentId}${campaignId ? `?campaignId=${campaignId}` : ''}`);
  await signIn(page, h.adminKey);
  await canvasReady(page);
}

/** Ids of the steps drawn on the canvas (lanes excluded), sorted. */
export async function stepIds(page: Page): Promise<string[]> {
  const ids = await page.locator('.react-flow__node:not(.react-flow__node-lane)').evaluateAll((els) => els.map((e) => e.getAttribute('data-id') ?? ''));
  return ids.sort();
}

/** Adds a step through a "+" button's menu; returns the new step's id (the form that opens names it). */
export async function addStep(page: Page, plusTestId: string, type: string): Promise<string> {
  await page.getByTestId(plusTestId).click();
  await page.getByTestId(`add-menu-item-${type}`).click();
  const form = page.getByTestId('node-form');
  await form.waitFor();
  return (await form.getAttribute('data-node-id'))!;
}

/**
 * Opens a step's form by clicking the step on the canvas. Adding a step glides the view to it
 * (`setCenter`, 200 ms, started after the form opens); a click aimed while the view still moves
 * can land beside the step. So the view is awaited until it stays put between two reads 100 ms
 * apart, then the step is clicked and its form awaited.
 */
export async function openStep(page: Page, id: string): Promise<void> {
  const viewport = page.locator('.react-flow__viewport');
  let last: string | null = null;
  await expect
    .poll(async () => {
      const now = await viewport.getAttribute('style');
      const still = now === last;
      last = now;
      return still;
    }, { interval: 100, timeout: 15_000 })
    .toBe(true);
  await page.locator(`.react-flow__node[data-id="${id}"]`).click();
  await page.locator(`[data-testid="node-form"][data-node-id="${id}"]`).waitFor();
}

export async function applyForm(page: Page): Promise<void> {
  await page.getByTestId('form-apply').click();
}

export async function save(page: Page): Promise<void> {
  await page.keyboard.press('Control+s');
}

export async function waitSaved(page: Page, version: number): Promise<void> {
  await page.getByTestId('version').filter({ hasText: `version ${version}` }).waitFor();
  await page.getByTestId('save-status').filter({ hasText: /Saved|Restored|Applied|Overwrote|Started from/ }).waitFor();
}

/** The "Insert a step between A and B" labels of the edges on the canvas: one per edge, readable. */
export async function edgePairs(page: Page): Promise<string[]> {
  const labels = await page.locator('[data-testid^="edge-insert-"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  return labels.map((l) => l.replace('Insert a step between ', '').replace(' and ', '->')).sort();
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Another agent (with its primary campaign) in an existing project: the plan allows only 3 live projects. */
export async function newAgent(h: Harness, locationId: string, name = 'Front desk', more: Record<string, unknown> = {}) {
  const r = await h.api('POST', '/api/agent-builder/agents', { body: { name, agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'], ...more } });
  if (r.status !== 200) throw new Error(`create agent: ${r.status} ${r.text}`);
  return { agentId: r.body.data.id as string, campaignId: r.body.data.campaignId as string };
}

/**
 * Every write the page sends to the API, as "METHOD /path" (query left out), in order. The impact
 * preview (`POST …/workflow/impact`) stores nothing and is left out; `recordImpactReads` counts it.
 */
export function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/') && req.method() !== 'GET' && !url.pathname.endsWith('/workflow/impact')) writes.push(`${req.method()} ${url.pathname}`);
  });
  return writes;
}

/** The impact previews the page asks for before saving, as their request bodies. */
export function recordImpactReads(page: Page): { nodes: { id: string; type: string; config: Record<string, unknown> }[] }[] {
  const bodies: { nodes: { id: string; type: string; config: Record<string, unknown> }[] }[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname.endsWith('/workflow/impact')) bodies.push(req.postDataJSON());
  });
  return bodies;
}

export const wfPath = (agentId: string) => `/api/agent-builder/agents/${agentId}/campaign/workflow`;

export async function storedWorkflow(h: Harness, agentId: string) {
  const r = await h.api('GET', wfPath(agentId));
  if (r.status !== 200) throw new Error(`GET workflow: ${r.status} ${r.text}`);
  return r.body.data as {
    version: number;
    nodes: { id: string; type: string; label?: string; config: Record<string, unknown>; position: { x: number; y: number } }[];
    edges: { id: string; source: string; target: string; sourceHandle?: string }[];
    dispositionEntries: Record<string, string>;
    warnings: { code: string; nodeId?: string }[];
  };
}

export async function versionSummaries(h: Harness, agentId: string): Promise<string[]> {
  const r = await h.api('GET', `${wfPath(agentId)}/versions`);
  return (r.body.data as { summary: string }[]).map((v) => v.summary);
}
