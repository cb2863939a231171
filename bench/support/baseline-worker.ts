/**
 * A worker for the baseline workflows (support/baseline-workflows.ts, no-op activities) on its own
 * task queue, and a client of its own, on the given dev server: the plain Temporal side of the
 * post-call bench and of the patch-cost diagnostic. `eagerClient` shares the worker's connection.
 */
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';

export async function startBaselineWorker(address: string, taskQueue: string) {
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowsPath: path.resolve(import.meta.dirname, 'baseline-workflows.ts'),
    activities: { noop: async (step: number) => step },
  });
  const running = worker.run();
  const client = new Client({ connection: await Connection.connect({ address }) });
  return {
    client,
    /** A client on the worker's own connection, which may ask for eager starts, as the product's API does. */
    eagerClient: new Client({ connection }),
    async stop() {
      worker.shutdown();
      await running;
      await client.connection.close();
      await connection.close();
    },
  };
}
