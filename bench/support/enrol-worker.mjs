// The API side's load generator of bench/cadence.ts, on its own thread (as bench/api.ts's is), so
// the HTTP client's work is not on the server's event loop while the baseline's bare starts have
// none: POST /api/power-dialer/leads for each contact, `concurrency` at a time; replies the wall
// time in ms, or the first refusal.
import { parentPort, workerData } from 'node:worker_threads';

const { url, key, campaignId, contactIds, concurrency } = workerData;
let next = 0;
const started = performance.now();
try {
  await Promise.all(
    Array.from({ length: Math.min(concurrency, contactIds.length) }, async () => {
      for (let i = next++; i < contactIds.length; i = next++) {
        const res = await fetch(`${url}/api/power-dialer/leads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ campaignId, contactId: contactIds[i] }),
        });
        if (res.status !== 200) throw new Error(`enrol ${contactIds[i]}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
    }),
  );
  parentPort.postMessage({ ms: performance.now() - started });
} catch (err) {
  parentPort.postMessage({ error: String(err) });
}
