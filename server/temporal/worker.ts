import path from 'node:path';
import { createRequire } from 'node:module';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { OpenTelemetryActivityInboundInterceptor, makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import { Resource } from '@opentelemetry/resources';
import { NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createPostCallActivities } from '../../engine/activities/post-call.js';
import type { Ports } from '../../engine/ports.js';
import type { TemporalAccess } from './connection-options.js';

export const WORKFLOWS_ENTRY = path.resolve(import.meta.dirname, '../../engine/workflows/index.ts');

/**
 * OpenTelemetry's workflow interceptors (a span per workflow run and per scheduled activity, the
 * trace context carried in Temporal headers) live in the workflow bundle; their spans leave the
 * sandbox through the `exporter` sink every worker registers (`createWorker`).
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/**
 * Bundling takes seconds; a process (or a test run) bundles once and hands the code to each worker.
 * `tracing: false` leaves the OpenTelemetry interceptors out: with no OTLP endpoint their spans go
 * nowhere, and making them cost every workflow task (bench/README.md). They add headers, never
 * commands, so histories replay the same either way.
 */
export async function bundleWorkflows(opts: { tracing?: boolean } = {}): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_ENTRY,
    workflowInterceptorModules: opts.tracing === false ? [] : WORKFLOW_INTERCEPTOR_MODULES,
    preloadModules: SHARED_WORKFLOW_MODULES,
    logger: quietBundlerLogger,
  });
}

/**
 * Modules the reusable V8 context evaluates once and shares between runs, instead of once per run
 * (Temporal keeps a module cache per run otherwise). Only pure code with no per-run state goes
 * here: the graph walk and its schema constants, the cadence arithmetic and luxon under it. Their
 * caches (engine/memo.ts) hold answers that are functions of their arguments, so sharing them
 * cannot make one run see another's state; Temporal deep-freezes their exports. Evaluating them
 * per run was ~2 ms of the workflow thread's CPU a run, in a profile at saturation (bench/README.md).
 * test/unit/server/shared-workflow-modules.test.ts keeps the Temporal API and I/O out of them.
 */
export const SHARED_WORKFLOW_MODULES = ['engine/graph/walk.ts', 'engine/cadence/index.ts', 'engine/workflows/lead-cadence-plan.ts'].map((m) =>
  path.resolve(import.meta.dirname, '../..', m),
);

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

/**
 * The server hands a start's first workflow task to this worker (eager start) only when the
 * worker can reserve a workflow-task slot for it, and every poll in flight holds one. With the
 * SDK's 40 slots and autoscaled pollers (up to 100), a backlog once seen (a burst of plain starts,
 * of timers firing) grows the pollers until they hold every slot, and they shrink back slowly: in
 * bench/cadence.ts 66 of 2,401 enrolments started eagerly. Where the API starts eagerly, pollers
 * stop at 10 and the worker has 100 slots, so that most starts find one (667 of 1,201 in the same
 * bench, alternating with plain starts that grow the pollers; bench/README.md, History).
 */
const EAGER_WORKFLOW_TASK_SLOTS = 100;
const EAGER_WORKFLOW_TASK_POLLERS = 10;

export interface WorkerOptions {
  address: string;
  /** TLS, API key, gRPC metadata of the cluster (server/temporal/connection-options.ts) */
  access?: TemporalAccess;
  namespace: string;
  taskQueue: string;
  ports: Ports;
  bundle?: WorkflowBundleWithSourceMap | { codePath: string };
  /** extra activities (the power dialer's) registered on the same worker */
  activities?: Record<string, (...args: never[]) => Promise<unknown>>;
  /**
   * The API's client shares this worker's connection and asks for eager starts (the all-in-one
   * process): workflow-task slots are kept free for them (EAGER_WORKFLOW_TASK_SLOTS).
   */
  eagerStarts?: boolean;
  /** where workflow spans go (server/ops/tracing.ts); absent or not enabled: nowhere, and no workflow interceptors */
  tracing?: { enabled: boolean; spanProcessor: SpanProcessor; resource: Resource };
}

export async function createWorker(opts: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: opts.address, ...opts.access });
  const worker = await Worker.create({
    connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: opts.bundle ?? (await bundleWorkflows({ tracing: opts.tracing?.enabled ?? false })),
    activities: { ...createPostCallActivities(opts.ports), ...(opts.activities ?? {}) },
    // A span per activity attempt, the child of the workflow's span that scheduled it; the
    // activity's own outgoing HTTP requests are its children (undici instrumentation).
    interceptors: opts.tracing?.enabled ? { activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx) })] } : {},
    sinks: {
      exporter: makeWorkflowExporter(
        opts.tracing?.spanProcessor ?? new NoopSpanProcessor(),
        opts.tracing?.resource ?? new Resource({ 'service.name': 'voice-campaigns' }),
      ),
    },
    // Two cores: a modest concurrency keeps the API responsive in the all-in-one process.
    maxConcurrentActivityTaskExecutions: 50,
    // Post-call actions run as local activities (docs/execution.md): the same bound for them.
    maxConcurrentLocalActivityExecutions: 50,
    // A new workflow's first task comes from the task queue, later ones from this worker's sticky
    // queue. The default fixed pollers give the task queue 2 of 10, which capped a burst of
    // enrolments at ~35 lead workflows started a second; pollers scaled on the server's backlog
    // hints took them to ~65 (bench/README.md, `cadence.enrol`). Where runs start eagerly, their
    // first tasks skip the queue, and the pollers stop short of the slots (above).
    ...(opts.eagerStarts && { maxConcurrentWorkflowTaskExecutions: EAGER_WORKFLOW_TASK_SLOTS }),
    workflowTaskPollerBehavior: { type: 'autoscaling', ...(opts.eagerStarts && { maximum: EAGER_WORKFLOW_TASK_POLLERS }) },
  });
  return { worker, connection };
}
