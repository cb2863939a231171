import http from 'node:http';

/**
 * The load client of benchmarks that send one request and then wait on something else (a run's
 * result): node:http over keep-alive connections. It shares the cores with the server it measures,
 * and `fetch` (undici and its web streams) cost ~1.4 ms of this process's CPU per post-call event
 * against ~0.3 ms for this (bench/README.md), which the figure charged to the product.
 */
export function httpPoster(origin: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const { hostname, port } = new URL(origin);
  return {
    /** POSTs `body` to `path`; resolves with the status and the response body as text. */
    post(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
      return new Promise((resolve, reject) => {
        const req = http.request(
          { agent, hostname, port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
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
export type HttpPoster = ReturnType<typeof httpPoster>;
