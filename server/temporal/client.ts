import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { POST_CALL_WORKFLOW, postCallWorkflowId, type PostCallInput } from '../../engine/workflows/post-call-types.js';

export interface WorkflowStarter {
  /** Starts `post-call:<callId>`; resolves false when that run already exists (a duplicate event). */
  startPostCall(callId: string, input: PostCallInput): Promise<boolean>;
  /** a post-call run under an explicit id (retries of failed runs) */
  startPostCallWith(workflowId: string, input: PostCallInput): Promise<boolean>;
  health(): Promise<boolean>;
  close(): Promise<void>;
  client: Client;
}

export async function connectTemporal(address: string, namespace: string, taskQueue: string): Promise<WorkflowStarter> {
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });
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
    startPostCall: (callId, input) => start(postCallWorkflowId(callId), input),
    startPostCallWith: start,
    async health() {
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return true;
      } catch {
        return false;
      }
    },
    close: () => connection.close(),
  };
}
