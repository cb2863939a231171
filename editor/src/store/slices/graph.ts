/**
 * The graph slice: the working graph as React Flow nodes and edges (lanes included), where each
 * step is drawn and which ones a person placed, the log of unsaved edits with undo and redo,
 * every edit the canvas and forms make, the clipboard, and the automatic layout's bookkeeping.
 */
import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import type { Workflow, Warning } from '../../api/types';
import { buildEdges, buildNodes, graphFromWorkflow, handlesInUse, laneList, pinnedOf, predecessorOf } from '../../model/flow';
import * as ops from '../../model/graph-ops';
import type { Clipboard } from '../../model/graph-ops';
import { offGrid, type LayoutInput, type LayoutResult, type XY } from '../../model/layout';
import { recordOp, type PendingOp } from '../../model/pending';
import type { AppEdge, AppNode, Disposition, InsertPoint, NodeType } from '../../model/types';
import { isStepNode, laneNodeId, LANE_PREFIX } from '../../model/types';
import type { Slice, Snapshot } from '../editor-core';
import type { Tab } from './view';

export interface GraphSlice {
  /** the outcomes the agent can emit, canonical order: one lane each */
  outcomes: readonly Disposition[];
  nodes: AppNode[];
  edges: AppEdge[];
  entries: Record<string, string>;
  /** steps a person placed (their positions are kept and saved) */
  pinned: ReadonlySet<string>;
  /** unsaved edits, in order (model/pending.ts turns them into one request) */
  ops: PendingOp[];
  past: Snapshot[];
  future: Snapshot[];
  /** the server's warnings for the stored version */
  serverWarnings: Warning[];
  /** the warnings shown: the server's, or the same rules applied to the unsaved graph */
  warnings: Warning[];
  /** warning messages per step, joined by newlines */
  warningsByNode: Record<string, string>;
  /** per step, the source handles that already lead somewhere ('-' is the unnamed one), joined by "|" */
  handlesInUse: Record<string, string>;
  /** bumped whenever the layout must be recomputed */
  layoutRev: number;
  /** bumped each time a layout result is applied */
  layoutApplied: number;
  /** the `layoutRev` the nodes were last laid out for */
  laidOutRev: number;
  laidOut: boolean;

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
  addNode(type: NodeType, at: InsertPoint): string | null;
  updateNode(id: string, change: { label?: string; config: Record<string, unknown> }): void;
  deleteNode(id: string): void;
  deleteSelection(): void;
  undo(): void;
  redo(): void;
  copy(): void;
  paste(): void;
}

const localClipboard = (() => {
  let c: Clipboard | null = null;
  return { read: () => c, write: (x: Clipboard) => void (c = x) };
})();

export const graphSlice: Slice<GraphSlice, [initial: Workflow]> = (set, get, core, initial) => {
  const { graph, edit, restore, refuse, snapshot, remember } = core;
  const clipboard = core.deps.clipboard ?? localClipboard;
  /** a pointer drag is under way (its position changes are not keyboard nudges) */
  let dragging = false;

  /** Where a new step is first drawn (the layout settles it next frame): just below what it follows. */
  const nearAnchor = (at: InsertPoint): XY => {
    const s = get();
    const anchorId = at.kind === 'lane' ? (ops.chainTail(graph(), at.lane) ?? laneNodeId(at.lane)) : at.kind === 'after' ? at.nodeId : s.edges.find((e) => e.id === at.edgeId)?.source;
    const anchor = s.nodes.find((n) => n.id === anchorId);
    return anchor ? { x: anchor.position.x, y: anchor.position.y + 120 } : { x: 0, y: 0 };
  };

  const g0 = graphFromWorkflow(initial);
  const warnings0 = initial.warnings ?? [];

  return {
    outcomes: core.outcomes,
    nodes: buildNodes(g0, laneList(core.outcomes, g0), []),
    edges: buildEdges(g0, []),
    entries: { ...g0.dispositionEntries },
    handlesInUse: handlesInUse(g0),
    pinned: pinnedOf(g0),
    ops: [],
    past: [],
    future: [],
    serverWarnings: warnings0,
    warnings: warnings0,
    warningsByNode: core.byNode(warnings0),
    layoutRev: 1,
    layoutApplied: 0,
    laidOutRev: 0,
    laidOut: false,

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
      set(remember(snapshot()));
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
        lanes: laneList(core.outcomes, g)
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

    addNode(type, at) {
      try {
        const res = ops.addNode(graph(), at, { type, config: {}, position: nearAnchor(at) });
        const op: PendingOp = res.appendedTo ? { kind: 'append', lane: res.appendedTo, nodeIds: [res.nodeId] } : { kind: 'graph', what: `add ${type}` };
        edit(res.graph, op, { select: res.nodeId });
        set({ addMenu: null, tab: 'node', focusRequest: core.nextFocus(res.nodeId, 'form') });
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
      restore(prev, { past: s.past.slice(0, -1), future: [...s.future, snapshot()] });
    },
    redo() {
      const s = get();
      const next = s.future.at(-1);
      if (!next) return;
      restore(next, { past: [...s.past, snapshot()], future: s.future.slice(0, -1) });
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
  };
};
