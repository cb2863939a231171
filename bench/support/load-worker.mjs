// The load generator of bench/api.ts, on its own thread (so on the other core, not on the server's
// event loop): autocannon for `duration` seconds; every 2xx response's latency kept at full
// resolution (autocannon's own histogram rounds to whole milliseconds).
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

const latencies = [];
let non2xx = 0;
// (autocannon on a non-main thread returns raw histograms, not its summary: count here instead)
const started = performance.now();
const instance = autocannon(workerData, (err, result) => {
  if (err) throw err;
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))];
  parentPort.postMessage({ rps: (latencies.length + non2xx) / ((performance.now() - started) / 1000), p50: at(50), p99: at(99), n: latencies.length, non2xx, errors: typeof result?.errors === 'number' ? result.errors : 0 });
});
instance.on('response', (_client, status, _bytes, ms) => {
  if (status >= 200 && status < 300) latencies.push(ms);
  else non2xx++;
});
