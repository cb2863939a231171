/**
 * The saving slice: the stored version the edits started from, the save itself (one request,
 * api/save-plan.ts), the impact question asked before a save that changes what runs, the
 * server's refusals shown on their steps, and the choices after someone else saved first.
 */
import { ApiError } from '../../api/client';
import { sendSavePlan } from '../../api/save-plan';
import type { ImpactReport, Workflow } from '../../api/types';
import { diffGraphs, type GraphDiff } from '../../model/diff';
import { graphFromWorkflow } from '../../model/flow';
import { IMPACT_NONE, meetsAnything, runChanges, type RunChange } from '../../model/impact';
import { describePlan, planSave, toGraphBody, type SavePlan } from '../../model/pending';
import type { Graph } from '../../model/types';
import { isStepNode } from '../../model/types';
import type { Slice, Snapshot } from '../editor-core';

export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  /** reading what the change would affect (POST …/impact) before saving */
  | { kind: 'checking' }
  | { kind: 'saved'; message: string }
  | { kind: 'error'; message: string };

export interface ConflictState {
  latest: Workflow;
  /** what the other writer changed: stored version we started from -> latest */
  theirs: GraphDiff;
  /** what we changed: stored version we started from -> our working graph */
  mine: GraphDiff;
  plan: SavePlan;
  /** our change is one append, delete or merge, which can be sent again on top of the latest */
  rebasable: boolean;
}

/**
 * A save that changes what runs, where the change meets something (calls of the last 7 days in a
 * changed outcome, runs in flight, leads waiting in the cadence), waits for the admin to see it:
 * the changes (computed here), and what the server says they affect. Confirm saves, cancel keeps
 * editing. When the server cannot say, the admin is asked too.
 */
export interface ImpactPrompt {
  plan: SavePlan;
  changes: RunChange[];
  report: { state: 'done'; value: ImpactReport } | { state: 'error'; message: string };
}

export interface SavingSlice {
  base: Workflow;
  baseGraph: Graph;
  status: SaveStatus;
  /** the server's (or a local) refusal, on the step it names */
  errors: Record<string, string>;
  conflict: ConflictState | null;
  impact: ImpactPrompt | null;

  isDirty(): boolean;
  savePlan(): SavePlan;
  /** Saves; a change to what runs first shows its impact (`confirmed`: the admin already saw it). */
  save(opts?: { confirmed?: boolean }): Promise<void>;
  confirmImpact(): Promise<void>;
  cancelImpact(): void;
  resolveConflict(choice: 'reload' | 'overwrite' | 'rebase' | 'cancel'): Promise<void>;
}

/** Which step a server message names: the first node id it mentions, e.g. `nodes[2] (n3).config.body`. */
export function nodeNamedIn(message: string, ids: readonly string[]): string | null {
  const known = new Set(ids);
  for (const m of message.matchAll(/[A-Za-z0-9_-]+/g)) if (known.has(m[0])) return m[0];
  return null;
}

export const savingSlice: Slice<SavingSlice, [initial: Workflow]> = (set, get, core, initial) => {
  const { graph, adopt, refuse, graphToSave, readOnly } = core;
  const api = core.deps.api;

  const failed = async (err: unknown, plan: SavePlan) => {
    const s = get();
    if (err instanceof ApiError && err.status === 409) {
      let latest: Workflow;
      try {
        latest = await api.get();
      } catch (e) {
        return refuse(e);
      }
      if (latest.version !== s.base.version) {
        const latestGraph = graphFromWorkflow(latest);
        set({
          status: { kind: 'error', message: `Version conflict: someone saved version ${latest.version} while you were editing version ${s.base.version}.` },
          conflict: {
            latest,
            theirs: diffGraphs(s.baseGraph, latestGraph),
            mine: diffGraphs(s.baseGraph, graph()),
            plan,
            rebasable: plan.kind === 'append' || plan.kind === 'delete' || plan.kind === 'patch',
          },
        });
        return;
      }
    }
    if (err instanceof ApiError && (err.status === 400 || err.status === 409 || err.status === 404)) {
      const nodeId = nodeNamedIn(err.message, s.nodes.filter(isStepNode).map((n) => n.id));
      set({
        status: { kind: 'error', message: err.message },
        ...(nodeId && { errors: { ...s.errors, [nodeId]: err.message } }),
      });
      if (nodeId) get().focusNode(nodeId);
      get().notify(`Not saved: ${err.message}`);
      return;
    }
    refuse(err);
  };

  /** Sends the save request for the logged edits, on the stored version they started from. */
  const send = async (plan: SavePlan, note = '') => {
    set({ status: { kind: 'saving' } });
    try {
      const w = await sendSavePlan(api, plan, get().base.version, get().base);
      adopt(w, `Saved version ${w.version} (${describePlan(plan)})${note}`);
    } catch (err) {
      await failed(err, plan);
    }
  };

  return {
    base: initial,
    baseGraph: graphFromWorkflow(initial),
    status: { kind: 'idle' },
    errors: {},
    conflict: null,
    impact: null,

    isDirty() {
      return get().ops.length > 0;
    },
    savePlan() {
      const s = get();
      return planSave(s.ops, graphToSave(), s.baseGraph);
    },
    async save(opts = {}) {
      const s = get();
      if (s.status.kind === 'saving' || s.status.kind === 'checking' || s.impact || s.conflict || readOnly()) return;
      const plan = get().savePlan();
      if (plan.kind === 'none') {
        set({ ops: [], status: { kind: 'saved', message: 'Nothing to save' } });
        return;
      }
      const working = graphToSave();
      // Moves, renames and drafts change nothing that runs: saved at once.
      const changes = opts.confirmed ? [] : runChanges(s.baseGraph, working);
      if (changes.length === 0) return send(plan);
      // What the change would meet, before it is saved.
      set({ status: { kind: 'checking' } });
      const ops = s.ops;
      let report: ImpactReport;
      try {
        report = await api.impact(toGraphBody(working));
      } catch (err) {
        if (get().ops !== ops) return set({ status: { kind: 'idle' } });
        // A graph the server will not take: saving says why, on the step it names.
        if (err instanceof ApiError && err.status === 400) return send(plan);
        const message = err instanceof Error ? err.message : String(err);
        set({ status: { kind: 'idle' }, impact: { plan, changes, report: { state: 'error', message } } });
        return;
      }
      // Edited meanwhile: this save is stale; the next one checks again.
      if (get().ops !== ops) return set({ status: { kind: 'idle' } });
      // Nothing to meet (no recent calls in a changed outcome, no run in flight, no waiting lead): no question to ask.
      if (!meetsAnything(report)) return send(plan, IMPACT_NONE);
      set({ status: { kind: 'idle' }, impact: { plan, changes, report: { state: 'done', value: report } } });
    },
    async confirmImpact() {
      const prompt = get().impact;
      if (!prompt) return;
      set({ impact: null });
      await send(prompt.plan);
    },
    cancelImpact() {
      set({ impact: null, status: { kind: 'idle' } });
    },
    async resolveConflict(choice) {
      const s = get();
      const c = s.conflict;
      if (!c) return;
      if (choice === 'cancel') return set({ conflict: null });
      if (choice === 'reload') {
        // Our edits stay one undo away.
        const mine: Snapshot = { graph: graph(), pinned: s.pinned, ops: [{ kind: 'graph', what: 'discarded edits' }] };
        adopt(c.latest, `Reloaded version ${c.latest.version}; Undo brings your changes back as a draft.`);
        set((x) => ({ past: [...x.past, mine], future: [] }));
        return;
      }
      set({ status: { kind: 'saving' }, conflict: null });
      try {
        const plan: SavePlan = choice === 'overwrite' ? { kind: 'put', graph: toGraphBody(graphToSave()) } : c.plan;
        const w = await sendSavePlan(api, plan, c.latest.version, get().base);
        adopt(w, choice === 'overwrite' ? `Overwrote with your version: saved version ${w.version}` : `Applied your change on top of version ${c.latest.version}: saved version ${w.version}`);
      } catch (err) {
        await failed(err, c.plan);
      }
    },
  };
};
