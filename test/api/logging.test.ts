import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createApp } from '../../server/app.js';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

let h: Harness;
const lines: string[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  h = await createHarness();
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  // The same app over the same store, logging at info into memory.
  server = createApp({ ...h.services, logger: pino({ level: 'info' }, sink) }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  await h?.close();
});

describe('request logs', () => {
  it('one structured line per request with a request id, and never the key or the body', async () => {
    const res = await fetch(`${url}/api/v2/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminKey}`, 'content-type': 'application/json', 'x-request-id': 'req-123' },
      body: JSON.stringify({ crm: 'crm_b', locationId: 'loc_log', active: false, crm_b: { accountId: 'secret-account-77' } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-123');
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toContainEqual(expect.objectContaining({ reqId: 'req-123', method: 'POST', path: '/api/v2/projects', status: 200, msg: 'request' }));
    const all = lines.join('\n');
    expect(all).not.toContain(h.adminKey);
    expect(all).not.toContain(h.adminKey.slice(4, 20));
    expect(all).not.toContain('secret-account-77');
  });
});
