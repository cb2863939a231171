import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';

export interface Load {
  /** completed requests per second */
  rps: number;
  /** ms, 2xx responses only */
  p50: number;
  p99: number;
  n: number;
  non2xx: number;
  errors: number;
}

/** Closed-loop load from a worker thread: `connections` keep-alive connections for `seconds`. */
export function load(opts: autocannon.Options & { duration: number }): Promise<Load> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(import.meta.dirname, 'load-worker.mjs'), { workerData: { connections: 10, ...opts } });
    worker.once('message', (m: Load) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}
