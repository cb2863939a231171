import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
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
    startPostCall: start,
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
