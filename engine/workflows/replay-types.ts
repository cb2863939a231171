/** Names shared by the replay workflow, its activities (server/replay/activities.ts) and the client. */
export const REPLAY_WORKFLOW = 'replayRun';
/** One workflow per replay; the agency is part of the id, as in every workflow id. */
export const replayWorkflowId = (agencyId: string, replayId: string) => `replay:${agencyId}:${replayId}`;

export interface ReplayInput {
  agencyId: string;
  replayId: string;
  /** how many batches are replayed at once */
  concurrency: number;
  /** calls per activity */
  batchSize: number;
}

/** A call to replay: its run, by the order the calls were listed. */
export interface ReplayCallRef {
  seq: number;
  executionId: string;
  workflowId: string;
}

export interface ReplayActivities {
  /** the calls the replay takes (its campaign's recent real runs, newest first); empty when it is no longer running */
  listReplayCalls(i: { agencyId: string; replayId: string }): Promise<ReplayCallRef[]>;
  /** dry-runs each call through both graphs and stores the result; `stopped` when the replay was cancelled meanwhile */
  replayCalls(i: { agencyId: string; replayId: string; calls: ReplayCallRef[] }): Promise<{ replayed: number; stopped: boolean }>;
  finishReplay(i: { agencyId: string; replayId: string; status: 'done' | 'failed'; error?: string }): Promise<void>;
}

export interface ReplayResult {
  status: 'done' | 'cancelled' | 'failed';
  replayed: number;
}
