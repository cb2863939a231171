import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { until } from '../helpers/processes.js';
import { freePort } from '../../server/temporal/launcher.js';
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

describe('log format: readable at a terminal, JSON otherwise', () => {
  const root = path.resolve(import.meta.dirname, '../..');

  /** The server (`--role=server`, as `npm start` runs it) until it has answered one request; its stdout. */
  async function run(tty: boolean, env: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-log-'));
    const cmd = [process.execPath, '--import', 'tsx', path.join(root, 'server/main.ts'), '--role=server'];
    // `script` runs the command on a pseudo-terminal, as a person's shell would.
    const child = tty
      ? spawn('script', ['-qfec', cmd.map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: root, env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dir, TEMPORAL_ADDRESS: inject('temporalAddress'), SEED_DEMO: 'false', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(cmd[0]!, cmd.slice(1), { cwd: root, env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dir, TEMPORAL_ADDRESS: inject('temporalAddress'), SEED_DEMO: 'false', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      await until(() => out.includes('API on http://') || child.exitCode !== null, 60_000);
      expect(out, err).toContain('API on http://');
      expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);
      await until(() => out.includes('/api/health/live'));
    } finally {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return out.replace(/\r/g, '');
  }

  it('on a terminal: one readable line per event, no JSON', async () => {
    const out = await run(true);
    const lines = out.split('\n').filter((l) => /INFO/.test(l));
    expect(lines.some((l) => /API listening/.test(l)), out).toBe(true);
    const request = lines.find((l) => l.includes('/api/health/live'));
    expect(request, out).toMatch(/^\S*\[\d\d:\d\d:\d\d\.\d{3}\]\S* \S*INFO\S*: \S*request/);
    for (const l of lines) expect(() => JSON.parse(l)).toThrow();
  });

  it('piped (a container, a file): JSON lines; LOG_FORMAT=json forces it on a terminal too', async () => {
    for (const out of [await run(false), await run(true, { LOG_FORMAT: 'json' })]) {
      const json = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; level: number; path?: string });
      expect(json.find((l) => l.msg === 'API listening')).toMatchObject({ level: 30 });
      expect(json.find((l) => l.msg === 'request' && l.path === '/api/health/live')).toMatchObject({ level: 30, status: 200 });
    }
  });
});
