/**
 * Chromium with a regular (on-disk) profile, as an agency admin's browser is, beside the private
 * contexts Playwright makes by default. The difference matters for the editor's load: Chromium
 * keeps V8's code cache only in a regular profile, so there a returning user's load skips
 * compiling the bundle again; a private context (Playwright's `newContext()`, an incognito window)
 * compiles it on every load. Launched by hand and reached over the DevTools protocol, because
 * only then does Playwright hand out the browser's own default context.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../test/helpers/browser.js';

export interface ProfileBrowser {
  browser: Browser;
  /** the browser's default context: the regular profile in a fresh user-data directory */
  regular: BrowserContext;
  /** a private context (no code cache) of the same viewport */
  newPrivateContext(): Promise<BrowserContext>;
  /** a page of either context, at the viewport (the default context has none of its own) */
  newPage(context: BrowserContext): Promise<Page>;
  close(): Promise<void>;
}

export async function launchProfileBrowser(viewport: { width: number; height: number }): Promise<ProfileBrowser> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bench-profile-'));
  const proc = spawn(CHROMIUM, ['--headless', '--remote-debugging-port=0', `--user-data-dir=${dir}`, ...CHROMIUM_ARGS, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not open its DevTools port in 30 s: ${err.slice(-500)}`)), 30_000);
    proc.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before its DevTools port opened: ${err.slice(-500)}`));
    });
  });
  proc.stderr.resume();
  const browser = await chromium.connectOverCDP(endpoint);
  const regular = browser.contexts()[0]!;
  return {
    browser,
    regular,
    newPrivateContext: () => browser.newContext({ viewport }),
    async newPage(context) {
      const page = await context.newPage();
      if (context === regular) await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await browser.close().catch(() => {});
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      // The browser's helpers can still be writing the profile for a while after it exits (11-27 02:50:
      // still after ten tries over 5 s). A temp dir left behind is not a failed measurement.
      try {
        fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch (err) {
        process.stderr.write(`[bench] left the browser profile ${dir} behind (${(err as NodeJS.ErrnoException).code})\n`);
      }
    },
  };
}
