import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { expectConforms } from '../helpers/contract.js';

/** A TCP proxy in front of the Temporal frontend that the test can cut and restore. */
function tcpProxy(target: string) {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sockets = new Set<net.Socket>();
  let server: net.Server;
  let listenPort = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(port, host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(listenPort, '127.0.0.1', () => {
        listenPort = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  return {
    open,
    get address() {
      return `127.0.0.1:${listenPort}`;
    },
    async cut() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

let proxy: ReturnType<typeof tcpProxy>;
let h: Harness;
beforeAll(async () => {
  proxy = tcpProxy(inject('temporalAddress'));
  await proxy.open();
  h = await createHarness({ temporal: true, worker: false, temporalAddress: proxy.address });
});
afterAll(async () => h?.close());

const get = (path: string) => h.api('GET', path, { key: null });

describe('health: liveness and readiness', () => {
  it('both answer without a key; readiness names its checks', async () => {
    const live = await get('/api/health/live');
    expect(live.status).toBe(200);
    expectConforms(h.services, 'liveness', 200, live.body);
    expect(live.body.data.status).toBe('alive');
    const ready = await get('/api/health/ready');
    expect(ready.status).toBe(200);
    expectConforms(h.services, 'readiness', 200, ready.body);
    expect(ready.body).toEqual({ success: true, data: { status: 'ready', store: 'ok', temporal: 'ok', version: expect.any(String) } });
  });

  it('Temporal unreachable: not ready (503), still alive; ready again once it is back', async () => {
    await proxy.cut();
    const ready = await get('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ success: false, error: 'ServiceUnavailable', message: 'a dependency is down: store ok, temporal down' });
    expect((await get('/api/health')).status).toBe(503);
    expect((await get('/api/health/live')).status).toBe(200);
    await proxy.open();
    await expect.poll(async () => (await get('/api/health/ready')).status, { timeout: 30_000, interval: 250 }).toBe(200);
  });

  it('the store unavailable: not ready (503), still alive', async () => {
    const s = await createHarness();
    try {
      expect((await s.api('GET', '/api/health/ready', { key: null })).status).toBe(200);
      s.db.close();
      const ready = await s.api('GET', '/api/health/ready', { key: null });
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ success: false, error: 'ServiceUnavailable', message: 'a dependency is down: store down, temporal not_configured' });
      expect((await s.api('GET', '/api/health/live', { key: null })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
