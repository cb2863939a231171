/**
 * Response headers: the browser app is served with a strict Content-Security-Policy and may not be
 * framed; every API answer, errors included, is marked as data that must not be sniffed or framed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { APP_CSP, API_CSP } from '../../server/http/security-headers.js';
import { EDITOR_DIST } from '../../server/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const get = (p: string, key?: string) => fetch(h.url + p, { headers: key ? { authorization: `Bearer ${key}` } : {} });

describe('security headers', () => {
  it('the app: its CSP allows only its own scripts, styles and connections, no inline script, no framing', async () => {
    const asset = fs.readdirSync(path.join(EDITOR_DIST, 'assets')).find((f) => f.endsWith('.js'))!;
    for (const p of ['/editor/', '/editor/agents/agt_x?campaignId=cmp_y', `/editor/assets/${asset}`]) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-security-policy'), p).toBe(APP_CSP);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), p).toBe('no-referrer');
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
    }
    const directives = Object.fromEntries(APP_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives).toMatchObject({ 'script-src': "'self'", 'style-src': "'self'", 'connect-src': "'self'", 'frame-ancestors': "'none'", 'object-src': "'none'" });
    expect(APP_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('the API: nosniff and no framing on answers, errors and unknown paths alike', async () => {
    const cases: [string, string | undefined, number][] = [
      ['/api/health/live', undefined, 200],
      ['/api/openapi.json', undefined, 200],
      ['/api/v2/projects', h.adminKey, 200],
      ['/api/v2/projects', undefined, 401],
      ['/api/v2/projects/prj_missing', h.adminKey, 404],
      ['/api/no-such-route', h.adminKey, 404],
      ['/metrics', undefined, 200],
    ];
    for (const [p, key, status] of cases) {
      const res = await get(p, key);
      expect(res.status, p).toBe(status);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
      expect(res.headers.get('content-security-policy'), p).toBe(API_CSP);
      expect(res.headers.get('referrer-policy'), p).toBe('no-referrer');
    }
  });
});
