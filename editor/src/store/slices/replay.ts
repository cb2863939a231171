/**
 * The what-if slice: a replay of the campaign's recent real calls through two graphs (the saved
 * version and the unsaved changes, or two versions from History), followed while it runs (its
 * progress read every REPLAY_POLL_MS, without the calls), read whole once it ends, cancellable.
 * Nothing of it touches the working graph.
 */
import type { Replay, StartReplayBody } from '../../api/types';
import type { Slice } from '../editor-core';

/** How often a running replay's progress is read. */
export const REPLAY_POLL_MS = 300;

/** What to compare: the stored version with the unsaved changes, or two stored versions. */
export type ReplayRequest = { kind: 'unsaved'; days: number; limit: number } | { kind: 'versions'; from: number; to: number; days: number; limit: number };

export interface ReplayState {
  job: Replay | null;
  starting: boolean;
  cancelling: boolean;
  error: string | null;
  /** the form's preset when the tab opens (the toolbar asks for the unsaved changes; History for two versions) */
  preset: { from: number; to: number | 'unsaved' } | null;
}

export interface ReplaySlice {
  whatIf: ReplayState;
  /** opens the What-if tab with the form set to compare these */
  prepareReplay(preset: ReplayState['preset']): void;
  startReplay(req: ReplayRequest): Promise<void>;
  cancelReplay(): Promise<void>;
  /** back to the form (a running replay goes on; it is no longer followed) */
  clearReplay(): void;
}

export const replaySlice: Slice<ReplaySlice> = (set, get, core) => {
  const api = core.deps.api;
  const patch = (p: Partial<ReplayState>) => set((s) => ({ whatIf: { ...s.whatIf, ...p } }));
  const followed = (id: string) => get().whatIf.job?.id === id;

  /** Progress until the replay ends, then the whole of it (its calls). A failed read is tried again. */
  const follow = async (id: string) => {
    for (;;) {
      await new Promise((r) => setTimeout(r, REPLAY_POLL_MS));
      if (!followed(id)) return;
      let job: Replay;
      try {
        job = await api.replay(id, 'none');
      } catch {
        continue;
      }
      if (!followed(id)) return;
      if (job.status !== 'running') break;
      patch({ job });
    }
    try {
      const whole = await api.replay(id, 'all');
      if (followed(id)) patch({ job: whole, cancelling: false });
    } catch (err) {
      if (followed(id)) patch({ error: err instanceof Error ? err.message : String(err) });
    }
  };

  return {
    whatIf: { job: null, starting: false, cancelling: false, error: null, preset: null },

    prepareReplay(preset) {
      patch({ job: null, error: null, preset });
      set({ tab: 'replay' });
    },
    async startReplay(req) {
      const s = get();
      const body: StartReplayBody =
        req.kind === 'unsaved'
          ? { fromVersion: s.base.version, graph: core.graphToSave(), days: req.days, limit: req.limit }
          : { fromVersion: req.from, toVersion: req.to, days: req.days, limit: req.limit };
      patch({ starting: true, error: null, job: null });
      set({ tab: 'replay' });
      try {
        const job = await api.startReplay(body);
        patch({ job, starting: false });
        void follow(job.id);
      } catch (err) {
        patch({ starting: false, error: err instanceof Error ? err.message : String(err) });
      }
    },
    async cancelReplay() {
      const job = get().whatIf.job;
      if (!job || job.status !== 'running') return;
      patch({ cancelling: true });
      try {
        // The follower sees it end and reads the calls replayed so far.
        patch({ job: await api.cancelReplay(job.id) });
      } catch (err) {
        patch({ cancelling: false, error: err instanceof Error ? err.message : String(err) });
      }
    },
    clearReplay() {
      patch({ job: null, error: null, starting: false, cancelling: false });
    },
  };
};
