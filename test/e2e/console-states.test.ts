/**
 * Every console page while its first read is under way and when it fails, in Chromium against the
 * real app: the read is held (the page says it is loading), then answered with a server error (the
 * page says what it could not read, with Retry), then let through; Retry, reached and pressed from
 * the keyboard, shows the page. Empty states and 403s are in each page's own test file.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { callEnded, postCallEvent } from '../helpers/events.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectBrowserErrors, newPage, shot, signIn } from './editor-page.js';
import { tabTo } from './console-page.js';

let h: Harness;
let browser: Browser;
let p: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let callId: string;

beforeAll(async () => {
  h = await createHarness({ temporal: true });
  browser = await launchBrowser();
  p = await createProjectAgentCampaign(h);
  const event = callEnded(p.campaignId, { leadName: 'Ana Lopez' });
  expect((await postCallEvent(h, event)).status).toBe(202);
  callId = event.call.callId;
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** Holds the page's reads of `path` until released, then answers them with a 500 until `unroute`. */
async function faultOn(page: Page, path: string) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const matches = (url: URL) => url.pathname === path;
  const handler = async (route: Route) => {
    await held;
    await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, error: 'InternalError', message: 'the store is down (a test fault)' }) });
  };
  await page.route(matches, handler);
  return { release, stop: () => page.unroute(matches, handler) };
}

const PAGES = [
  { name: 'keys', url: () => '/editor/keys', read: () => '/api/keys', loading: 'Loading keys…', what: () => "Could not list the agency's API keys", ready: () => 'keys-table' },
  { name: 'connections', url: () => '/editor/connections', read: () => '/api/agency', loading: 'Loading the agency', what: () => "Could not read the agency's connections", ready: () => 'locations-table' },
  { name: 'project-connection', url: () => `/editor/projects/${p.locationId}/connection`, read: () => `/api/v2/projects/${p.locationId}`, loading: 'Loading the project…', what: () => 'Could not read this project', ready: () => `status-${p.locationId}` },
  { name: 'calls', url: () => '/editor/calls', read: () => '/api/call-history', loading: 'Loading calls…', what: () => 'Could not list calls', ready: () => 'calls-table' },
  { name: 'call', url: () => `/editor/calls/${callId}`, read: () => `/api/call-history/by-call-id/${callId}`, loading: 'Loading the call…', what: () => `Could not read call ${callId}`, ready: () => 'transcript' },
  {
    name: 'cadence',
    url: () => `/editor/projects/${p.locationId}/campaigns/${p.campaignId}/cadence`,
    read: () => `/api/agent-builder/projects/${p.locationId}/campaigns/${p.campaignId}`,
    loading: 'Loading the campaign…',
    what: () => "Could not read this campaign's cadence",
    ready: () => 'step-0-count',
  },
];

describe('loading and error states', () => {
  for (const pg of PAGES) {
    it(`the ${pg.name} page says it is loading, then why it failed, and Retry reads again`, async () => {
      const page = await newPage(browser);
      await page.goto(`${h.url}/editor/`);
      await signIn(page, h.adminKey);
      await page.getByTestId('project-list').waitFor();
      const fault = await faultOn(page, pg.read());
      await page.goto(`${h.url}${pg.url()}`);
      await page.getByText(pg.loading).first().waitFor();
      await shot(page, `console-state-${pg.name}-loading`);
      fault.release();
      const failure = page.getByTestId('failure');
      await failure.waitFor();
      await expect(failure.textContent()).resolves.toContain(`${pg.what()}: the store is down (a test fault)`);
      await shot(page, `console-state-${pg.name}-error`);
      await fault.stop();
      await tabTo(page, 'failure-retry');
      await page.keyboard.press('Enter');
      await page.getByTestId(pg.ready()).waitFor();
      await expect(page.getByTestId('failure').count()).resolves.toBe(0);
      expectBrowserErrors(page, [/500/]);
    });
  }
});
