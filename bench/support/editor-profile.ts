/**
 * Where the editor's load of a large workflow spends its time, in headless Chromium over the
 * DevTools protocol: a CPU profile (Profiler domain, 100 µs sampling) and a timeline trace
 * (Tracing domain: script evaluation, style, layout, paint) of one load after a warm-up, with the
 * editor's own marks and the API requests' timings. Self time is attributed to source files
 * through the build's source map when there is one (`vite build --sourcemap`).
 *
 * `npx tsx bench/support/editor-profile.ts [steps=1000] [loads=3]`; prints a summary on stdout
 * (not a benchmark: `npm run bench` does not run it). `PROFILE_CONTEXT=regular` loads in a regular
 * browser profile (V8's code cache kept, as a returning user's browser) instead of a private context.
 * `PROFILE_FLOOR=1` profiles the editor's floor instead (bench/support/editor-floor: bare React
 * Flow drawing the same steps after one read), built with a source map, for a like-for-like trace.
 * `PROFILE_SAVE=<file.cpuprofile>` also writes the measured load's CPU profile (DevTools opens it);
 * `PROFILE_TASK_MS=3` lists shorter main-thread tasks too (default: those over 20 ms).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { EDITOR_DIST } from '../../server/app.js';
import { ensureEditorBuilt, generateGraph, marksOf, panFps, startApp, VIEWPORT } from '../editor.js';
import { launchProfileBrowser } from './profile-browser.js';
import { floorGraph, paneOf, startFloor } from './editor-floor.js';

const STEPS = Number(process.argv[2] ?? 1000);
const LOADS = Number(process.argv[3] ?? 3);
/** The main thread's tasks listed in order: those longer than this (`PROFILE_TASK_MS`, ms). */
const TASK_MS = Number(process.env.PROFILE_TASK_MS ?? 20);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: Record<string, unknown>;
}

const maps = new Map<string, SourceMapConsumer | null>();
/** Where the profiled page's assets were built: the editor's dist, or the floor's temporary directory. */
let assetsDir = EDITOR_DIST;
function mapOf(url: string): SourceMapConsumer | null {
  if (maps.has(url)) return maps.get(url)!;
  let c: SourceMapConsumer | null = null;
  const m = /\/(assets\/[^?#/]+\.js)$/.exec(url);
  if (m) {
    const file = path.join(assetsDir, m[1]! + '.map');
    if (fs.existsSync(file)) c = new SourceMapConsumer(JSON.parse(fs.readFileSync(file, 'utf8')));
  }
  maps.set(url, c);
  return c;
}

/** A source file's group: a package under node_modules, or the editor's own folder. */
function groupOf(frame: ProfileNode['callFrame']): { group: string; fn: string } {
  if (!frame.url) return { group: frame.functionName ? `(${frame.functionName})` : '(native)', fn: frame.functionName };
  const map = mapOf(frame.url);
  if (map && frame.lineNumber >= 0) {
    const pos = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    const src = pos.source ?? '';
    const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(src);
    const group = nm ? nm[1]! : src.replace(/^.*editor\/src\//, 'editor/src/');
    return { group, fn: `${pos.name ?? frame.functionName ?? '?'} ${src.replace(/^.*node_modules\//, '')}:${pos.line}` };
  }
  return { group: frame.url.replace(/^.*\//, ''), fn: frame.functionName };
}

function selfTimes(profile: Profile, from: number, to: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < from || t > to) continue;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + dt);
  }
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const { group, fn } = groupOf(n.callFrame);
    groups.set(group, (groups.get(group) ?? 0) + ms);
    const key = `${group} :: ${fn}`;
    fns.set(key, (fns.get(key) ?? 0) + ms);
  }
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, ms]) => `${ms.toFixed(1).padStart(8)} ms  ${name}`);
  return { groups: top(groups, 25), fns: top(fns, 40) };
}

async function main() {
  ensureEditorBuilt();
  const app = await startApp();
  const chrome = await launchProfileBrowser(VIEWPORT);
  const regular = process.env.PROFILE_CONTEXT === 'regular';
  try {
    const locationId = `prof_${Date.now()}`;
    await app.api('POST', '/api/v2/projects', { crm: 'crm_a', locationId, timezone: 'America/Chicago', businessName: 'Prof Dental', crm_a: { name: 'Prof Dental' } });
    const agent = (await app.api('POST', '/api/agent-builder/agents', { name: `Prof ${STEPS}`, agentType: 'outreach', locationId, capabilityIds: ['appointment_booking'] })).data as { id: string };
    if (STEPS > 0) await app.api('PUT', `/api/agent-builder/agents/${agent.id}/campaign/workflow`, { ...generateGraph(STEPS), expectedVersion: 0 });
    const editorUrl = `${app.url}/editor/agents/${agent.id}`;
    const floor = process.env.PROFILE_FLOOR ? await startFloor(floorGraph(generateGraph(STEPS)), { sourcemap: true }) : null;
    const url = floor ? floor.url : editorUrl;
    const context = regular ? chrome.regular : await chrome.newPrivateContext();
    await context.addInitScript((key) => sessionStorage.setItem('vc.apiKey', key), app.key);
    if (floor) {
      // The floor draws in the editor's pane at the editor's opening view (as bench/editor.ts has it).
      assetsDir = floor.dir;
      const page = await chrome.newPage(context);
      await page.goto(editorUrl);
      await marksOf(await context.newCDPSession(page));
      floor.frame(await paneOf(page));
      await page.close();
    }

    for (let i = 0; i < LOADS; i++) {
      const page = await chrome.newPage(context);
      // Same origin first, so the profiled navigation stays in this renderer.
      await page.goto(floor ? `${floor.url}assets/` : `${app.url}/editor/`);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      const events: TraceEvent[] = [];
      cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
      const traced = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
      await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing,v8.execute,loading,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
      await cdp.send('Profiler.start');
      await page.goto(url);
      await marksOf(cdp);
      await page.waitForTimeout(300);
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      if (process.env.PROFILE_SAVE && i === LOADS - 1) fs.writeFileSync(process.env.PROFILE_SAVE, JSON.stringify(profile));
      await cdp.send('Tracing.end');
      await traced;
      const info = (await page.evaluate(`(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        return {
          origin: performance.timeOrigin,
          marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
          measures: performance.getEntriesByType('measure').map((m) => [m.name, Math.round(m.startTime), Math.round(m.duration)]),
          nav: { responseEnd: Math.round(nav.responseEnd), domInteractive: Math.round(nav.domInteractive), domContentLoaded: Math.round(nav.domContentLoadedEventEnd), load: Math.round(nav.loadEventEnd) },
          resources: performance.getEntriesByType('resource').map((r) => [r.name.replace(location.origin, ''), Math.round(r.startTime), Math.round(r.responseEnd), r.transferSize]),
          nodes: document.querySelectorAll('*').length,
          steps: document.querySelectorAll('.react-flow__node').length,
          edges: document.querySelectorAll('.react-flow__edge').length,
          census: Object.fromEntries(['.editor-header', '.palette', '.side-panel', '.react-flow__nodes', '.react-flow__edges', '.react-flow__edgelabel-renderer', '.react-flow__minimap', '.react-flow__background', '.react-flow__controls'].map((sel) => [sel, document.querySelector(sel)?.querySelectorAll('*').length ?? null])),
        };
      })()`)) as { origin: number; marks: [string, number][]; measures: unknown[]; nav: Record<string, number>; resources: [string, number, number, number][]; nodes: number; steps: number; edges: number; census: Record<string, number | null> };
      let pan = '';
      if (i === LOADS - 1 && process.env.PROFILE_PAN) {
        // Pan with the whole graph in view, profiled: what a frame costs.
        await page.getByTestId('fit-button').click();
        await page.waitForTimeout(500);
        const evs: TraceEvent[] = [];
        const onData = (e: { value: unknown }) => void evs.push(...(e.value as TraceEvent[]));
        cdp.on('Tracing.dataCollected', onData);
        const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
        await cdp.send('Tracing.start', { categories: '__metadata,devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,blink.user_timing,v8.execute,cc,viz', transferMode: 'ReportEvents' });
        await cdp.send('Profiler.start');
        const t0 = await page.evaluate('performance.now() + performance.timeOrigin');
        const r = await panFps(page);
        const { profile: pp } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
        await cdp.send('Tracing.end');
        await done;
        const totals = new Map<string, number>();
        const threads = new Map<string, string>();
        for (const e of evs) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, String((e.args as { name?: string })?.name));
        for (const e of evs) if (e.ph === 'X' && e.dur) {
          const k = `${threads.get(`${e.pid}:${e.tid}`) ?? e.tid} ${e.name}`;
          totals.set(k, (totals.get(k) ?? 0) + e.dur / 1000);
        }
        const st = selfTimes(pp, pp.startTime, pp.endTime);
        pan = [`pan, whole graph: ${r.fps.toFixed(1)} fps, p95 ${r.p95.toFixed(1)} ms (t0 ${String(t0)})`, 'timeline totals over the pan (thread, event):', ...[...totals].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([n, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${n}`), 'CPU self time over the pan by source:', ...st.groups.map((l) => '  ' + l), 'by function:', ...st.fns.slice(0, 25).map((l) => '  ' + l)].join('\n');
      }
      await page.close();
      if (i < LOADS - 1) continue; // warm-ups
      if (pan) console.log(pan);
      const interactive = info.marks.find((m) => m[0] === 'vc:interactive')?.[1] ?? NaN;
      console.log(`\n=== ${STEPS} steps${floor ? ', the floor (bare React Flow)' : ''}, load ${i + 1} of ${LOADS} (earlier ones warm-ups) ===`);
      console.log('navigation', info.nav);
      console.log('marks (ms from navigation start):', info.marks.map(([n, t]) => `${n} ${t}`).join(', '));
      console.log('resources (start -> end ms, bytes):');
      for (const r of info.resources) console.log(`  ${String(r[1]).padStart(5)} -> ${String(r[2]).padStart(5)}  ${r[3]}  ${r[0]}`);
      console.log(`DOM: ${info.nodes} elements, ${info.steps} React Flow nodes, ${info.edges} edges drawn`, info.census);

      // Timeline: main-thread (renderer) totals by event between navigation and interactive.
      const navStart = events.find((e) => e.name === 'navigationStart' && (e.args?.data as { isLoadingMainFrame?: boolean })?.isLoadingMainFrame) ?? events.find((e) => e.name === 'navigationStart');
      const mark = events.find((e) => e.name === 'vc:interactive');
      const t0 = navStart?.ts ?? 0;
      const t1 = mark ? mark.ts : t0 + interactive * 1000;
      const main = navStart ? events.filter((e) => e.pid === navStart.pid && e.tid === navStart.tid) : events;
      const totals = new Map<string, number>();
      for (const e of main) {
        if (e.ph !== 'X' || e.ts < t0 || e.ts > t1 || !e.dur) continue;
        totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur / 1000);
      }
      console.log(`timeline, renderer main thread, navigation -> interactive (${((t1 - t0) / 1000).toFixed(0)} ms; nested events counted in each):`);
      for (const [n, ms] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 22)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${n}`);
      // Top-level tasks on the main thread, in order (what each long task is).
      console.log(`tasks (> ${TASK_MS} ms) on the main thread, ms from navigation start:`);
      for (const e of main) {
        if (e.name !== 'RunTask' || e.ph !== 'X' || (e.dur ?? 0) < TASK_MS * 1000 || e.ts < t0 || e.ts > t1 + 100_000) continue;
        const inner = main.filter((x) => x.ph === 'X' && x.ts >= e.ts && x.ts + (x.dur ?? 0) <= e.ts + e.dur! && x !== e && x.dur! > 3000).map((x) => `${x.name} ${(x.dur! / 1000).toFixed(0)}`);
        console.log(`  ${((e.ts - t0) / 1000).toFixed(0).padStart(5)} +${(e.dur! / 1000).toFixed(0)} ms: ${[...new Set(inner)].slice(0, 8).join(', ')}`);
      }

      // CPU profile: self time by package / source folder, then by function.
      const { groups, fns } = selfTimes(profile, t0, t1);
      console.log('CPU self time navigation -> interactive, by source:');
      for (const l of groups) console.log('  ' + l);
      console.log('by function:');
      for (const l of fns) console.log('  ' + l);
    }
    if (!regular) await context.close();
    await floor?.close();
  } finally {
    await chrome.close();
    await app.close();
  }
}

await main();
process.exit(0);
