// The API side's load generator of bench/cadence.ts, on its own thread (as bench/api.ts's is), so
// the HTTP client's work is not on the server's event loop while the baseline's bare starts have
// none: POST /api/power-dialer/leads for each contact, `concurrency` at a time, over node:http
// keep-alive connections (http-post.mjs: `fetch` costs the shared cores several times more per
// request); replies the wall time in ms and this thread's own CPU time in ms since it started (so
// that the bench can tell the server's CPU from its client's: both are in one process), or the
// first refusal.
import { parentPort, workerData } from 'node:worker_threads';
import { cpuMs } from './cpu-time.mjs';
import { httpPoster } from './http-post.mjs';

const { url, key, campaignId, contactIds, concurrency } = workerData;
const client = httpPoster(url);
let next = 0;
const started = performance.now();
try {
  await Promise.all(
    Array.from({ length: Math.min(concurrency, contactIds.length) }, async () => {
      for (let i = next++; i < contactIds.length; i = next++) {
        const res = await client.post('/api/power-dialer/leads', JSON.stringify({ campaignId, contactId: contactIds[i] }), { authorization: `Bearer ${key}` });
        if (res.status !== 200) throw new Error(`enrol ${contactIds[i]}: ${res.status} ${res.text}`);
      }
    }),
  );
  parentPort.postMessage({ ms: performance.now() - started, cpuMs: cpuMs('thread-self') });
} catch (err) {
  parentPort.postMessage({ error: String(err) });
} finally {
  client.close();
}
