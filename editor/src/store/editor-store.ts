/**
 * The editor's typed store: the working graph as React Flow nodes and edges, the stored version it
 * started from, unsaved edits, undo/redo, and every action the canvas and panels call. A factory
 * (one store per open workflow; tests and two editors on a page each get their own) exposed through
 * a React context (store/context.tsx). Graph logic lives in model/; this only sequences it.
 */
import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { createStore } from 'zustand/vanilla';
import { layoutGraph } from '../../../engine/graph/layout';
import { campaignWarningContext, computeWarnings } from '../../../engine/graph/warnings';
import { ApiError } from '../api/client';
import type { WorkflowApi, WorkflowTarget } from '../api/endpoints';
import type { Agent, BusinessDiff, Campaign, Execution, ImpactReport, TestRunBody, Warning, Workflow } from '../api/types';
import type { CrmStore } from './crm-store';
import { diffGraphs, type GraphDiff } from '../model/diff';
import { buildEdges, buildNodes, graphFromFlow, graphFromWorkflow, handlesInUse, laneList, pinnedOf, predecessorOf } from '../model/flow';
import * as ops from '../model/graph-ops';
import { EditRefusal, type Clipboard } from '../model/graph-ops';
import { layoutWorkflow, offGrid, type LayoutInput, type LayoutResult, type XY } from '../model/layout';
import { describePlan, planSave, recordOp, toGraphBody, type PendingOp, type SavePlan } from '../model/pending';
import { IMPACT_NONE, meetsAnything, runChanges, type RunChange } from '../model/impact';
import { runView, type RunView } from '../model/run';
import type { AppEdge, AppNode, Graph, InsertPoint, NodeType } from '../model/types';
import { isStepNode, laneNodeId, LANE_PREFIX, ORPHAN_LANE } from '../model/types';

export type Tab = 'node' | 'warnings' | 'digest' | 'history' | 'runs';

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

interface Snapshot {
  graph: Graph;
  pinned: ReadonlySet<string>;
  ops: PendingOp[];
}

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

/** A dialog over the editor: the test-run form, or the confirmation of a restore (with its diff). */
export type Dialog = { kind: 'test-run' } | { kind: 'restore'; version: number } | null;

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

/** An older version shown read-only on the canvas, in a store of its own (the working graph is untouched). */
export interface Preview {
  version: number;
  workflow: Workflow;
  store: EditorStore;
}

/** How often a run still in progress is read again. */
export const RUN_POLL_MS = 400;
/** After this long a run is no longer watched (Refresh in the Runs tab reads it again). */
const RUN_WATCH_MS = 180_000;

export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  /** reading what the change would affect (POST …/impact) before saving */
  | { kind: 'checking' }
  | { kind: 'saved'; message: string }
  | { kind: 'error'; message: string };

export interface EditorState {
  deps: EditorDeps;
  base: Workflow;
  baseGraph: Graph;
  serverWarnings: Warning[];

  nodes: AppNode[];
  edges: AppEdge[];
  entries: Record<string, string>;
  pinned: ReadonlySet<string>;
  ops: PendingOp[];
  past: Snapshot[];
  future: Snapshot[];

  warnings: Warning[];
  /** warning messages per step, joined by newlines */
  warningsByNode: Record<string, string>;
  /** per step, the source handles that already lead somewhere ('-' is the unnamed one), joined by "|" */
  handlesInUse: Record<string, string>;
  /** the server's (or a local) refusal, on the step it names */
  errors: Record<string, string>;
  status: SaveStatus;
  conflict: ConflictState | null;
  run: RunView | null;
  dialog: Dialog;
  impact: ImpactPrompt | null;
  preview: Preview | null;
  /** bumped whenever the layout must be recomputed */
  layoutRev: number;
  /** bumped each time a layout result is applied */
  layoutApplied: number;
  /** the `layoutRev` the nodes were last laid out for */
  laidOutRev: number;
  laidOut: boolean;
  tab: Tab;
  selectedId: string | null;
  addMenu: { at: InsertPoint; label: string } | null;
  /** `form`: a step just added, whose form should take the keyboard */
  focusRequest: { nodeId: string; seq: number; target: 'node' | 'form' } | null;
  notice: { text: string; seq: number } | null;

  // canvas
  onNodesChange(changes: NodeChange<AppNode>[]): void;
  onEdgesChange(changes: EdgeChange<AppEdge>[]): void;
  onConnect(c: Connection): void;
  beginDrag(): void;
  endDrag(ids: string[]): void;
  layoutInput(): LayoutInput;
  applyLayout(result: LayoutResult, rev: number): void;
  autoLayout(): void;

  // editing
  select(id: string | null): void;
  focusNode(id: string): void;
  setTab(tab: Tab): void;
  openAddMenu(at: InsertPoint, label: string): void;
  closeAddMenu(): void;
  addNode(type: NodeType, at: InsertPoint): string | null;
  updateNode(id: string, change: { label?: string; config: Record<string, unknown> }): void;
  deleteNode(id: string): void;
  deleteSelection(): void;
  undo(): void;
  redo(): void;
  copy(): void;
  paste(): void;

  // saving and history
  isDirty(): boolean;
  savePlan(): SavePlan;
  /** Saves; a change to what runs first shows its impact (`confirmed`: the admin already saw it). */
  save(opts?: { confirmed?: boolean }): Promise<void>;
  confirmImpact(): Promise<void>;
  cancelImpact(): void;
  resolveConflict(choice: 'reload' | 'overwrite' | 'rebase' | 'cancel'): Promise<void>;
  restoreVersion(n: number): Promise<void>;
  /** What changed from one version to another (cached: versions never change). */
  versionDiff(from: number, to: number): Promise<BusinessDiff>;
  openPreview(version: number): Promise<void>;
  closePreview(): void;
  applyTemplate(templateId: string, name: string): Promise<void>;
  openDialog(d: Dialog): void;
  closeDialog(): void;
  /** Starts a test run of the stored version and paints it as it goes; answers an error to show in the form. */
  startTestRun(body: TestRunBody): Promise<string | null>;
  openRun(executionId: string | null): Promise<void>;
  notify(text: string): void;
}

export type EditorStore = ReturnType<typeof createEditorStore>;

const stepIds = (nodes: readonly AppNode[]) => nodes.filter(isStepNode).map((n) => n.id);

/** Which step a server message names: the first node id it mentions, e.g. `nodes[2] (n3).config.body`. */
export function nodeNamedIn(message: string, ids: readonly string[]): string | null {
  const known = new Set(ids);
  for (const m of message.matchAll(/[A-Za-z0-9_-]+/g)) if (known.has(m[0])) return m[0];
  return null;
}

const localClipboard = (() => {
  let c: Clipboard | null = null;
  return { read: () => c, write: (x: Clipboard) => void (c = x) };
})();

export function createEditorStore(deps: EditorDeps, initial: Workflow) {
  const clipboard = deps.clipboard ?? localClipboard;

  return createStore<EditorState>()((set, get) => {
    const graph = (): Graph => {
      const s = get();
      return graphFromFlow(s.nodes, s.edges, s.entries);
    };

    const warningsFor = (g: Graph, dirty: boolean, server: Warning[]): Warning[] => {
      if (!dirty) return server;
      const campaign = deps.campaign;
      // A key that may not read the campaign keeps what the server last said of it.
      const fromCampaign = campaign
        ? campaignWarningContext(campaign)
        : { hasCallerId: !server.some((w) => w.code === 'SMS_WITHOUT_CALLER_ID'), hasCalendar: !server.some((w) => w.code === 'APPOINTMENT_WITHOUT_CALENDAR') };
      return computeWarnings(g as never, { emittable: deps.agent.outcomes, ...fromCampaign }) as Warning[];
    };

    const byNode = (ws: readonly Warning[]) => {
      const out: Record<string, string> = {};
      for (const w of ws) if (w.nodeId) out[w.nodeId] = out[w.nodeId] ? `${out[w.nodeId]}\n${w.message}` : w.message;
      return out;
    };

    /** Shows a graph: keeps where unpinned steps are drawn now (the layout will settle them), rebuilds lanes. */
    const show = (g: Graph, pinned: ReadonlySet<string>, extra: Partial<EditorState> = {}) => {
      const s = get();
      const drawn = new Map<string, XY>();
      for (const n of s.nodes) if (isStepNode(n) && !pinned.has(n.id)) drawn.set(n.id, n.position);
      const nodeList = buildNodes(g, laneList(deps.agent.outcomes, g), s.nodes, drawn);
      const ids = new Set(g.nodes.map((n) => n.id));
      const opsNow = extra.ops ?? s.ops;
      const serverWarnings = extra.serverWarnings ?? s.serverWarnings;
      const warnings = warningsFor(g, opsNow.length > 0, serverWarnings);
      set({
        nodes: nodeList,
        edges: buildEdges(g, s.edges),
        entries: { ...g.dispositionEntries },
        handlesInUse: handlesInUse(g),
        pinned,
        warnings,
        warningsByNode: byNode(warnings),
        selectedId: s.selectedId && ids.has(s.selectedId) ? s.selectedId : null,
        layoutRev: s.layoutRev + 1,
        ...extra,
      });
    };

    /** One undoable edit: remember the state before it, show the new graph, log what it was. */
    const edit = (next: Graph, op: PendingOp, opts: { pinned?: ReadonlySet<string>; select?: string | null } = {}) => {
      const s = get();
      if (s.preview) return;
      const before: Snapshot = { graph: graph(), pinned: s.pinned, ops: s.ops };
      const nextOps = recordOp(s.ops, op);
      const errors = { ...s.errors };
      // An edit of a step clears the refusal shown on it; the next save will say again if need be.
      const touched = op.kind === 'append' || op.kind === 'patch' ? op.nodeIds : op.kind === 'delete' ? [op.nodeId] : [];
      for (const id of touched) delete errors[id];
      show(next, opts.pinned ?? s.pinned, {
        ops: nextOps,
        past: [...s.past.slice(-199), before],
        future: [],
        errors,
        status: { kind: 'idle' },
        ...(opts.select !== undefined && { selectedId: opts.select }),
      });
      if (opts.select !== undefined) markSelected(opts.select);
    };

    const markSelected = (id: string | null) => {
      set((s) => ({
        selectedId: id,
        nodes: s.nodes.map((n) => (isStepNode(n) && !!n.selected !== (n.id === id) ? { ...n, selected: n.id === id } : n)),
      }));
    };

    const refuse = (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      set({ status: { kind: 'error', message } });
      get().notify(message);
    };

    /** Takes a stored workflow as the new starting point. Undo history stays: older states become unsaved edits. */
    const adopt = (w: Workflow, message: string | null) => {
      const g = graphFromWorkflow(w);
      const s = get();
      const asEdit = (snap: Snapshot): Snapshot => ({ ...snap, ops: [{ kind: 'graph', what: 'undo past a save' }] });
      show(g, pinnedOf(g), {
        base: w,
        baseGraph: g,
        serverWarnings: w.warnings ?? [],
        ops: [],
        past: s.past.map(asEdit),
        future: s.future.map(asEdit),
        errors: {},
        conflict: null,
        status: message ? { kind: 'saved', message } : { kind: 'idle' },
      });
    };

    /** The graph to send: pinned steps where the admin put them, every other step on the server's grid. */
    const graphToSave = (): Graph => {
      const s = get();
      const g = graph();
      const grid = new Map(layoutGraph(g as never, { all: true }).nodes.map((n) => [n.id, n.position]));
      return { ...g, nodes: g.nodes.map((n) => (s.pinned.has(n.id) ? n : { ...n, position: grid.get(n.id) ?? n.position })) };
    };

    /** Where a new step is first drawn (the layout settles it next frame): just below what it follows. */
    const nearAnchor = (at: InsertPoint): XY => {
      const s = get();
      const anchorId = at.kind === 'lane' ? (ops.chainTail(graph(), at.lane) ?? laneNodeId(at.lane)) : at.kind === 'after' ? at.nodeId : s.edges.find((e) => e.id === at.edgeId)?.source;
      const anchor = s.nodes.find((n) => n.id === anchorId);
      return anchor ? { x: anchor.position.x, y: anchor.position.y + 120 } : { x: 0, y: 0 };
    };

    const execute = (plan: SavePlan, version: number): Promise<Workflow> => {
      const api = get().deps.api;
      switch (plan.kind) {
        case 'append':
          return api.append(plan.lane, plan.nodes, version);
        case 'delete':
          return api.remove(plan.nodeId, version);
        case 'patch':
          return api.patch(plan.nodes, version);
        case 'put':
          return api.put(plan.graph, version);
        case 'none':
          return Promise.resolve(get().base);
      }
    };

    const failed = async (err: unknown, plan: SavePlan) => {
      const s = get();
      if (err instanceof ApiError && err.status === 409) {
        let latest: Workflow;
        try {
          latest = await s.deps.api.get();
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
        const nodeId = nodeNamedIn(err.message, stepIds(s.nodes));
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

    /** Reads a run again until it is no longer running (or another run is opened, or it takes too long). */
    const watchRun = async (id: string) => {
      const until = Date.now() + RUN_WATCH_MS;
      while (Date.now() < until) {
        await new Promise((r) => setTimeout(r, RUN_POLL_MS));
        if (get().run?.execution.id !== id) return;
        let e: Execution;
        try {
          e = await get().deps.api.execution(id);
        } catch {
          continue; // a blip: read again next time
        }
        if (get().run?.execution.id !== id) return;
        set({ run: runView(e, graph()) });
        if (e.status !== 'running') return;
      }
      get().notify('The run is still going; Refresh in the Runs tab reads it again.');
    };

    const diffs = new Map<string, Promise<BusinessDiff>>();

    /** Sends the save request for the logged edits, on the stored version they started from. */
    const send = async (plan: SavePlan, note = '') => {
      set({ status: { kind: 'saving' } });
      try {
        const w = await execute(plan, get().base.version);
        adopt(w, `Saved version ${w.version} (${describePlan(plan)})${note}`);
      } catch (err) {
        await failed(err, plan);
      }
    };

    /** The change is refused while an older version is shown read-only. */
    const readOnly = () => {
      if (!get().preview) return false;
      get().notify(`Version ${get().preview!.version} is shown read-only. Go back to the current version to edit.`);
      return true;
    };

    const restore = (snap: Snapshot, stacks: Pick<EditorState, 'past' | 'future'>) => {
      show(snap.graph, snap.pinned, { ...stacks, ops: snap.ops, status: { kind: 'idle' } });
    };

    /** a pointer drag is under way (its position changes are not keyboard nudges) */
    let dragging = false;

    const g0 = graphFromWorkflow(initial);
    const lanes0 = laneList(deps.agent.outcomes, g0);
    const warnings0 = initial.warnings ?? [];

    return {
      deps,
      base: initial,
      baseGraph: g0,
      serverWarnings: warnings0,
      nodes: buildNodes(g0, lanes0, []),
      edges: buildEdges(g0, []),
      entries: { ...g0.dispositionEntries },
      handlesInUse: handlesInUse(g0),
      pinned: pinnedOf(g0),
      ops: [],
      past: [],
      future: [],
      warnings: warnings0,
      warningsByNode: byNode(warnings0),
      errors: {},
      status: { kind: 'idle' },
      conflict: null,
      run: null,
      dialog: null,
      impact: null,
      preview: null,
      layoutRev: 1,
      layoutApplied: 0,
      laidOutRev: 0,
      laidOut: false,
      tab: 'warnings',
      selectedId: null,
      addMenu: null,
      focusRequest: null,
      notice: null,

      onNodesChange(changes) {
        // Removal goes through deleteNode (re-link); lanes never change.
        const kept = changes.filter((c) => c.type !== 'remove' && !('id' in c && c.id.startsWith(LANE_PREFIX) && c.type !== 'dimensions'));
        if (kept.length === 0) return;
        // Arrow keys move a selected step without a drag: the same as a drag, one undo step per press.
        const nudged = dragging ? [] : kept.flatMap((c) => (c.type === 'position' && c.position && !c.dragging ? [c.id] : []));
        if (nudged.length) get().beginDrag();
        set((s) => ({ nodes: applyNodeChanges(kept, s.nodes) }));
        if (nudged.length) get().endDrag(nudged);
        const selected = kept.filter((c) => c.type === 'select');
        if (selected.length) {
          const on = selected.filter((c) => c.type === 'select' && c.selected).at(-1);
          const now = get().nodes.filter((n) => n.selected && isStepNode(n));
          const id = on && 'id' in on ? on.id : (now.at(-1)?.id ?? null);
          set((s) => ({ selectedId: id, ...(id && s.tab !== 'runs' && { tab: 'node' as Tab }) }));
        }
      },
      onEdgesChange(changes) {
        const kept = changes.filter((c) => c.type === 'select');
        if (kept.length) set((s) => ({ edges: applyEdgeChanges(kept, s.edges) }));
      },
      onConnect(c) {
        if (!c.target || c.target.startsWith(LANE_PREFIX)) return;
        try {
          if (c.source.startsWith(LANE_PREFIX)) {
            const lane = c.source.slice(LANE_PREFIX.length);
            edit(ops.setEntry(graph(), lane, c.target), { kind: 'graph', what: `start ${lane} at ${c.target}` });
          } else {
            edit(ops.connect(graph(), c.source, c.sourceHandle ?? undefined, c.target), { kind: 'graph', what: 'connect' });
          }
        } catch (err) {
          refuse(err);
        }
      },
      beginDrag() {
        dragging = true;
        const s = get();
        set({ past: [...s.past.slice(-199), { graph: graph(), pinned: s.pinned, ops: s.ops }], future: [] });
      },
      endDrag(ids) {
        dragging = false;
        const s = get();
        const moved = ids.filter((id) => !id.startsWith(LANE_PREFIX));
        if (moved.length === 0) return;
        const pinned = new Set(s.pinned);
        for (const id of moved) pinned.add(id);
        const g = graph();
        const at = new Map(s.nodes.map((n) => [n.id, n.position]));
        set({
          nodes: s.nodes.map((n) => (moved.includes(n.id) ? { ...n, position: offGrid(n.position, at.get(predecessorOf(g, n.id) ?? '')) } : n)),
          pinned,
          ops: recordOp(s.ops, { kind: 'graph', what: 'move' }),
          layoutRev: s.layoutRev + 1,
          status: { kind: 'idle' },
        });
      },
      layoutInput() {
        const s = get();
        const g = graph();
        const order = new Map<string, number>();
        for (const n of g.nodes) ops.handlesOf(n).forEach((h, i) => order.set(`${n.id}\u0000${h.id ?? ''}`, i));
        return {
          lanes: laneList(deps.agent.outcomes, g)
            .filter((l) => l.lane !== 'ORPHANS')
            .map((l) => ({ id: l.lane, entry: g.dispositionEntries[l.lane] ?? null })),
          nodes: s.nodes.filter(isStepNode).map((n) => ({
            id: n.id,
            ...(n.measured?.width && { width: n.measured.width }),
            ...(n.measured?.height && { height: n.measured.height }),
            position: n.position,
            pinned: s.pinned.has(n.id),
          })),
          edges: g.edges.map((e) => ({ source: e.source, target: e.target, order: order.get(`${e.source}\u0000${e.sourceHandle ?? ''}`) ?? 0 })),
        };
      },
      applyLayout(result, rev) {
        if (rev !== get().layoutRev) return;
        set((s) => ({
          laidOut: true,
          layoutApplied: s.layoutApplied + 1,
          laidOutRev: rev,
          nodes: s.nodes.map((n) => {
            const p = n.type === 'lane' ? result.lanes[n.data.lane] : result.positions[n.id];
            if (!p || (p.x === n.position.x && p.y === n.position.y)) return n;
            return { ...n, position: p };
          }),
        }));
      },
      autoLayout() {
        const s = get();
        if (s.pinned.size === 0) return set({ layoutRev: s.layoutRev + 1 });
        edit(graph(), { kind: 'graph', what: 'auto-layout' }, { pinned: new Set() });
      },

      select(id) {
        markSelected(id);
        if (id) set({ tab: 'node' });
      },
      focusNode(id) {
        markSelected(id);
        set((s) => ({ tab: s.tab === 'runs' ? 'runs' : 'node', focusRequest: { nodeId: id, seq: (s.focusRequest?.seq ?? 0) + 1, target: 'node' } }));
      },
      setTab(tab) {
        set({ tab });
      },
      openAddMenu(at, label) {
        set({ addMenu: { at, label } });
      },
      closeAddMenu() {
        set({ addMenu: null });
      },
      addNode(type, at) {
        try {
          const res = ops.addNode(graph(), at, { type, config: {}, position: nearAnchor(at) });
          const op: PendingOp = res.appendedTo ? { kind: 'append', lane: res.appendedTo, nodeIds: [res.nodeId] } : { kind: 'graph', what: `add ${type}` };
          edit(res.graph, op, { select: res.nodeId });
          set({ addMenu: null, tab: 'node', focusRequest: { nodeId: res.nodeId, seq: (get().focusRequest?.seq ?? 0) + 1, target: 'form' } });
          return res.nodeId;
        } catch (err) {
          refuse(err);
          return null;
        }
      },
      updateNode(id, change) {
        const g = graph();
        const before = g.nodes.find((n) => n.id === id);
        if (!before) return;
        const next = ops.updateNode(g, id, change);
        const rewired = next.edges.length !== g.edges.length;
        edit(next, rewired ? { kind: 'graph', what: `edit ${id}` } : { kind: 'patch', nodeIds: [id] });
      },
      deleteNode(id) {
        try {
          const next = ops.deleteNode(graph(), id);
          edit(next, { kind: 'delete', nodeId: id }, { select: null });
          get().notify(`Deleted ${id}; the chain was re-linked around it.`);
        } catch (err) {
          refuse(err);
        }
      },
      deleteSelection() {
        const s = get();
        const nodes = s.nodes.filter((n) => n.selected && isStepNode(n)).map((n) => n.id);
        const edges = s.edges.filter((e) => e.selected && e.type === 'flow').map((e) => e.id);
        if (nodes.length === 1 && edges.length === 0) return get().deleteNode(nodes[0]!);
        if (nodes.length === 0 && edges.length === 0) return;
        try {
          let g = ops.removeEdges(graph(), new Set(edges));
          for (const id of nodes) g = ops.deleteNode(g, id);
          edit(g, { kind: 'graph', what: 'delete selection' }, { select: null });
        } catch (err) {
          refuse(err);
        }
      },
      undo() {
        const s = get();
        const prev = s.past.at(-1);
        if (!prev) return;
        const now: Snapshot = { graph: graph(), pinned: s.pinned, ops: s.ops };
        restore(prev, { past: s.past.slice(0, -1), future: [...s.future, now] });
      },
      redo() {
        const s = get();
        const next = s.future.at(-1);
        if (!next) return;
        const now: Snapshot = { graph: graph(), pinned: s.pinned, ops: s.ops };
        restore(next, { past: [...s.past, now], future: s.future.slice(0, -1) });
      },
      copy() {
        const s = get();
        const ids = new Set(s.nodes.filter((n) => n.selected && isStepNode(n)).map((n) => n.id));
        if (s.selectedId) ids.add(s.selectedId);
        const c = ops.copyNodes(graph(), ids);
        if (!c) return;
        clipboard.write(c);
        get().notify(`Copied ${c.nodes.length} step${c.nodes.length === 1 ? '' : 's'}.`);
      },
      paste() {
        const c = clipboard.read();
        if (!c) return;
        const s = get();
        try {
          const res = ops.paste(graph(), c, s.selectedId);
          edit(res.graph, { kind: 'graph', what: 'paste' }, { select: res.ids[0] ?? null });
          get().notify(`Pasted ${res.ids.length} step${res.ids.length === 1 ? '' : 's'}${s.selectedId ? ` after ${s.selectedId}` : ''}.`);
        } catch (err) {
          refuse(err);
        }
      },

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
          report = await s.deps.api.impact(toGraphBody(working));
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
          const w = await execute(plan, c.latest.version);
          adopt(w, choice === 'overwrite' ? `Overwrote with your version: saved version ${w.version}` : `Applied your change on top of version ${c.latest.version}: saved version ${w.version}`);
        } catch (err) {
          await failed(err, c.plan);
        }
      },
      async restoreVersion(n) {
        const s = get();
        set({ dialog: null });
        try {
          const v = s.preview?.version === n ? s.preview.workflow : await s.deps.api.version(n);
          set({ preview: null });
          const g = graphFromWorkflow(v);
          edit(g, { kind: 'graph', what: `restore version ${n}` }, { pinned: pinnedOf(g) });
          // The restore dialog showed what it changes.
          await get().save({ confirmed: true });
          const after = get();
          if (after.status.kind === 'saved') set({ status: { kind: 'saved', message: `Restored version ${n} as version ${after.base.version}` } });
        } catch (err) {
          refuse(err);
        }
      },
      versionDiff(from, to) {
        const key = `${from}:${to}`;
        let d = diffs.get(key);
        if (!d) {
          d = get().deps.api.diff(from, to);
          diffs.set(key, d);
          d.catch(() => diffs.delete(key)); // a failed read is tried again next time
        }
        return d;
      },
      async openPreview(version) {
        const s = get();
        if (version === s.base.version && !s.preview) return;
        try {
          const workflow = await s.deps.api.version(version);
          // Laid out before it is drawn, like the current version; warnings of an old version are not shown.
          const store = await openEditorStore(s.deps, { ...workflow, warnings: [] });
          set({ preview: { version, workflow, store }, run: null, addMenu: null, tab: 'history' });
        } catch (err) {
          refuse(err);
        }
      },
      closePreview() {
        set({ preview: null });
      },
      async applyTemplate(templateId, name) {
        const s = get();
        if (s.ops.length > 0 || readOnly()) return refuse(new Error('Save or undo your changes before starting from a template.'));
        set({ status: { kind: 'saving' } });
        try {
          const w = await s.deps.api.applyTemplate(templateId, s.base.version);
          adopt(w, `Started from “${name}”: saved version ${w.version}`);
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) {
            // Someone saved first: show what is stored now; nothing was applied.
            try {
              const latest = await s.deps.api.get();
              adopt(latest, null);
              set({ status: { kind: 'error', message: `Version ${latest.version} was saved meanwhile; the template was not applied.` } });
              return;
            } catch (e) {
              return refuse(e);
            }
          }
          refuse(err);
        }
      },
      openDialog(d) {
        if (d?.kind === 'test-run' && readOnly()) return;
        set({ dialog: d, addMenu: null });
      },
      closeDialog() {
        set({ dialog: null });
      },
      async startTestRun(body) {
        try {
          const e = await get().deps.api.testRun(body);
          set({ run: runView(e, graph()), tab: 'runs', dialog: null });
          void watchRun(e.id);
          return null;
        } catch (err) {
          return err instanceof Error ? err.message : String(err);
        }
      },
      async openRun(executionId) {
        if (!executionId) return set({ run: null });
        try {
          const e: Execution = await get().deps.api.execution(executionId);
          set({ run: runView(e, graph()), tab: 'runs' });
          if (e.status === 'running') void watchRun(e.id);
        } catch (err) {
          refuse(err);
        }
      },
      notify(text) {
        set((s) => ({ notice: { text, seq: (s.notice?.seq ?? 0) + 1 } }));
      },
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
