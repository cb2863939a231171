/**
 * The runs slice: the run painted on the canvas (a real post-call run or a test run), read again
 * while it is still going (api/watch-execution.ts), and starting a test run of the saved version.
 */
import { watchExecution } from '../../api/watch-execution';
import type { TestRunBody } from '../../api/types';
import { runView, type RunView } from '../../model/run';
import type { Slice } from '../editor-core';

export interface RunsSlice {
  run: RunView | null;
  /** Starts a test run of the stored version and paints it as it goes; answers an error to show in the form. */
  startTestRun(body: TestRunBody): Promise<string | null>;
  openRun(executionId: string | null): Promise<void>;
}

export const runsSlice: Slice<RunsSlice> = (set, get, core) => {
  const { graph, refuse } = core;
  const api = core.deps.api;

  /** Paints each fresh reading until the run ends, another run is opened, or it takes too long. */
  const watch = async (id: string) => {
    const ended = await watchExecution(api.execution, id, {
      wanted: () => get().run?.execution.id === id,
      onRead: (e) => set({ run: runView(e, graph()) }),
    });
    if (ended === 'timeout') get().notify('The run is still going; Refresh in the Runs tab reads it again.');
  };

  return {
    run: null,

    async startTestRun(body) {
      try {
        const e = await api.testRun(body);
        set({ run: runView(e, graph()), tab: 'runs', dialog: null });
        void watch(e.id);
        return null;
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    },
    async openRun(executionId) {
      if (!executionId) return set({ run: null });
      try {
        const e = await api.execution(executionId);
        set({ run: runView(e, graph()), tab: 'runs' });
        if (e.status === 'running') void watch(e.id);
      } catch (err) {
        refuse(err);
      }
    },
  };
};
