/**
 * What the editor store's slices share: showing a graph (lanes, warnings, handles), making an
 * undoable edit, adopting a stored version, refusing an action with a message. Each slice
 * receives one `Core` made for its store; none of this is state of its own.
 */
import type { StoreApi } from 'zustand/vanilla';
import { layoutGraph } from '../../../engine/graph/layout';
import { campaignWarningContext, computeWarnings } from '../../../engine/graph/warnings';
import type { Workflow, Warning } from '../api/types';
import { buildEdges, buildNodes, graphFromFlow, graphFromWorkflow, laneList, handlesInUse, outcomesOf, pinnedOf } from '../model/flow';
import { recordOp, type PendingOp } from '../model/pending';
import type { XY } from '../model/layout';
import type { Disposition, Graph } from '../model/types';
import { isStepNode } from '../model/types';
import type { EditorDeps, EditorState } from './editor-store';

export type SetState = StoreApi<EditorState>['setState'];
export type GetState = () => EditorState;

/** The working graph at one moment, as undo and redo keep it. */
export interface Snapshot {
  graph: Graph;
  pinned: ReadonlySet<string>;
  ops: PendingOp[];
}

/** How many edits undo remembers. */
const UNDO_DEPTH = 200;

export function createCore(set: SetState, get: GetState, deps: EditorDeps) {
  /** the outcomes the agent can emit, canonical order: the lanes and the warnings' rule */
  const outcomes: Disposition[] = outcomesOf(deps.agent);

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
    return computeWarnings(g as never, { emittable: outcomes, ...fromCampaign }) as Warning[];
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
    const nodeList = buildNodes(g, laneList(outcomes, g), s.nodes, drawn);
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

  const markSelected = (id: string | null) => {
    set((s) => ({
      selectedId: id,
      nodes: s.nodes.map((n) => (isStepNode(n) && !!n.selected !== (n.id === id) ? { ...n, selected: n.id === id } : n)),
    }));
  };

  /** The state now, as an undo step. */
  const snapshot = (ops = get().ops): Snapshot => ({ graph: graph(), pinned: get().pinned, ops });

  /** Remembers `snap` as the state before an edit; a new edit forgets what could be redone. */
  const remember = (snap: Snapshot): Pick<EditorState, 'past' | 'future'> => ({ past: [...get().past.slice(-(UNDO_DEPTH - 1)), snap], future: [] });

  /** One undoable edit: remember the state before it, show the new graph, log what it was. */
  const edit = (next: Graph, op: PendingOp, opts: { pinned?: ReadonlySet<string>; select?: string | null } = {}) => {
    const s = get();
    if (s.preview) return;
    const nextOps = recordOp(s.ops, op);
    const errors = { ...s.errors };
    // An edit of a step clears the refusal shown on it; the next save will say again if need be.
    const touched = op.kind === 'append' || op.kind === 'patch' ? op.nodeIds : op.kind === 'delete' ? [op.nodeId] : [];
    for (const id of touched) delete errors[id];
    show(next, opts.pinned ?? s.pinned, {
      ops: nextOps,
      ...remember(snapshot()),
      errors,
      status: { kind: 'idle' },
      ...(opts.select !== undefined && { selectedId: opts.select }),
    });
    if (opts.select !== undefined) markSelected(opts.select);
  };

  /** Shows an undo or redo step. */
  const restore = (snap: Snapshot, stacks: Pick<EditorState, 'past' | 'future'>) => {
    show(snap.graph, snap.pinned, { ...stacks, ops: snap.ops, status: { kind: 'idle' } });
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

  /** The change is refused while an older version is shown read-only. */
  const readOnly = () => {
    const preview = get().preview;
    if (!preview) return false;
    get().notify(`Version ${preview.version} is shown read-only. Go back to the current version to edit.`);
    return true;
  };

  /** A new step's or a form's request to take the keyboard: each request is a new number. */
  const nextFocus = (nodeId: string, target: 'node' | 'form') => ({ nodeId, seq: (get().focusRequest?.seq ?? 0) + 1, target });

  return { deps, outcomes, graph, warningsFor, byNode, show, markSelected, snapshot, remember, edit, restore, refuse, adopt, graphToSave, readOnly, nextFocus };
}

export type Core = ReturnType<typeof createCore>;

/** A slice of the editor's state: its fields and actions, made with the store's set/get and the shared core. */
export type Slice<T, Extra extends unknown[] = []> = (set: SetState, get: GetState, core: Core, ...extra: Extra) => T;
