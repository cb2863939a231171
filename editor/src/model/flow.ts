/**
 * Between the API's graph and React Flow's nodes and edges: lanes, entry edges, handle labels.
 * Pure. Unchanged steps keep their object identity, so React Flow re-renders only what changed.
 */
import { Position, type NodeHandle } from '@xyflow/react';
import { DISPOSITIONS, OUTCOMES } from '../../../engine/graph/outcomes';
import { reachable } from '../../../engine/graph/walk';
import type { Agent, Workflow } from '../api/types';
import { handlesOf } from './graph-ops';
import { isServerPlaced, LANE_HEADER_HEIGHT, NODE_HEIGHT, NODE_WIDTH, type XY } from './layout';
import { specOf, summaryOf } from '../nodes/registry';
import type { AppEdge, AppNode, Disposition, EntryEdge, FlowEdge, Graph, GraphNode, LaneData, LaneNode, StepNode } from './types';
import { entryEdgeId, isStepNode, laneNodeId, ORPHAN_LANE } from './types';

export function graphFromWorkflow(w: Pick<Workflow, 'nodes' | 'edges' | 'dispositionEntries'>): Graph {
  const entries: Record<string, string> = {};
  for (const [k, v] of Object.entries(w.dispositionEntries)) if (v) entries[k] = v;
  return {
    nodes: w.nodes.map((n) => ({ id: n.id, type: n.type, ...(n.label ? { label: n.label } : {}), config: (n.config ?? {}) as Record<string, unknown>, position: n.position ?? { x: 0, y: 0 } })),
    edges: w.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, ...(e.sourceHandle ? { sourceHandle: e.sourceHandle } : {}) })),
    dispositionEntries: entries,
  };
}

/** The steps whose stored position a person chose (see model/layout.ts). */
export function pinnedOf(g: Graph): Set<string> {
  const pos = new Map(g.nodes.map((n) => [n.id, n.position]));
  const before = new Map<string, string>();
  for (const e of g.edges) if (!before.has(e.target)) before.set(e.target, e.source);
  return new Set(g.nodes.filter((n) => !isServerPlaced(n.position, pos.get(before.get(n.id) ?? ''))).map((n) => n.id));
}

/** The step drawn before `id` (its first incoming edge), if any. */
export function predecessorOf(g: Graph, id: string): string | undefined {
  return g.edges.find((e) => e.target === id)?.source;
}

export function graphFromFlow(nodes: readonly AppNode[], edges: readonly AppEdge[], entries: Record<string, string>): Graph {
  return {
    nodes: nodes.filter(isStepNode).map((n) => ({
      id: n.id,
      type: n.type,
      ...(n.data.label ? { label: n.data.label } : {}),
      config: n.data.config as Record<string, unknown>,
      position: { x: n.position.x, y: n.position.y },
    })),
    edges: edges.flatMap((e) => (e.type === 'flow' ? [{ id: e.id, source: e.source, target: e.target, ...(e.sourceHandle ? { sourceHandle: e.sourceHandle } : {}) }] : [])),
    dispositionEntries: { ...entries },
  };
}

/** Lanes to show: every outcome the agent can emit, any other outcome that still has a chain, and "Not connected". */
export function laneList(emittable: readonly string[], g: Graph): LaneData[] {
  const lanes: LaneData[] = [];
  for (const d of DISPOSITIONS) {
    const can = emittable.includes(d);
    if (!can && !g.dispositionEntries[d]) continue;
    lanes.push({ lane: d, title: OUTCOMES[d].label, color: OUTCOMES[d].color, emittable: can, empty: !g.dispositionEntries[d] });
  }
  const live = reachable(g as never);
  if (g.nodes.some((n) => !live.has(n.id))) lanes.push({ lane: ORPHAN_LANE, title: 'Not connected', color: '#94a3b8', emittable: true, empty: false });
  return lanes;
}

/*
 * What React Flow would measure, known without measuring: steps and lane headers have fixed sizes
 * (styles.css: `.step` 240x76, a 1 px border and 4 px on the left, its handles placed in its padding
 * box; `.lane` 240x56, its handle placed in the node box) and handles are 9x9, centred on the edge
 * they sit on. Given to React Flow as `measured` and `handles`, a node not drawn yet already has its
 * size and its edges' endpoints, so React Flow draws only the visible part of a large graph (with
 * `onlyRenderVisibleElements` it draws every node it has not measured, i.e. all of them on load,
 * just to measure them) and fitView need not wait for every node to be drawn. Once drawn, a node is
 * measured by React Flow as before; test/e2e/editor-large.test.ts checks these numbers against what
 * the browser measures.
 */
const HANDLE = 9;
const STEP_BORDER = { left: 4, right: 1, top: 1, bottom: 1 };

/** A step's handles as React Flow measures them: "into" on top, one per outgoing handle at the bottom. */
export function stepHandles(node: Pick<GraphNode, 'type' | 'config'>): NodeHandle[] {
  const inner = NODE_WIDTH - STEP_BORDER.left - STEP_BORDER.right;
  const out = handlesOf(node);
  const box = { width: HANDLE, height: HANDLE };
  return [
    { id: null, type: 'target', position: Position.Top, x: STEP_BORDER.left + inner / 2 - HANDLE / 2, y: STEP_BORDER.top - HANDLE / 2, ...box },
    ...out.map((h, i): NodeHandle => ({ id: h.id ?? null, type: 'source', position: Position.Bottom, x: STEP_BORDER.left + (inner * (i + 1)) / (out.length + 1) - HANDLE / 2, y: NODE_HEIGHT - STEP_BORDER.bottom - HANDLE / 2, ...box })),
  ];
}

/** A lane header's one handle (where its chain starts), bottom centre; "Not connected" has none. */
export function laneHandles(lane: string): NodeHandle[] {
  if (lane === ORPHAN_LANE) return [];
  return [{ id: null, type: 'source', position: Position.Bottom, x: NODE_WIDTH / 2 - HANDLE / 2, y: LANE_HEADER_HEIGHT - HANDLE / 2, width: HANDLE, height: HANDLE }];
}

const sameData = (n: StepNode, g: GraphNode) => n.type === g.type && (n.data.label ?? '') === (g.label ?? '') && n.data.config === g.config;

/**
 * React Flow nodes for a graph. `positions` overrides where a step is drawn (the current layout),
 * `prev` supplies measured sizes and selection.
 */
export function buildNodes(g: Graph, lanes: readonly LaneData[], prev: readonly AppNode[], positions: ReadonlyMap<string, XY> = new Map()): AppNode[] {
  const old = new Map(prev.map((n) => [n.id, n]));
  const steps: AppNode[] = g.nodes.map((gn) => {
    const p = old.get(gn.id);
    const position = positions.get(gn.id) ?? gn.position;
    if (p && isStepNode(p) && sameData(p, gn) && p.position.x === position.x && p.position.y === position.y) return p;
    // The size React Flow measures (fixed in styles.css), known before it draws the step.
    const base = p && isStepNode(p) && p.type === gn.type ? { measured: p.measured ?? { width: NODE_WIDTH, height: NODE_HEIGHT }, selected: p.selected } : { measured: { width: NODE_WIDTH, height: NODE_HEIGHT } };
    const ariaLabel = `${specOf(gn.type).title}${gn.label ? ` “${gn.label}”` : ''}, step ${gn.id}: ${summaryOf(gn.type, gn.config)}`;
    return {
      ...base,
      id: gn.id,
      type: gn.type,
      position,
      ariaLabel,
      handles: stepHandles(gn),
      data: { ...(gn.label ? { label: gn.label } : {}), config: gn.config },
    } as StepNode;
  });
  const laneNodes: AppNode[] = lanes.map((l) => {
    const id = laneNodeId(l.lane);
    const p = old.get(id) as LaneNode | undefined;
    if (p && p.type === 'lane' && JSON.stringify(p.data) === JSON.stringify(l)) return p;
    return {
      id,
      type: 'lane',
      position: p?.position ?? { x: 0, y: 0 },
      measured: p?.measured ?? { width: NODE_WIDTH, height: LANE_HEADER_HEIGHT },
      handles: laneHandles(l.lane),
      data: l,
      draggable: false,
      selectable: false,
      deletable: false,
      focusable: false,
      // Neither draggable nor selectable: React Flow would let clicks through to the pane otherwise.
      style: { pointerEvents: 'all' },
    } satisfies LaneNode;
  });
  return [...laneNodes, ...steps];
}

export function buildEdges(g: Graph, prev: readonly AppEdge[]): AppEdge[] {
  const old = new Map(prev.map((e) => [e.id, e]));
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const flow: AppEdge[] = g.edges.map((e) => {
    const source = byId.get(e.source);
    const handleLabel = e.sourceHandle && source ? handlesOf(source).find((h) => h.id === e.sourceHandle)?.label : undefined;
    const p = old.get(e.id) as FlowEdge | undefined;
    if (p && p.type === 'flow' && p.source === e.source && p.target === e.target && (p.sourceHandle ?? undefined) === e.sourceHandle && p.data?.handleLabel === handleLabel) return p;
    return {
      id: e.id,
      type: 'flow',
      source: e.source,
      target: e.target,
      ...(e.sourceHandle ? { sourceHandle: e.sourceHandle } : {}),
      data: handleLabel ? { handleLabel } : {},
      ...(p?.selected && { selected: true }),
    } satisfies FlowEdge;
  });
  const entries: AppEdge[] = Object.entries(g.dispositionEntries).map(([lane, target]) => {
    const id = entryEdgeId(lane);
    const p = old.get(id) as EntryEdge | undefined;
    if (p && p.target === target) return p;
    return { id, type: 'entry', source: laneNodeId(lane), target, data: { lane }, selectable: false, deletable: false, focusable: false } satisfies EntryEdge;
  });
  return [...entries, ...flow];
}

/** The lane a disposition-like string names, if it is one. */
export const asDisposition = (s: string): Disposition | null => ((DISPOSITIONS as readonly string[]).includes(s) ? (s as Disposition) : null);

/** The outcomes a call with this agent can end in, canonical order (none when the answer leaves them out). */
export const outcomesOf = (agent: Pick<Agent, 'outcomes'>): Disposition[] => (agent.outcomes ?? []).flatMap((o) => asDisposition(o) ?? []);

/** For each step, the source handles that already lead somewhere, joined by "|" ('-' for the unnamed one). */
export function handlesInUse(g: Graph): Record<string, string> {
  const out: Record<string, string[]> = {};
  for (const e of g.edges) (out[e.source] ??= []).push(e.sourceHandle ?? '-');
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.sort().join('|')]));
}
