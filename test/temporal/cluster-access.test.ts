/**
 * Reaching a Temporal cluster beyond the dev server (Temporal Cloud, a self-hosted cluster behind
 * mTLS): the settings are Temporal's own environment variables, and what they say goes on the
 * wire. A TLS gRPC endpoint that demands a client certificate from its own CA stands in for the
 * cluster's frontend and records each call: who the client certificate names, the API key, the
 * metadata. The API's client and the worker's connection (the Rust core) are both checked.
 */
import http2 from 'node:http2';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { connectTemporal } from '../../server/temporal/client.js';
import { createWorker } from '../../server/temporal/worker.js';
import { makeTestPki, type TestPki } from '../helpers/certs.js';

interface Seen {
  path: string;
  authorization: string | undefined;
  tenant: string | undefined;
  clientCn: string | undefined;
}

let pki: TestPki;
let frontend: http2.Http2SecureServer;
let address: string;
const seen: Seen[] = [];

beforeAll(async () => {
  pki = makeTestPki('worker-7');
  frontend = http2.createSecureServer({
    key: fs.readFileSync(pki.serverKey),
    cert: fs.readFileSync(pki.serverCert),
    ca: fs.readFileSync(pki.ca),
    requestCert: true,
    rejectUnauthorized: true,
  });
  frontend.on('stream', (stream, headers) => {
    const peer = (stream.session?.socket as TLSSocket | undefined)?.getPeerCertificate();
    seen.push({
      path: String(headers[':path']),
      authorization: headers.authorization as string | undefined,
      tenant: headers['x-tenant'] as string | undefined,
      clientCn: peer?.subject?.CN as string | undefined,
    });
    // Trailers only: every method is "unimplemented" here; the calls themselves are what is checked.
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'stand-in frontend' }, { endStream: true });
  });
  await new Promise<void>((r) => frontend.listen(0, '127.0.0.1', r));
  address = `localhost:${(frontend.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => frontend?.close(r));
  pki?.remove();
});

const clusterEnv = (extra: Record<string, string> = {}) => ({
  TEMPORAL_ADDRESS: address,
  TEMPORAL_NAMESPACE: 'agency-prod.a1b2c',
  TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert,
  TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey,
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.ca,
  TEMPORAL_API_KEY: 'tk_live_123',
  TEMPORAL_GRPC_META_X_TENANT: 'acme',
  ...extra,
});

describe('a Temporal cluster behind mTLS and an API key', () => {
  it("the API's client presents the client certificate, the API key and the metadata", async () => {
    seen.length = 0;
    const config = loadConfig(clusterEnv());
    expect(config.temporalNamespace).toBe('agency-prod.a1b2c');
    const temporal = await connectTemporal(config.temporalAddress!, config.temporalNamespace, 'q', { access: config.temporalAccess, tracing: false });
    await temporal.health();
    await temporal.close();
    expect(seen.length).toBeGreaterThan(0);
    for (const call of seen) {
      expect(call).toMatchObject({ clientCn: 'worker-7', authorization: 'Bearer tk_live_123', tenant: 'acme' });
    }
    expect(seen.map((c) => c.path)).toContain('/temporal.api.workflowservice.v1.WorkflowService/DescribeNamespace');
  });

  it("the worker's connection (the Rust core) presents the same", async () => {
    seen.length = 0;
    const config = loadConfig(clusterEnv());
    // The stand-in answers nothing a worker can run on: creating it fails after the calls are made.
    await createWorker({ address: config.temporalAddress!, access: config.temporalAccess, namespace: config.temporalNamespace, taskQueue: 'q', ports: {} as never, bundle: { codePath: '/nonexistent' } }).catch(() => undefined);
    expect(seen.length).toBeGreaterThan(0);
    for (const call of seen) {
      expect(call).toMatchObject({ clientCn: 'worker-7', authorization: 'Bearer tk_live_123', tenant: 'acme' });
    }
  });

  it('the server is verified against TEMPORAL_TLS_SERVER_CA_CERT_PATH: without it, nothing reaches the cluster', async () => {
    seen.length = 0;
    const env: Record<string, string> = clusterEnv();
    delete env.TEMPORAL_TLS_SERVER_CA_CERT_PATH;
    const config = loadConfig(env);
    await expect(connectTemporal(config.temporalAddress!, config.temporalNamespace, 'q', { access: config.temporalAccess, tracing: false })).rejects.toThrow();
    expect(seen).toEqual([]);
  });
});

describe('settings a process refuses to start with', () => {
  const refuse = (env: Record<string, string>, message: RegExp) => expect(() => loadConfig(env)).toThrow(message);

  it('a client certificate without its key, or a key without its certificate', () => {
    refuse({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert }, /TEMPORAL_TLS_CLIENT_CERT_PATH is set without TEMPORAL_TLS_CLIENT_KEY_PATH/);
    refuse({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey }, /TEMPORAL_TLS_CLIENT_KEY_PATH is set without TEMPORAL_TLS_CLIENT_CERT_PATH/);
  });

  it('a file that cannot be read, naming the setting', () => {
    refuse({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_CLIENT_CERT_PATH: '/nonexistent/client.pem', TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey }, /TEMPORAL_TLS_CLIENT_CERT_PATH: ENOENT/);
  });

  it('TEMPORAL_TLS other than true or false', () => {
    refuse({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS: 'yes' }, /TEMPORAL_TLS must be "true" or "false"/);
  });

  it('an API key or TLS without a cluster address (the embedded dev server takes neither)', () => {
    refuse({ TEMPORAL_API_KEY: 'k' }, /TEMPORAL_ADDRESS is not/);
  });
});

describe('defaults', () => {
  it('no settings: the embedded dev server, namespace default, nothing extra on the connection', () => {
    const config = loadConfig({});
    expect(config.temporalAddress).toBeUndefined();
    expect(config.temporalNamespace).toBe('default');
    expect(config.temporalAccess).toEqual({});
  });

  it("a developer's own Temporal CLI profile does not redirect the product; TEMPORAL_CONFIG_FILE does", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-home-'));
    try {
      const profileDir = path.join(home, '.config', 'temporalio');
      fs.mkdirSync(profileDir, { recursive: true });
      const file = path.join(profileDir, 'temporal.toml');
      fs.writeFileSync(file, '[profile.default]\naddress = "cloud.example:7233"\nnamespace = "from-profile"\napi_key = "from-profile-key"\n');
      expect(loadConfig({ HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }).temporalAddress).toBeUndefined();
      const named = loadConfig({ TEMPORAL_CONFIG_FILE: file });
      expect(named.temporalAddress).toBe('cloud.example:7233');
      expect(named.temporalNamespace).toBe('from-profile');
      expect(named.temporalAccess).toMatchObject({ apiKey: 'from-profile-key', tls: true });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
