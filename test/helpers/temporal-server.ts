import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import net from 'node:net';
import type { TestPki } from './certs.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
/** built by `scripts/setup.sh --test` from go.temporal.io/server (the version the CLI pins) */
export const TEMPORAL_SERVER = path.join(ROOT, '.tools/bin/temporal-server');
const SQL_TOOL = path.join(ROOT, '.tools/bin/temporal-sql-tool');
const SCHEMA = path.join(ROOT, '.tools/temporal-schema/postgresql-v12');

/**
 * A free loopback port below 32768: the server stores its services' ports in its cluster
 * membership table as a signed 16-bit integer, which the kernel's ephemeral range overflows.
 */
async function lowFreePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

export interface TemporalServer {
  /** host:port of the frontend */
  address: string;
  namespace: string;
  /** the environment a product process needs to reach it (address, namespace, mTLS files) */
  env: Record<string, string>;
  /** the server's process id (benchmarks read its CPU time) */
  pid: number;
  stop(): Promise<void>;
}

export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
}

/**
 * The real Temporal server (not the dev server): one process running every service, its
 * persistence and visibility in their own databases on the given Postgres, their schemas set up by
 * Temporal's own SQL tool. With `pki`, the frontend demands mutual TLS: clients must present a
 * certificate from that CA (the system worker inside the server too), as a production cluster
 * would; the product's processes get the TEMPORAL_TLS_* settings in `env`.
 */
export async function startTemporalServer(opts: { pg: PostgresTarget; dir: string; pki?: TestPki; namespace?: string; log?: (line: string) => void }): Promise<TemporalServer> {
  for (const f of [TEMPORAL_SERVER, SQL_TOOL, SCHEMA]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run scripts/setup.sh --test (it builds the Temporal server from its Go module)`);
  }
  const namespace = opts.namespace ?? 'default';
  const sql = (db: string, ...args: string[]) => run(SQL_TOOL, ['--plugin', 'postgres12', '--ep', opts.pg.host, '-p', String(opts.pg.port), '-u', opts.pg.user, '--db', db, ...args]);
  for (const [db, schema] of [['temporal', 'temporal'], ['temporal_visibility', 'visibility']] as const) {
    await sql(db, 'create-database');
    await sql(db, 'setup-schema', '-v', '0.0');
    await sql(db, 'update-schema', '-d', path.join(SCHEMA, schema, 'versioned'));
  }

  const ports = { frontend: await lowFreePort(), frontendHttp: await lowFreePort(), history: await lowFreePort(), matching: await lowFreePort(), worker: await lowFreePort() };
  const membership = { frontend: await lowFreePort(), history: await lowFreePort(), matching: await lowFreePort(), worker: await lowFreePort() };
  const datastore = (db: string, conns: number) => ({
    sql: { pluginName: 'postgres12', databaseName: db, connectAddr: `${opts.pg.host}:${opts.pg.port}`, connectProtocol: 'tcp', user: opts.pg.user, password: '', maxConns: conns, maxIdleConns: conns, maxConnLifetime: '1h' },
  });
  const service = (grpc: number, member: number, http?: number) => ({ rpc: { grpcPort: grpc, membershipPort: member, bindOnLocalHost: true, ...(http && { httpPort: http }) } });
  const pki = opts.pki;
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: { defaultStore: 'default', visibilityStore: 'visibility', numHistoryShards: 4, datastores: { default: datastore('temporal', 20), visibility: datastore('temporal_visibility', 4) } },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      ...(pki && {
        tls: {
          frontend: {
            server: { certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFiles: [pki.ca], requireClientAuth: true },
            client: { serverName: 'localhost', rootCaFiles: [pki.ca] },
          },
          systemWorker: { certFile: pki.clientCert, keyFile: pki.clientKey, client: { serverName: 'localhost', rootCaFiles: [pki.ca] } },
        },
      }),
    },
    services: { frontend: service(ports.frontend, membership.frontend, ports.frontendHttp), history: service(ports.history, membership.history), matching: service(ports.matching, membership.matching), worker: service(ports.worker, membership.worker) },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `localhost:${ports.frontend}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
  };
  // JSON is YAML: the server reads <root>/<config>/<env>.yaml.
  fs.mkdirSync(path.join(opts.dir, 'config'), { recursive: true });
  fs.writeFileSync(path.join(opts.dir, 'config', 'test.yaml'), JSON.stringify(config, null, 2));

  const child: ChildProcess = spawn(TEMPORAL_SERVER, ['--root', opts.dir, '--config', 'config', '--env', 'test', '--allow-no-auth', 'start'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      opts.log?.(line);
    }
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));

  const address = `localhost:${ports.frontend}`;
  const env: Record<string, string> = {
    TEMPORAL_ADDRESS: address,
    TEMPORAL_NAMESPACE: namespace,
    ...(pki && { TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey, TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.ca }),
  };
  const tls = pki && { clientCertPair: { crt: fs.readFileSync(pki.clientCert), key: fs.readFileSync(pki.clientKey) }, serverRootCACertificate: fs.readFileSync(pki.ca) };
  const stop = async () => {
    if (exited !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(killer);
  };

  // Up when the frontend answers, then the namespace (a real server has none until it is registered).
  const deadline = Date.now() + 90_000;
  let conn: Connection | undefined;
  while (!conn) {
    if (exited !== null) throw new Error(`the Temporal server exited (${exited}):\n${tail.join('\n')}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Temporal server did not answer within 90 s:\n${tail.join('\n')}`);
    }
    try {
      conn = await Connection.connect({ address, ...(tls && { tls }), connectTimeout: 1_000 });
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    await conn.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  } catch (err) {
    if (!/already exists/i.test((err as Error).message)) throw err;
  }
  // Registered namespaces reach every service through a cache: wait until the frontend serves it.
  for (;;) {
    try {
      await conn.workflowService.describeNamespace({ namespace });
      await conn.workflowService.listWorkflowExecutions({ namespace, pageSize: 1 });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`namespace ${namespace} did not become usable:\n${tail.join('\n')}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  await conn.close();
  return { address, namespace, env, pid: child.pid!, stop };
}
