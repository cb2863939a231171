/**
 * Automatic layout: one column per lane (outcome), each laid out top-down as dagre does it (a lane
 * that is a tree by model/tree-layout.ts, which gives dagre's positions without dagre), branch children
 * kept in handle order (true before false, cases in order). Pure and async (so a worker or ELK could
 * replace dagre without touching callers); it only computes positions.
 *
 * Positions an admin chose are kept ("pinned"). Every other step is placed by the layout, and a step
 * below a pinned one moves with it: it keeps the offset the layout gives it from its nearest pinned
 * ancestor. So dragging the first step of a lane carries the rest of the lane along.
 *
 * Which stored positions are chosen? The server places steps on a fixed grid (engine/graph/
 * layout.ts: rows ROW_HEIGHT apart, columns BRANCH_OFFSET / 2 apart), either absolutely or, after a
 * step someone moved, at a grid offset from that step. A stored position on the grid, absolute or
 * relative to the step before it, was placed by the system; anything else by a person. The editor
 * saves automatic positions on the absolute grid (the engine's own layoutGraph) and nudges a dropped
 * step off both grids, so the distinction survives a save and a reload.
 */
import dagre from '@dagrejs/dagre';
import { BRANCH_OFFSET, ROW_HEIGHT } from '../../../engine/graph/layout';
import { layoutTree } from './tree-layout';

export interface XY {
  x: number;
  y: number;
}

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 76;
export const LANE_HEADER_HEIGHT = 56;
const GRID_X = BRANCH_OFFSET / 2;
const GRID_Y = ROW_HEIGHT;
const LANE_GAP = 40;
const HEADER_GAP = 44;
const TOP = LANE_HEADER_HEIGHT + HEADER_GAP;
/** dagre's settings (edgesep is its default) */
const NODESEP = 36;
const RANKSEP = 52;
const EDGESEP = 20;

const onGrid = (x: number, y: number) => Number.isInteger(x / GRID_X) && Number.isInteger(y / GRID_Y);

/** Whether a stored position is one the server's layout chose (not a person): on the grid, or on it relative to the step before. */
export function isServerPlaced(p: XY | undefined, before?: XY): boolean {
  if (!p || !Number.isFinite(p.x) || !Number.isFinite(p.y)) return true;
  return onGrid(p.x, p.y) || (!!before && onGrid(p.x - before.x, p.y - before.y));
}

/** A position a person chose, moved a pixel or two so it is on neither grid. */
export function offGrid(p: XY, before?: XY): XY {
  const r = { x: Math.round(p.x), y: Math.round(p.y) };
  while (isServerPlaced(r, before)) r.x += 1;
  return r;
}

export interface LayoutInput {
  /** lanes in display order; `entry` is the step the lane starts at */
  lanes: { id: string; entry: string | null }[];
  nodes: { id: string; width?: number; height?: number; position: XY; pinned: boolean }[];
  /** `order` sorts a branch's children left to right */
  edges: { source: string; target: string; order: number }[];
}

export interface LayoutResult {
  /** top-left of every step */
  positions: Record<string, XY>;
  /** top-left of every lane header, and the lane each step was placed in */
  lanes: Record<string, XY>;
  laneOf: Record<string, string>;
}

/** The lane of each step: the first lane (in display order) whose entry reaches it. */
export function assignLanes(input: Pick<LayoutInput, 'lanes' | 'nodes' | 'edges'>, orphanLane: string): Record<string, string> {
  const out = new Map<string, string[]>();
  for (const e of input.edges) {
    const targets = out.get(e.source);
    if (targets) targets.push(e.target);
    else out.set(e.source, [e.target]);
  }
  const laneOf: Record<string, string> = {};
  for (const lane of input.lanes) {
    const queue = lane.entry ? [lane.entry] : [];
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i]!;
      if (laneOf[id] !== undefined) continue;
      laneOf[id] = lane.id;
      for (const w of out.get(id) ?? []) queue.push(w);
    }
  }
  for (const n of input.nodes) laneOf[n.id] ??= orphanLane;
  return laneOf;
}

type DagreGraph = InstanceType<typeof dagre.graphlib.Graph>;

/**
 * A lane as a tree, if it is one: one step without a parent, every other step with exactly one, all
 * reachable from the first (lanes are trees unless chains merge or steps are unconnected). `ids[0]`
 * is the root; `children` lists each step's children in the order dagre would get their edges
 * (repeated edges once, as graphlib keeps them).
 */
function laneTree(members: string[], edges: { source: string; target: string }[]): { ids: string[]; children: number[][] } | null {
  const parents = new Map<string, Set<string>>();
  for (const e of edges) {
    let p = parents.get(e.target);
    if (!p) parents.set(e.target, (p = new Set()));
    p.add(e.source);
  }
  const roots = members.filter((id) => !parents.has(id));
  if (roots.length !== 1) return null;
  for (const p of parents.values()) if (p.size > 1) return null;
  const index = new Map<string, number>([[roots[0]!, 0]]);
  const ids = [roots[0]!];
  for (const id of members) if (id !== ids[0]) (index.set(id, ids.length), ids.push(id));
  const children: number[][] = ids.map(() => []);
  const seenEdge = new Set<string>();
  for (const e of edges) {
    const key = `${e.source}\u0000${e.target}`;
    if (seenEdge.has(key)) continue;
    seenEdge.add(key);
    children[index.get(e.source)!]!.push(index.get(e.target)!);
  }
  let reached = 0;
  const stack = [0];
  while (stack.length) (reached++, stack.push(...children[stack.pop()!]!));
  return reached === ids.length ? { ids, children } : null;
}

/**
 * dagre's `order` step with its crossing-minimisation sweeps disabled, without the layer graphs it
 * builds before looking at that option (about a quarter of the layout, then thrown away): the initial
 * order, a depth-first walk from the top rank, successors in insertion order (dagre's init-order.ts
 * and assignOrder; with no previous layout its order comparison is always a tie).
 */
function initialOrder(g: DagreGraph): void {
  const label = (v: string) => g.node(v) as { rank: number; order?: number };
  const simple = g.nodes().filter((v) => !(g.children(v) ?? []).length);
  const layers: string[][] = [];
  const visited = new Set<string>();
  const dfs = (v: string) => {
    if (visited.has(v)) return;
    visited.add(v);
    (layers[label(v).rank] ??= []).push(v);
    for (const w of g.successors(v) ?? []) dfs(w);
  };
  for (const v of [...simple].sort((a, b) => label(a).rank - label(b).rank)) dfs(v);
  for (const layer of layers) layer?.forEach((v, i) => (label(v).order = i));
}

/** Lets the browser paint (and take input) before and between lanes of a large layout. */
const yieldToBrowser = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * `plainDagre`: dagre for every lane, with its own ranking and ordering, instead of the shortcuts
 * (model/tree-layout.ts for trees, initialOrder otherwise); tests check both give the same layout.
 */
export async function layoutWorkflow(input: LayoutInput, orphanLane = 'ORPHANS', opts: { plainDagre?: boolean } = {}): Promise<LayoutResult> {
  await yieldToBrowser();
  const byId = new Map(input.nodes.map((n) => [n.id, n]));
  const size = (id: string) => ({ width: byId.get(id)?.width ?? NODE_WIDTH, height: byId.get(id)?.height ?? NODE_HEIGHT });
  const laneOf = assignLanes(input, orphanLane);
  const laneIds = [...input.lanes.map((l) => l.id)];
  if (input.nodes.some((n) => laneOf[n.id] === orphanLane) && !laneIds.includes(orphanLane)) laneIds.push(orphanLane);

  const auto: Record<string, XY> = {};
  const lanes: Record<string, XY> = {};
  let cursor = 0;
  // Each lane's steps, and the edges between two of them, in input order (one pass, not one per lane).
  const membersOf = new Map<string, LayoutInput['nodes']>();
  for (const n of input.nodes) {
    const m = membersOf.get(laneOf[n.id]!);
    if (m) m.push(n);
    else membersOf.set(laneOf[n.id]!, [n]);
  }
  const edgesOf = new Map<string, LayoutInput['edges']>();
  for (const e of input.edges) {
    if (!byId.has(e.source) || !byId.has(e.target) || laneOf[e.source] !== laneOf[e.target]) continue;
    const m = edgesOf.get(laneOf[e.source]!);
    if (m) m.push(e);
    else edgesOf.set(laneOf[e.source]!, [e]);
  }
  for (const lane of laneIds) {
    const members = membersOf.get(lane) ?? [];
    const edges = [...(edgesOf.get(lane) ?? [])].sort((a, b) => (a.source === b.source ? a.order - b.order : 0));
    let width = NODE_WIDTH;
    if (members.length > 0) {
      const tree = opts.plainDagre ? null : laneTree(members.map((n) => n.id), edges);
      if (tree) {
        // A tree: dagre's result computed directly (model/tree-layout.ts), no graphlib graphs.
        const sizes = tree.ids.map(size);
        const r = layoutTree({ width: sizes.map((s) => s.width), height: sizes.map((s) => s.height), children: tree.children, nodesep: NODESEP, ranksep: RANKSEP / 2, edgesep: EDGESEP });
        width = Math.max(NODE_WIDTH, r.width);
        tree.ids.forEach((id, i) => (auto[id] = { x: cursor + r.x[i]! - sizes[i]!.width / 2, y: TOP + r.y[i]! - sizes[i]!.height / 2 }));
      } else {
        const g = new dagre.graphlib.Graph();
        g.setGraph({ rankdir: 'TB', nodesep: NODESEP, ranksep: RANKSEP, marginx: 0, marginy: 0 });
        g.setDefaultEdgeLabel(() => ({}));
        for (const n of members) g.setNode(n.id, size(n.id));
        for (const e of edges) g.setEdge(e.source, e.target);
        // Branch children left to right in handle order.
        const constraints: { left: string; right: string }[] = [];
        const bySource = new Map<string, string[]>();
        for (const e of edges) bySource.set(e.source, [...(bySource.get(e.source) ?? []), e.target]);
        for (const targets of bySource.values()) for (let i = 1; i < targets.length; i++) constraints.push({ left: targets[i - 1]!, right: targets[i]! });
        // dagre's crossing-minimising sweeps would only cost time (about 2.5x on a 250-step lane):
        // the initial order already keeps a branch's children in handle order.
        dagre.layout(g, { disableOptimalOrderHeuristic: true, ...(!opts.plainDagre && { customOrder: (lg: DagreGraph) => initialOrder(lg) }), ...(constraints.length && { constraints }) });
        width = Math.max(NODE_WIDTH, g.graph().width ?? NODE_WIDTH);
        for (const n of members) {
          const p = g.node(n.id) as { x: number; y: number };
          const s = size(n.id);
          auto[n.id] = { x: cursor + p.x - s.width / 2, y: TOP + p.y - s.height / 2 };
        }
      }
    }
    lanes[lane] = { x: cursor + (width - NODE_WIDTH) / 2, y: 0 };
    cursor += width + LANE_GAP;
    if (members.length > 100) await yieldToBrowser();
  }

  // Steps below a pinned step move with it: each unpinned step inherits its parent's shift.
  const parent = new Map<string, string>();
  for (const e of [...input.edges].sort((a, b) => a.order - b.order)) if (!parent.has(e.target) && laneOf[e.source] === laneOf[e.target]) parent.set(e.target, e.source);
  const shift = new Map<string, XY>();
  const shiftOf = (id: string, depth = 0): XY => {
    const known = shift.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    let s: XY = { x: 0, y: 0 };
    if (n.pinned) s = { x: n.position.x - auto[id]!.x, y: n.position.y - auto[id]!.y };
    else {
      const p = parent.get(id);
      if (p && depth < 10_000) s = shiftOf(p, depth + 1);
    }
    shift.set(id, s);
    return s;
  };
  const positions: Record<string, XY> = {};
  for (const n of input.nodes) {
    const s = shiftOf(n.id);
    positions[n.id] = n.pinned ? { ...n.position } : { x: Math.round(auto[n.id]!.x + s.x), y: Math.round(auto[n.id]!.y + s.y) };
  }
  // A lane header sits above its entry step, wherever that step is.
  for (const lane of input.lanes) {
    if (!lane.entry || !positions[lane.entry]) continue;
    const p = positions[lane.entry]!;
    lanes[lane.id] = { x: p.x + (size(lane.entry).width - NODE_WIDTH) / 2, y: p.y - LANE_HEADER_HEIGHT - HEADER_GAP };
  }
  const orphanTop = Math.min(...input.nodes.filter((n) => laneOf[n.id] === orphanLane).map((n) => positions[n.id]!.y));
  if (Number.isFinite(orphanTop) && lanes[orphanLane]) lanes[orphanLane] = { x: lanes[orphanLane]!.x, y: Math.min(0, orphanTop - LANE_HEADER_HEIGHT - HEADER_GAP) };
  return { positions, lanes, laneOf };
}
