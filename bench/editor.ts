/**
 * The visual editor in headless Chromium: time to first render and to interactive for workflows of
 * 50, 300 and 1,000 steps (seeded with PUT through the real API), and the frame rate while panning
 * the 1,000-step workflow. One JSON line per figure (bench/figures.ts).
 *
 * - first render: navigation start -> the first frame with the canvas and its nodes in the DOM
 *   (the editor's `vc:first-render` mark; API reads included).
 * - interactive: navigation start -> laid out, framed and accepting input (`vc:interactive`).
 *   Baseline for both: the same editor on an empty workflow (lanes only), measured in the same run.
 * - pan: frames per second and 95th-percentile frame time while dragging the canvas for ~2 s,
 *   at the editor's opening view and zoomed out to the whole graph. Against the 60 Hz refresh.
 *
 * Median of 3 loads per size, after one warm-up load. `npm run bench -- editor`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { layoutGraph } from '../engine/graph/layout.js';
import type { Graph } from '../engine/graph/types.js';
import { createApp, EDITOR_DIST } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { createRepos } from '../server/services.js';
import { composeProviders, composeServices } from '../server/compose.js';
import { openDb } from '../server/store/db.js';
import { SCOPES } from '../server/store/api-keys.js';
import { CHROMIUM, launchBrowser } from '../test/helpers/browser.js';
import { emit, percentile } from './figures.js';

const SIZES = [50, 300, 1000] as const;
const RUNS = 3;
const LANES = ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION'] as const;
const log = (s: string) => process.stderr.write(`[bench:editor] ${s}\n`);

/** A realistic graph of `n` steps: four lanes of chains, an if every 12 steps with a short "false" arm. */
export function generateGraph(n: number): Graph {
  const nodes: Graph['nodes'] = [];
  const edges: Graph['edges'] = [];
  const entries: Record<string, string> = {};
  const actions = [
    (i: number) => ({ type: 'send-sms', config: { body: `Hi {{contact.firstName}}, message ${i}` } }),
    (i: number) => ({ type: 'add-tag', config: { tags: [`tag-${i}`] } }),
    (i: number) => ({ type: 'add-note', config: { body: `Note ${i}: {{call.callSummary}}` } }),
    (i: number) => ({ type: 'set-field', config: { field: `contact.field_${i}`, value: '{{call.fields.callback_time}}' } }),
  ];
  let id = 0;
  let edge = 0;
  const add = (make: { type: string; config: Record<string, unknown> }) => {
    const node = { id: `n${++id}`, type: make.type, config: make.config, position: { x: 0, y: 0 } } as Graph['nodes'][number];
    nodes.push(node);
    return node.id;
  };
  const link = (source: string, target: string, sourceHandle?: string) => edges.push({ id: `e${++edge}`, source, target, ...(sourceHandle && { sourceHandle }) });
  const perLane = Math.ceil(n / LANES.length);
  for (const lane of LANES) {
    let prev: { id: string; handle?: string } | null = null;
    for (let k = 0; k < perLane && id < n; k++) {
      const isBranch = k % 12 === 11 && id + 3 <= n;
      const node = isBranch ? add({ type: 'if', config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: k }] } }) : add(actions[k % actions.length]!(id));
      if (prev) link(prev.id, node, prev.handle);
      else entries[lane] = node;
      if (isBranch) {
        // "false": two steps and the end; "true": the chain goes on.
        const a = add(actions[0]!(id));
        const b = add(actions[1]!(id));
        link(node, a, 'false');
        link(a, b);
        k += 2;
        prev = { id: node, handle: 'true' };
      } else prev = { id: node };
    }
  }
  // Positions as the server's own layout gives them: the editor lays these out itself.
  return layoutGraph({ nodes, edges, dispositionEntries: entries }, { all: true });
}

export function ensureEditorBuilt() {
  if (fs.existsSync(path.join(EDITOR_DIST, 'index.html'))) return;
  log('building the editor');
  execSync('npm run build:editor --silent', { stdio: 'inherit', cwd: path.resolve(import.meta.dirname, '..') });
}

export async function startApp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bench-editor-'));
  const db = openDb(path.join(dir, 'app.db'));
  const repos = createRepos(db);
  const config = { ...loadConfig({}), dataDir: dir, logLevel: 'silent', rateLimitPoints: 100_000 };
  const logger = createLogger('silent');
  const services = composeServices({ config, db, repos, providers: composeProviders(config, db, repos, logger), temporal: null, logger });
  const server = createApp(services).listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  repos.agencies.ensure('bench', 'Bench Agency', 3);
  const key = repos.apiKeys.create({ agencyId: 'bench', name: 'bench', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] }).secret;
  const api = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as { data?: Record<string, unknown> };
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    url,
    key,
    api,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function loadTimes(page: Page, url: string): Promise<{ firstRender: number; interactive: number }> {
  await page.goto(url);
  await page.locator('[data-testid="canvas"][data-ready="true"]').waitFor({ timeout: 120_000 });
  // (no named functions inside evaluate: tsx's keepNames helper does not exist in the page)
  const [firstRender, interactive] = await page.evaluate(() => ['vc:first-render', 'vc:interactive'].map((n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN));
  return { firstRender: firstRender!, interactive: interactive! };
}

/** Drags the canvas back and forth for about two seconds; frames counted with requestAnimationFrame. */
export async function panFps(page: Page): Promise<{ fps: number; p95: number }> {
  const box = (await page.locator('.react-flow__pane').boundingBox())!;
  // A point on the bare pane (not on a step), so the drag pans.
  const start = await page.evaluate(({ x, y, w, h }) => {
    for (let i = 1; i < 20; i++) {
      for (let j = 1; j < 20; j++) {
        const px = x + (w * i) / 20;
        const py = y + (h * j) / 20;
        if (document.elementFromPoint(px, py)?.classList.contains('react-flow__pane')) return { x: px, y: py };
      }
    }
    return { x: x + w / 2, y: y + h / 2 };
  }, { x: box.x, y: box.y, w: box.width, h: box.height });
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__stop = false;
    function tick(t) {
      window.__frames.push(t);
      if (!window.__stop) requestAnimationFrame(tick);
    }
    requestAnimationFrame(tick);
  })()`);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  const steps = 120;
  for (let i = 1; i <= steps; i++) {
    const phase = (i / steps) * Math.PI * 4;
    await page.mouse.move(start.x + Math.sin(phase) * 250, start.y + Math.sin(phase / 2) * 150);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  const frames = (await page.evaluate('(window.__stop = true, window.__frames)')) as number[];
  const intervals = frames.slice(1).map((t, i) => t - frames[i]!).sort((a, b) => a - b);
  const span = frames.at(-1)! - frames[0]!;
  return { fps: ((frames.length - 1) * 1000) / span, p95: percentile(intervals, 95) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    log(`no Chromium at ${CHROMIUM} (npm run setup -- --test installs it); skipped`);
    return;
  }
  ensureEditorBuilt();
  const app = await startApp();
  const browser = await launchBrowser();
  try {
    const locationId = `bench_${Date.now()}`;
    await app.api('POST', '/api/v2/projects', { crm: 'crm_a', locationId, timezone: 'America/Chicago', businessName: 'Bench Dental', crm_a: { name: 'Bench Dental' } });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript((key) => sessionStorage.setItem('vc.apiKey', key), app.key);

    const measure = async (n: number) => {
      const agent = (await app.api('POST', '/api/agent-builder/agents', { name: `Bench ${n}`, agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'] })).data as { id: string };
      if (n > 0) {
        const g = generateGraph(n);
        await app.api('PUT', `/api/agent-builder/agents/${agent.id}/campaign/workflow`, { ...g, expectedVersion: 0 });
      }
      const url = `${app.url}/editor/agents/${agent.id}`;
      const samples: { firstRender: number; interactive: number }[] = [];
      let page: Page | null = null;
      for (let i = 0; i < RUNS; i++) {
        await page?.close();
        page = await context.newPage();
        samples.push(await loadTimes(page, url));
      }
      const result = { firstRender: median(samples.map((s) => s.firstRender)), interactive: median(samples.map((s) => s.interactive)) };
      log(`${n} steps: first render ${result.firstRender.toFixed(0)} ms, interactive ${result.interactive.toFixed(0)} ms`);
      return { result, page: page! };
    };

    // One unmeasured load first: Chromium's first navigation pays for cold caches and compilation.
    const warm = await context.newPage();
    await warm.goto(`${app.url}/editor/`);
    await warm.getByText('Projects').first().waitFor();
    await warm.close();

    const empty = await measure(0);
    await empty.page.close();
    for (const n of SIZES) {
      const { result, page } = await measure(n);
      emit({ name: `editor.first_render_ms.${n}_steps`, value: result.firstRender, unit: 'ms', baseline: empty.result.firstRender, against: 'the same editor on an empty workflow (lanes only)' });
      emit({ name: `editor.interactive_ms.${n}_steps`, value: result.interactive, unit: 'ms', baseline: empty.result.interactive, against: 'the same editor on an empty workflow (lanes only)' });
      if (n === 1000) {
        const opening = await panFps(page);
        log(`pan at the opening view: ${opening.fps.toFixed(1)} fps, p95 frame ${opening.p95.toFixed(1)} ms`);
        emit({ name: 'editor.pan_fps.1000_steps.opening_view', value: opening.fps, unit: 'fps', baseline: 60, against: '60 Hz display refresh' });
        emit({ name: 'editor.pan_frame_p95_ms.1000_steps.opening_view', value: opening.p95, unit: 'ms', baseline: 1000 / 60, against: 'one 60 Hz frame' });
        await page.getByTestId('fit-button').click();
        await page.waitForTimeout(500);
        const whole = await panFps(page);
        log(`pan with the whole graph in view: ${whole.fps.toFixed(1)} fps, p95 frame ${whole.p95.toFixed(1)} ms`);
        emit({ name: 'editor.pan_fps.1000_steps.whole_graph', value: whole.fps, unit: 'fps', baseline: 60, against: '60 Hz display refresh' });
        emit({ name: 'editor.pan_frame_p95_ms.1000_steps.whole_graph', value: whole.p95, unit: 'ms', baseline: 1000 / 60, against: 'one 60 Hz frame' });
      }
      await page.close();
    }
    await context.close();
  } finally {
    await browser.close();
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
