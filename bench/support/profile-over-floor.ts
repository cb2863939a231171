/**
 * Where a call read through the product spends the time its floor does not: both answer
 * GET /api/call-history/by-call-id/:id from one instance (the product as `npm start` runs it, and
 * bench/support/api-floor.ts), each under load for BENCH_SECONDS (8) after a warm-up, profiled by
 * V8 over the loaded window only. Prints CPU microseconds per request by layer, ours beside the
 * floor's, and the heaviest functions of the difference.
 *
 *   npx tsx bench/support/profile-over-floor.ts
 */
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import { load } from './load.js';
import { BENCH_CALL_PATH, seedCampaign, startInstance, storeBenchCall } from './instance.js';
import { apiFloor } from './api-floor.js';
import { rateLimitPolicy } from '../../server/http/rate-limit.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

/** Each sample goes to the nearest frame (itself, then its callers) that a layer names. */
const LAYERS: [string, RegExp][] = [
  ['request log (one line per request)', /pino|sonic-boom|requestLogMiddleware/],
  ['metrics (counter and histogram per request)', /prom-client/],
  ['router (match, per-request layer chain)', /@koa\/router|koa-compose|path-to-regexp/],
  ['route wrapper (validation, authorisation)', /server\/http\/route\.ts|ajv|server\/domain\/validation/],
  ['key check', /api-keys|http\/auth\.ts|actorOf|callerOf/],
  ['rate limit', /rate-limit|rate-limiter-flexible/],
  ['security headers, error envelope', /security-headers|error-envelope/],
  ['store read (better-sqlite3, JSON)', /store\/sqlite|better-sqlite3/],
  ['domain and presentation (access, legacy agentType, local date)', /server\/domain|luxon|server\/catalog/],
  ['Koa core (context, respond)', /koa\/lib|delegates|on-finished|statuses|content-type|vary|type-is|mime|accepts|negotiator|fresh/],
  ['Node HTTP and socket writes', /_http|writev|writeGeneric|stream_base|node:net|writeString|createWriteWrap|setHeader|checkInvalid|_storeHeader|utcDate|parserOnIncoming|HTTPParser/],
  ['garbage collection', /garbage collector/],
  ['microtasks', /runMicrotasks|processTicksAndRejections/],
];

type Node = Profiler.ProfileNode;

function perRequest(profile: Profiler.Profile, requests: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '')}`;
  const layers = new Map<string, number>();
  const fns = new Map<string, number>();
  profile.samples!.forEach((id, i) => {
    const us = profile.timeDeltas![i] ?? 0;
    const self = byId.get(id)!;
    if (self.callFrame.functionName === '(idle)') return;
    fns.set(key(self), (fns.get(key(self)) ?? 0) + us);
    let at: number | undefined = id;
    let layer = 'other';
    while (at !== undefined) {
      const k = key(byId.get(at)!);
      const hit = LAYERS.find(([, re]) => re.test(k));
      if (hit) {
        layer = hit[0];
        break;
      }
      at = parent.get(at);
    }
    layers.set(layer, (layers.get(layer) ?? 0) + us);
  });
  const per = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / requests]));
  return { layers: per(layers), fns: per(fns) };
}

const inst = await startInstance({ temporal: false, requestLog: true });
try {
  const ctx = await seedCampaign(inst);
  await storeBenchCall(inst, ctx);
  const floor = await apiFloor(inst.services, rateLimitPolicy({ points: inst.config.rateLimitPoints, windowSeconds: inst.config.rateLimitWindowSeconds }));
  const headers = { authorization: `Bearer ${inst.key}` };
  const path = BENCH_CALL_PATH;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  const measured: Record<string, ReturnType<typeof perRequest> & { rps: number }> = {};
  for (const [side, origin] of [['ours', inst.url], ['floor', floor.origin]] as const) {
    await load({ url: origin + path, headers, duration: 2 });
    await session.post('Profiler.start');
    const r = await load({ url: origin + path, headers, duration: SECONDS });
    const { profile } = await session.post('Profiler.stop');
    if (r.non2xx > 0) throw new Error(`${side}: ${r.non2xx} answers were not 2xx`);
    measured[side] = { ...perRequest(profile, r.n), rps: r.rps };
    process.stderr.write(`[profile] ${side}: ${Math.round(r.rps)} req/s, ${r.n} requests profiled\n`);
  }
  await floor.close();
  const { ours, floor: base } = measured as Record<'ours' | 'floor', (typeof measured)[string]>;
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const row = (name: string, a: number, b: number) => `| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a - b).toFixed(1)} |`;
  console.log(`ours ${Math.round(ours.rps)} req/s, floor ${Math.round(base.rps)} req/s (${(ours.rps / base.rps).toFixed(2)} of it); CPU µs per request (the main thread; load on the other core):\n`);
  console.log('| layer | ours | floor | ours over the floor |\n|---|---|---|---|');
  for (const name of [...LAYERS.map(([n]) => n), 'other']) console.log(row(name, ours.layers.get(name) ?? 0, base.layers.get(name) ?? 0));
  console.log(row('**total**', sum(ours.layers), sum(base.layers)));
  console.log('\nheaviest functions of the difference (self µs per request, ours / floor):');
  const diff = [...new Set([...ours.fns.keys(), ...base.fns.keys()])].map((k) => [k, ours.fns.get(k) ?? 0, base.fns.get(k) ?? 0] as const).sort((x, y) => y[1] - y[2] - (x[1] - x[2]));
  for (const [k, a, b] of diff.slice(0, 20)) console.log(`  ${(a - b).toFixed(2).padStart(6)}  ${a.toFixed(2).padStart(6)} / ${b.toFixed(2).padStart(6)}  ${k.slice(0, 100)}`);
} finally {
  await inst.stop();
}
