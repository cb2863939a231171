import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../server/temporal/launcher.js';
import { bundleWorkflows } from '../server/temporal/worker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
  }
}

/**
 * One real Temporal dev server (in memory, free port) and one workflow bundle for the whole run.
 * No skipping: if the server cannot start, the run fails here, loudly.
 */
export default async function setup(project: TestProject) {
  const started = Date.now();
  const server = await startDevServer({ uiPort: null });
  const bundle = await bundleWorkflows();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bundle-'));
  const codePath = path.join(dir, 'workflows.js');
  fs.writeFileSync(codePath, bundle.code);
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', codePath);
  process.stderr.write(`[global-setup] Temporal dev server on ${server.address}, workflows bundled, in ${Date.now() - started} ms\n`);
  return async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
