/** Driving the console's pages in Chromium (with editor-page.ts's newPage, signIn and shot). */
import type { Page } from 'playwright-core';

/** Waits until the console's navigation knows what the signed-in key may use. */
export async function consoleReady(page: Page): Promise<void> {
  await page.locator('[data-testid="console-nav"][data-known="true"]').waitFor();
}

/**
 * Presses Tab until the element with this test id has the focus: it can be reached from the
 * keyboard, in the page's tab order. Fails after `max` presses.
 */
export async function tabTo(page: Page, testId: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${testId} was not reached with ${max} presses of Tab`);
}

/** Whether the text is anywhere in the page's localStorage or sessionStorage. */
export async function storageHolds(page: Page, text: string): Promise<boolean> {
  return page.evaluate((t) => {
    const all: string[] = [];
    for (const s of [localStorage, sessionStorage]) for (let i = 0; i < s.length; i++) all.push(s.key(i)!, s.getItem(s.key(i)!) ?? '');
    return all.some((x) => x.includes(t));
  }, text);
}
