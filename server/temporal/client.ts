import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { POST_CALL_WORKFLOW, type PostCallInput } from '../../engine/workflows/post-call-types.js';

export interface WorkflowStarter {
  /** Starts a post-call run under its workflow id; resolves false when a run with that id already exists. */
  startPostCall(workflowId: string, input: PostCallInput): Promise<boolean>;
  health(): Promise<boolean>;
  close(): Promise<void>;
  client: Client;
}

export async function connectTemporal(address: string, namespace: string, taskQueue: string): Promise<WorkflowStarter> {
  const connection = await Connection.connect({ address });
  // The start of a run is a span in the caller's trace (the HTTP request that accepted a call
  // event), and its context travels to the workflow in the start request's headers.
  const client = new Client({ connection, namespace, interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } });
  async function start(workflowId: string, input: PostCallInput) {
      try {
        await client.workflow.start(POST_CALL_WORKFLOW, {
          workflowId,
          taskQueue,
          args: [input],
          // One run per call, ever: a re-delivered event must not run the chain again.
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        });
        return true;
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw err;
      }
  }
  return {
    client,
    startPostCall: start,
    async health() {
      try {
        // A frontend that does not answer is down, however long the channel would keep retrying.
        await connection.withDeadline(Date.now() + 2000, () => connection.workflowService.describeNamespace({ namespace }));
        return true;
      } catch {
        return false;
      }
    },
    close: () => connection.close(),
  };
}
