// The load client of benchmarks that send one request and then wait on something else (a run's
// result, the next lead): node:http over keep-alive connections. It shares the two cores with the
// server it measures, and `fetch` (undici and its web streams) cost ~2-2.5 ms of the process's CPU
// per post-call event, which the figure charged to the product (bench/README.md). Plain JavaScript
// so that the worker threads of bench/cadence.ts, which run without tsx, can load it too.
import http from 'node:http';

/** @param {string} origin */
export function httpPoster(origin) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const { hostname, port } = new URL(origin);
  return {
    /** POSTs `body` (JSON) to `path`; resolves with the status and the response body as text. */
    post(path, body, headers = {}) {
      return new Promise((resolve, reject) => {
        const req = http.request(
          { agent, hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
          (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
