/**
 * The visual editor in headless Chromium: time to first render and to interactive for workflows of
 * 50, 300 and 1,000 steps (seeded with PUT through the real API), and the frame rate while panning
 * the 1,000-step workflow. One JSON line per figure (bench/figures.ts).
 *
 * - first render: navigation start -> the first frame with the canvas and its nodes in the DOM
 *   (the editor's `vc:first-render` mark; API reads included). The editor lays the graph out
 *   before drawing it, so this is now the same frame as interactive.
 * - interactive: navigation start -> laid out, framed and accepting input (`vc:interactive`).
 *   Baseline for both: the same editor on an empty workflow (lanes only).
 * - pan: frames per second and 95th-percentile frame time while dragging the canvas for ~2 s,
 *   at the editor's opening view and zoomed out to the whole graph. Against the 60 Hz refresh.
 *
 * Fair on a shared, noisy machine: after a warm-up load of every workflow, BENCH_ROUNDS rounds (5)
 * load every size once, each beside its own load of the empty workflow (the pair's order alternates
 * from round to round), each load in a fresh page. A figure is the median over the rounds; `ratio`
 * is the median of the per-pair ratios and `spread` their lowest and highest. The 1,000-step page
 * of every round is also panned. `rssMb` is the peak resident memory of the page's renderer
 * process (Linux VmHWM), `heapMb` its JS heap in use at the end of the measurement.
 * `npm run bench -- editor`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { layoutGraph } from '../engine/graph/layout.js';
import type { Graph } from '../engine/graph/types.js';
import { createApp, EDITOR_DIST } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { sqliteRepositories, openSqliteStore } from '../server/store/sqlite/store.js';
import { composeProviders, composeServices } from '../server/compose.js';
import { openDb } from '../server/store/sqlite/db.js';
import { SCOPES } from '../server/store/index.js';
import { CHROMIUM } from '../test/helpers/browser.js';
import { emit, median, percentile } from './figures.js';
import { floorGraph, paneOf, startFloor } from './support/editor-floor.js';
import { launchProfileBrowser } from './support/profile-browser.js';

const SIZES = [50, 300, 1000] as const;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const LANES = ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION'] as const;
const log = (s: string) => process.stderr.write(`[bench:editor] ${s}\n`);
export const VIEWPORT = { width: 1280, height: 800 };
/** The size whose goal is closest to its floor: it also loads beside bare React Flow. */
const FLOOR_STEPS = 300;
const AGAINST = {
  regular: 'the same editor on an empty workflow (lanes only), loaded beside it in alternating order; a regular browser profile, which keeps V8\'s code cache (a returning user)',
  private: 'the same editor on an empty workflow, loaded beside it in alternating order; a private context (an incognito window), where Chromium keeps no V8 code cache, so every load compiles the bundle',
};

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
  const store = openSqliteStore(path.join(dir, 'app.db'));
  const db = store.db;
  // Setup on the SQLite implementation itself, synchronously; the product runs on `store`.
  const repos = sqliteRepositories(db);
  const config = { ...loadConfig({}), dataDir: dir, logLevel: 'silent', rateLimitPoints: 100_000 };
  const logger = createLogger('silent');
  const services = composeServices({ config, store, providers: composeProviders(config, store, logger), temporal: null, logger });
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

/**
 * Awaits the page's `vc:interactive` mark (and `vc:first-render`, when the page sets it) in the
 * page itself, with a PerformanceObserver, and returns both times. Not a Playwright locator: that
 * injects Playwright's selector engine (~20 ms of script) into the page in the middle of the load,
 * and polls it, time no user's browser spends.
 */
export async function marksOf(cdp: CDPSession): Promise<{ firstRender: number; interactive: number }> {
  const expression = `new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no vc:interactive mark in 120 s')), 120000);
    const done = () => {
      const m = performance.getEntriesByName('vc:interactive')[0];
      if (!m) return false;
      clearTimeout(timer);
      resolve([(performance.getEntriesByName('vc:first-render')[0] || m).startTime, m.startTime]);
      return true;
    };
    if (!done()) new PerformanceObserver((_, o) => done() && o.disconnect()).observe({ type: 'mark' });
  })`;
  const res = (await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })) as { result: { value?: [number, number] }; exceptionDetails?: { exception?: { description?: string } } };
  if (res.exceptionDetails) throw new Error(res.exceptionDetails.exception?.description ?? 'waiting for vc:interactive failed');
  const [firstRender, interactive] = res.result.value!;
  return { firstRender, interactive };
}

async function loadTimes(page: Page, cdp: CDPSession, url: string) {
  await page.goto(url);
  return marksOf(cdp);
}

/** Peak resident memory (MiB) of the given processes, from /proc (Linux); undefined elsewhere. */
function peakRssMb(pids: readonly number[]): number | undefined {
  let peak: number | undefined;
  for (const pid of pids) {
    try {
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (Number.isFinite(kb)) peak = Math.max(peak ?? 0, kb / 1024);
    } catch {
      // gone or unreadable
    }
  }
  return peak;
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

interface Sample {
  firstRender: number;
  interactive: number;
  rssMb?: number;
  heapMb?: number;
}

interface PanSample {
  fps: number;
  p95: number;
  rssMb?: number;
  heapMb?: number;
}

const spreadOf = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];
const medianOf = (xs: (number | undefined)[]) => {
  const known = xs.filter((x): x is number => x !== undefined);
  return known.length ? median(known) : undefined;
};

/** Where a load happens: the regular profile (V8's code cache kept) or a private context (none). */
type Where = 'regular' | 'private';
const WHERE: Where[] = ['regular', 'private'];
const PLACE: Record<Where, string> = { regular: 'regular profile', private: 'private context' };

/** The two loads of a pair, in the order given: `ours` first or `base` first. */
async function pairOf<T>(oursFirst: boolean, ours: () => Promise<T>, base: () => Promise<T>): Promise<{ ours: T; base: T }> {
  return oursFirst ? { ours: await ours(), base: await base() } : { base: await base(), ours: await ours() };
}

/** One load-time figure from pairs: `a`'s median against `b`'s, ratio the median per-pair a / b. */
function emitPaired(name: string, against: string, pairs: { a: Sample; b: Sample }[], key: 'firstRender' | 'interactive') {
  const ratios = pairs.map((p) => p.a[key] / p.b[key]);
  emit({
    name,
    value: median(pairs.map((p) => p.a[key])),
    unit: 'ms',
    baseline: median(pairs.map((p) => p.b[key])),
    against,
    ratio: median(ratios),
    spread: spreadOf(ratios),
    rounds: pairs.length,
    rssMb: medianOf(pairs.map((p) => p.a.rssMb)),
    heapMb: medianOf(pairs.map((p) => p.a.heapMb)),
  });
}

export async function run(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) {
    log(`no Chromium at ${CHROMIUM} (npm run setup -- --test installs it); skipped`);
    return;
  }
  ensureEditorBuilt();
  const app = await startApp();
  const floor = await startFloor(floorGraph(generateGraph(FLOOR_STEPS)));
  // One browser for both kinds of load, so a pair differs only in the profile.
  const chrome = await launchProfileBrowser(VIEWPORT);
  try {
    const system = await chrome.browser.newBrowserCDPSession();
    const renderers = async () => {
      const { processInfo } = (await system.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
      return processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
    };
    const locationId = `bench_${Date.now()}`;
    await app.api('POST', '/api/v2/projects', { crm: 'crm_a', locationId, timezone: 'America/Chicago', businessName: 'Bench Dental', crm_a: { name: 'Bench Dental' } });
    const contexts: Record<Where, BrowserContext> = { regular: chrome.regular, private: await chrome.newPrivateContext() };
    for (const c of Object.values(contexts)) await c.addInitScript((key) => sessionStorage.setItem('vc.apiKey', key), app.key);

    const urls = new Map<number, string>();
    for (const n of [0, ...SIZES]) {
      const agent = (await app.api('POST', '/api/agent-builder/agents', { name: `Bench ${n}`, agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'] })).data as { id: string };
      if (n > 0) await app.api('PUT', `/api/agent-builder/agents/${agent.id}/campaign/workflow`, { ...generateGraph(n), expectedVersion: 0 });
      urls.set(n, `${app.url}/editor/agents/${agent.id}`);
    }

    const heapOf = (cdp: CDPSession) => async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN) / 2 ** 20;

    /**
     * One load in a fresh page of `n` steps in the editor, or (`floor`) of bare React Flow drawing
     * the floor's steps; `then` runs on the loaded page before it closes (the pans).
     */
    const load = async <T>(where: Where, n: number | 'floor', then?: (page: Page, heap: () => Promise<number>, pids: number[]) => Promise<T>) => {
      const before = new Set(await renderers());
      const context = contexts[where];
      const page = await chrome.newPage(context);
      try {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        const heap = heapOf(cdp);
        const times = await loadTimes(page, cdp, n === 'floor' ? floor.url : urls.get(n)!);
        // The page's renderer: the one that appeared with it.
        const pids = (await renderers()).filter((pid) => !before.has(pid));
        const sample: Sample = { ...times, heapMb: await heap(), rssMb: peakRssMb(pids) };
        const extra = then ? await then(page, heap, pids) : undefined;
        return { sample, extra };
      } finally {
        await page.close();
      }
    };

    // The floor draws in the editor's pane at the editor's opening view, so both draw the same steps.
    const ours = (await load('private', FLOOR_STEPS, (page) => paneOf(page))).extra!;
    floor.frame(ours);
    const theirs = (await load('private', 'floor', (page) => paneOf(page))).extra!;
    log(`the floor's pane: ${ours.width} x ${ours.height} px at zoom ${ours.viewport.zoom.toFixed(2)}, as the editor's; React Flow nodes drawn: the editor ${ours.drawn} (its lanes' headers among them), the floor ${theirs.drawn}`);

    // Warm-up: unmeasured loads of every workflow in both contexts (the HTTP cache, the regular
    // profile's code cache, which Chromium writes from a script's second load, the server's first reads).
    for (let i = 0; i < 2; i++) for (const where of WHERE) for (const n of [0, ...SIZES, 'floor' as const]) await load(where, n);

    // Pairs: every size beside its own load of the empty workflow, in each context, the pair's order alternating.
    const samples = new Map<string, { ours: Sample; base: Sample }[]>(WHERE.flatMap((w) => SIZES.map((n) => [`${w}:${n}`, []] as [string, { ours: Sample; base: Sample }[]])));
    const floors = new Map<Where, { ours: Sample; base: Sample }[]>(WHERE.map((w) => [w, []]));
    const pans: { opening: PanSample; whole: PanSample }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const where of r % 2 ? [...WHERE].reverse() : WHERE) {
        // The floor beside its own load of the editor at the same size.
        const fl = await pairOf(r % 2 === 0, () => load(where, FLOOR_STEPS), () => load(where, 'floor'));
        floors.get(where)!.push({ ours: fl.ours.sample, base: fl.base.sample });
        for (const n of r % 2 ? [...SIZES].reverse() : SIZES) {
          const pan = where === 'regular' && n === 1000 ? panBoth : undefined;
          const { ours, base } = await pairOf(r % 2 === 1, () => load(where, n, pan), () => load(where, 0));
          samples.get(`${where}:${n}`)!.push({ ours: ours.sample, base: base.sample });
          if (ours.extra) pans.push(ours.extra);
        }
      }
      const last = (where: Where, n: number) => samples.get(`${where}:${n}`)!.at(-1)!;
      log(`round ${r + 1}/${ROUNDS}: interactive ${SIZES.map((n) => `${n}: ${last('regular', n).ours.interactive.toFixed(0)} ms (empty ${last('regular', n).base.interactive.toFixed(0)}; private ${last('private', n).ours.interactive.toFixed(0)} / ${last('private', n).base.interactive.toFixed(0)})`).join(', ')}; pan ${pans.at(-1)!.opening.fps.toFixed(1)} / ${pans.at(-1)!.whole.fps.toFixed(1)} fps`);
    }

    for (const where of WHERE) {
      for (const n of SIZES) {
        const pairs = samples.get(`${where}:${n}`)!;
        // The private context's first render is its interactive mark (as in the regular one): one figure.
        for (const key of where === 'regular' ? (['firstRender', 'interactive'] as const) : (['interactive'] as const)) {
          const name = `editor.${key === 'firstRender' ? 'first_render_ms' : 'interactive_ms'}.${n}_steps${where === 'private' ? '.private_window' : ''}`;
          emitPaired(name, AGAINST[where], pairs.map((p) => ({ a: p.ours, b: p.base })), key);
        }
        if (n === FLOOR_STEPS) {
          const fl = floors.get(where)!;
          const against = `our editor on the same ${n} steps, loaded beside it in alternating order (${PLACE[where]}); the floor: bare React Flow drawing those steps after one read, in the editor's pane at its opening view, with no editor (support/editor-floor)`;
          emitPaired(`editor.interactive_ms.${n}_steps${where === 'private' ? '.private_window' : ''}.floor`, against, fl.map((p) => ({ a: p.base, b: p.ours })), 'interactive');
          log(`${n} steps, ${PLACE[where]}: the floor (bare React Flow) ${median(fl.map((p) => p.base.interactive)).toFixed(0)} ms beside ours ${median(fl.map((p) => p.ours.interactive)).toFixed(0)} ms`);
        }
        const ms = (key: 'firstRender' | 'interactive', side: 'ours' | 'base') => median(pairs.map((p) => p[side][key])).toFixed(0);
        log(`${n} steps, ${PLACE[where]}: first render ${ms('firstRender', 'ours')} ms, interactive ${ms('interactive', 'ours')} ms (empty workflow: ${ms('firstRender', 'base')} / ${ms('interactive', 'base')} ms)`);
      }
    }
    for (const view of ['opening', 'whole'] as const) {
      const xs = pans.map((p) => p[view]);
      const suffix = view === 'opening' ? 'opening_view' : 'whole_graph';
      const mem = { rounds: xs.length, rssMb: medianOf(xs.map((x) => x.rssMb)), heapMb: medianOf(xs.map((x) => x.heapMb)) };
      const fps = xs.map((x) => x.fps);
      const p95 = xs.map((x) => x.p95);
      log(`pan 1,000 steps, ${view === 'opening' ? 'opening view' : 'whole graph in view'}: ${median(fps).toFixed(1)} fps (${spreadOf(fps).map((x) => x.toFixed(1)).join('-')}), p95 frame ${median(p95).toFixed(1)} ms`);
      emit({ name: `editor.pan_fps.1000_steps.${suffix}`, value: median(fps), unit: 'fps', baseline: 60, against: '60 Hz display refresh', ratio: median(fps) / 60, spread: spreadOf(fps.map((x) => x / 60)), ...mem });
      emit({ name: `editor.pan_frame_p95_ms.1000_steps.${suffix}`, value: median(p95), unit: 'ms', baseline: 1000 / 60, against: 'one 60 Hz frame', ratio: median(p95) / (1000 / 60), spread: spreadOf(p95.map((x) => x / (1000 / 60))), ...mem });
    }
    await contexts.private.close();

    /** Pans at the opening view, fits the whole graph, pans again; memory read after each. */
    async function panBoth(page: Page, heap: () => Promise<number>, pids: number[]) {
      const opening: PanSample = { ...(await panFps(page)), heapMb: await heap(), rssMb: peakRssMb(pids) };
      await page.getByTestId('fit-button').click();
      await page.waitForTimeout(500);
      const whole: PanSample = { ...(await panFps(page)), heapMb: await heap(), rssMb: peakRssMb(pids) };
      return { opening, whole };
    }
  } finally {
    await chrome.close();
    await floor.close();
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
