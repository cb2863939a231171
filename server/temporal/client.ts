import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { LEAD_CADENCE_WORKFLOW, type LeadCadenceInput } from '../../engine/workflows/lead-cadence-types.js';
import { POST_CALL_WORKFLOW, type PostCallInput } from '../../engine/workflows/post-call-types.js';
import { REPLAY_WORKFLOW, type ReplayInput } from '../../engine/workflows/replay-types.js';
import type { TemporalAccess } from './connection-options.js';

export interface WorkflowStarter {
  /** Starts a post-call run under its workflow id; resolves false when a run with that id already exists. */
  startPostCall(workflowId: string, input: PostCallInput): Promise<boolean>;
  /** Starts a lead's cadence run under its workflow id; resolves false when a run with that id already exists. */
  startLeadCadence(workflowId: string, input: LeadCadenceInput): Promise<boolean>;
  /** Starts a what-if replay under its workflow id; resolves false when a run with that id already exists. */
  startReplay(workflowId: string, input: ReplayInput): Promise<boolean>;
  /** Asks a running workflow to stop (a replay); one that has ended is left as it is. */
  cancel(workflowId: string): Promise<void>;
  health(): Promise<boolean>;
  close(): Promise<void>;
  client: Client;
  /** runs started (post-call and lead cadence), and how many of them the server handed straight to this process's worker */
  stats: { started: number; eagerlyStarted: number };
}

/**
 * Connects the API's client. Given the in-process worker's connection (the all-in-one process
 * `npm start` runs), it shares it and asks for eager starts: the server hands a run's first
 * workflow task back in the start response to that worker instead of queueing it for a poll,
 * which takes a task-queue round trip off every post-call run and every lead's enrolment
 * (bench/README.md). The shared connection belongs to the worker: `close` leaves it open.
 */
export async function connectTemporal(
  address: string,
  namespace: string,
  taskQueue: string,
  opts: { shared?: NativeConnection; tracing?: boolean; access?: TemporalAccess } = {},
): Promise<WorkflowStarter> {
  const { shared } = opts;
  const connection = shared ?? (await Connection.connect({ address, ...opts.access }));
  // The start of a run is a span in the caller's trace (the HTTP request that accepted a call
  // event), and its context travels to the workflow in the start request's headers. With tracing
  // off (`tracing: false`) there is no trace to join: no interceptor, not even a no-op span per start.
  const interceptors = opts.tracing === false ? {} : { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
  const client = new Client({ connection, namespace, interceptors });
  const stats = { started: 0, eagerlyStarted: 0 };
  // One run per id, ever: a re-delivered call event must not run the chain again, nor a repeated
  // enrolment start a lead's cadence twice.
  async function start(workflowType: string, workflowId: string, input: unknown) {
    try {
      const handle = await client.workflow.start(workflowType, {
        workflowId,
        taskQueue,
        args: [input],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        requestEagerStart: shared !== undefined,
      });
      stats.started += 1;
      if (handle.eagerlyStarted) stats.eagerlyStarted += 1;
      return true;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
      throw err;
    }
  }
  return {
    client,
    stats,
    startPostCall: (workflowId, input) => start(POST_CALL_WORKFLOW, workflowId, input),
    startLeadCadence: (workflowId, input) => start(LEAD_CADENCE_WORKFLOW, workflowId, input),
    startReplay: (workflowId, input) => start(REPLAY_WORKFLOW, workflowId, input),
    async cancel(workflowId) {
      try {
        await client.workflow.getHandle(workflowId).cancel();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
    async health() {
      try {
        // A frontend that does not answer is down, however long the channel would keep retrying.
        await connection.withDeadline(Date.now() + 2000, () => connection.workflowService.describeNamespace({ namespace }));
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (!shared) await connection.close();
    },
  };
}
