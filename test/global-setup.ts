import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../server/temporal/launcher.js';
import { bundleWorkflows } from '../server/temporal/worker.js';
import { startPostgresCluster } from './helpers/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    /** the superuser URL of the run's Postgres cluster; each test file makes its own database there (test/helpers/postgres.ts) */
    postgresUrl: string;
  }
}

/**
 * One real Temporal dev server (in memory, free port), one Postgres cluster (initdb in a temp dir,
 * free port) and one workflow bundle for the whole run. No skipping: if a server cannot start, the
 * run fails here, loudly.
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const postgres = await startPostgresCluster();
  let server;
  try {
    server = await startDevServer({ uiPort: null });
  } catch (err) {
    postgres.stop();
    throw err;
  }
  const bundle = await bundleWorkflows();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bundle-'));
  const codePath = path.join(dir, 'workflows.js');
  fs.writeFileSync(codePath, bundle.code);
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', codePath);
  project.provide('postgresUrl', postgres.url);
  process.stderr.write(`[global-setup] Temporal dev server on ${server.address}, Postgres on port ${postgres.port}, workflows bundled, in ${Date.now() - started} ms\n`);
  return async () => {
    postgres.stop();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
