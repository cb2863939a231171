import path from 'node:path';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createPostCallActivities } from '../../engine/activities/post-call.js';
import type { Ports } from '../../engine/ports.js';

export const WORKFLOWS_ENTRY = path.resolve(import.meta.dirname, '../../engine/workflows/index.ts');

/** Bundling takes seconds; a process (or a test run) bundles once and hands the code to each worker. */
export async function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_ENTRY, logger: quietBundlerLogger });
}

const quietBundlerLogger = {
  log() {},
  trace() {},
  debug() {},
  info() {},
  warn(message: string) {
    process.stderr.write(`[bundler] ${message}\n`);
  },
  error(message: string) {
    process.stderr.write(`[bundler] ${message}\n`);
  },
};

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  ports: Ports;
  bundle?: WorkflowBundleWithSourceMap | { codePath: string };
  /** extra activities (the power dialer's) registered on the same worker */
  activities?: Record<string, (...args: never[]) => Promise<unknown>>;
}

export async function createWorker(opts: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: opts.bundle ?? (await bundleWorkflows()),
    activities: { ...createPostCallActivities(opts.ports), ...(opts.activities ?? {}) },
    // Two cores: a modest concurrency keeps the API responsive in the all-in-one process.
    maxConcurrentActivityTaskExecutions: 50,
  });
  return { worker, connection };
}
