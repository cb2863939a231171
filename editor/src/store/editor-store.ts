/**
 * The editor's typed store: one per open workflow (tests and two editors on a page each get
 * their own), exposed through a React context (store/context.tsx). It is made of seven slices,
 * each in its own module under store/slices/:
 *
 * - graph: the working graph as React Flow nodes and edges, layout, edits, undo/redo, clipboard;
 * - saving: the stored version it started from, saves, their impact and version conflicts;
 * - history: older versions shown read-only, restores, diffs, templates;
 * - runs: the run painted on the canvas, test runs;
 * - view: tab, selection, menus, dialogs, notices;
 * - stats: the step statistics shown on the canvas (window, version, figures per step);
 * - replay: a what-if replay of real calls through two graphs, followed while it runs.
 *
 * Graph logic lives in model/ and every request in api/; the slices only sequence them. The
 * helpers several slices share (show a graph, make an undoable edit, adopt a stored version)
 * are in store/editor-core.ts.
 */
import { createStore } from 'zustand/vanilla';
import type { WorkflowApi, WorkflowTarget } from '../api/endpoints';
import type { Agent, Campaign, Workflow } from '../api/types';
import type { CrmStore } from './crm-store';
import type { Clipboard } from '../model/graph-ops';
import { layoutWorkflow } from '../model/layout';
import { ORPHAN_LANE } from '../model/types';
import { createCore } from './editor-core';
import { graphSlice, type GraphSlice } from './slices/graph';
import { historySlice, type HistorySlice } from './slices/history';
import { runsSlice, type RunsSlice } from './slices/runs';
import { savingSlice, type SavingSlice } from './slices/saving';
import { statsSlice, type StatsSlice } from './slices/stats';
import { replaySlice, type ReplaySlice } from './slices/replay';
import { viewSlice, type ViewSlice } from './slices/view';

export { nodeNamedIn, type ConflictState, type ImpactPrompt, type SaveStatus } from './slices/saving';
export type { Preview } from './slices/history';
export type { Dialog, Tab } from './slices/view';
export { RUN_POLL_MS } from '../api/watch-execution';

export interface EditorDeps {
  api: WorkflowApi;
  target: WorkflowTarget;
  agent: Agent;
  /** the campaign record, when the key may read it (caller ID and calendar for warnings) */
  campaign: Campaign | null;
  /** the agent's CRM reads for the forms' pickers, fetched when a form asks */
  crm: CrmStore;
  /** the clipboard shared by editors in this browser */
  clipboard?: { read(): Clipboard | null; write(c: Clipboard): void };
}

export type EditorState = { deps: EditorDeps } & GraphSlice & SavingSlice & HistorySlice & RunsSlice & ViewSlice & StatsSlice & ReplaySlice;

export type EditorStore = ReturnType<typeof createEditorStore>;

export function createEditorStore(deps: EditorDeps, initial: Workflow) {
  return createStore<EditorState>()((set, get) => {
    const core = createCore(set, get, deps);
    return {
      deps,
      ...graphSlice(set, get, core, initial),
      ...savingSlice(set, get, core, initial),
      ...historySlice(set, get, core),
      ...runsSlice(set, get, core),
      ...viewSlice(set, get, core),
      ...statsSlice(set, get, core),
      ...replaySlice(set, get, core),
    };
  });
}

/**
 * A store for a workflow, already laid out: the first layout runs before the canvas is drawn, so
 * React Flow draws each step once, where it belongs, in a view framed from the start (nodes have
 * fixed sizes, so nothing has to be measured first). Later layouts run as the graph changes
 * (hooks/use-auto-layout.ts).
 */
export async function openEditorStore(deps: EditorDeps, initial: Workflow): Promise<EditorStore> {
  const store = createEditorStore(deps, initial);
  const rev = store.getState().layoutRev;
  performance.mark('vc:layout-start');
  const result = await layoutWorkflow(store.getState().layoutInput(), ORPHAN_LANE);
  performance.mark('vc:layout-done');
  store.getState().applyLayout(result, rev);
  return store;
}
