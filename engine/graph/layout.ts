import { DISPOSITIONS } from './outcomes.js';
import type { Graph, GraphEdge, GraphNode } from './types.js';
import { isBranch } from './types.js';
import { handlesOf } from './walk.js';

/** Horizontal distance between outcome lanes. */
export const LANE_WIDTH = 320;
/** Vertical distance between consecutive steps of a chain. */
export const ROW_HEIGHT = 140;
/** Horizontal distance between the chains a branch fans out into; two fit in one lane. */
export const BRANCH_OFFSET = 160;

type Position = { x: number; y: number };
/** A graph whose nodes may still lack a position. */
export type LayoutInput = {
  nodes: (Omit<GraphNode, 'position'> & { position?: Position })[];
  edges: GraphEdge[];
  dispositionEntries: Record<string, string>;
};

export interface LayoutOptions {
  /** re-place every node, ignoring the positions it has */
  all?: boolean;
  /** when given, only these nodes keep their positions; every other node is placed */
  keep?: ReadonlySet<string>;
}

const valid = (p: Position | undefined): p is Position => !!p && Number.isFinite(p.x) && Number.isFinite(p.y);

/**
 * A readable, deterministic top-down layout. Each outcome has a vertical lane at
 * `index in canonical order × LANE_WIDTH` (lanes after one whose branches need more than two
 * columns shift right by the extra width); a chain's steps are `ROW_HEIGHT` apart; a branch's
 * chains sit side by side, `BRANCH_OFFSET` apart, in handle order (true, false / cases, default).
 * Nodes no outcome reaches are laid out to the right of the last lane.
 *
 * Only nodes without a (finite) position are placed unless `{ all: true }`; positions an admin
 * chose are kept, and a new node is placed relative to its predecessor's actual position, so a
 * chain that was dragged elsewhere grows where it now is. Pure: returns a new graph.
 */
export function layoutGraph(graph: LayoutInput | Graph, opts: LayoutOptions = {}): Graph {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const out = new Map<string, GraphEdge[]>();
  const hasIncoming = new Set<string>();
  for (const e of graph.edges) {
    if (!byId.has(e.source) || !byId.has(e.target)) continue;
    out.set(e.source, [...(out.get(e.source) ?? []), e]);
    hasIncoming.add(e.target);
  }

  /** Children in display order: a branch's handles in order, then anything else. */
  const childrenOf = (id: string): string[] => {
    const node = byId.get(id)!;
    const edges = out.get(id) ?? [];
    if (!isBranch(node.type)) return edges.map((e) => e.target);
    const order = handlesOf(node);
    const rank = (e: GraphEdge) => {
      const i = order.indexOf(e.sourceHandle ?? '');
      return i < 0 ? order.length : i;
    };
    return [...edges].sort((a, b) => rank(a) - rank(b)).map((e) => e.target);
  };

  // 1. A spanning forest: the first visit (lanes in canonical order, then strays) claims a node.
  const parent = new Map<string, string | null>();
  const kids = new Map<string, string[]>();
  const claim = (root: string) => {
    if (parent.has(root)) return false;
    parent.set(root, null);
    const stack = [root];
    while (stack.length) {
      const id = stack.pop()!;
      const mine: string[] = [];
      for (const c of childrenOf(id)) {
        if (parent.has(c)) continue;
        parent.set(c, id);
        mine.push(c);
      }
      kids.set(id, mine);
      for (let i = mine.length - 1; i >= 0; i--) stack.push(mine[i]!);
    }
    return true;
  };
  const laneRoots: { root: string; lane: number }[] = [];
  DISPOSITIONS.forEach((d, lane) => {
    const entry = graph.dispositionEntries[d];
    if (entry !== undefined && byId.has(entry) && claim(entry)) laneRoots.push({ root: entry, lane });
  });
  const strayRoots: string[] = [];
  for (const n of graph.nodes) if (!hasIncoming.has(n.id) && claim(n.id)) strayRoots.push(n.id);
  for (const n of graph.nodes) if (claim(n.id)) strayRoots.push(n.id); // only in a malformed (cyclic) graph

  // 2. Widths in columns: an action is as wide as what follows it, a branch the sum of its chains.
  const width = new Map<string, number>();
  const widthOf = (root: string): number => {
    const post: string[] = [];
    const stack = [root];
    while (stack.length) {
      const id = stack.pop()!;
      post.push(id);
      for (const c of kids.get(id) ?? []) stack.push(c);
    }
    for (let i = post.length - 1; i >= 0; i--) {
      const id = post[i]!;
      const cs = kids.get(id) ?? [];
      const w = isBranch(byId.get(id)!.type) ? cs.reduce((s, c) => s + width.get(c)!, 0) : Math.max(0, ...cs.map((c) => width.get(c)!));
      width.set(id, Math.max(1, w));
    }
    return width.get(root)!;
  };

  // 3. Computed positions.
  const computed = new Map<string, Position>();
  const place = (root: string, x0: number) => {
    const stack: { id: string; col: number; depth: number }[] = [{ id: root, col: 0, depth: 0 }];
    while (stack.length) {
      const { id, col, depth } = stack.pop()!;
      computed.set(id, { x: x0 + col * BRANCH_OFFSET, y: depth * ROW_HEIGHT });
      let c = col;
      for (const k of kids.get(id) ?? []) {
        stack.push({ id: k, col: c, depth: depth + 1 });
        if (isBranch(byId.get(id)!.type)) c += width.get(k)!;
      }
    }
  };
  const columnsPerLane = LANE_WIDTH / BRANCH_OFFSET;
  const laneWidth = new Map<number, number>();
  for (const { root, lane } of laneRoots) laneWidth.set(lane, widthOf(root));
  const laneX = (lane: number) => {
    let x = lane * LANE_WIDTH;
    for (let l = 0; l < lane; l++) x += Math.max(0, (laneWidth.get(l) ?? 0) - columnsPerLane) * BRANCH_OFFSET;
    return x;
  };
  for (const { root, lane } of laneRoots) place(root, laneX(lane));
  let strayX = laneX(DISPOSITIONS.length);
  for (const root of strayRoots) {
    place(root, strayX);
    strayX += Math.max(columnsPerLane, widthOf(root)) * BRANCH_OFFSET;
  }

  // 4. Keep chosen positions; place the rest relative to their (actual) predecessor.
  const keeps = (n: LayoutInput['nodes'][number]) => !opts.all && valid(n.position) && (!opts.keep || opts.keep.has(n.id));
  const final = new Map<string, Position>();
  const resolve = (id: string): Position => {
    const done = final.get(id);
    if (done) return done;
    const node = byId.get(id)!;
    let pos: Position;
    if (keeps(node)) pos = { x: node.position!.x, y: node.position!.y };
    else {
      const p = parent.get(id);
      const mine = computed.get(id)!;
      if (p) {
        const pFinal = resolve(p);
        const pComputed = computed.get(p)!;
        pos = { x: pFinal.x + (mine.x - pComputed.x), y: pFinal.y + (mine.y - pComputed.y) };
      } else pos = { ...mine };
    }
    final.set(id, pos);
    return pos;
  };
  // Resolve parents before children without recursion depth: walk each tree top-down.
  for (const root of [...laneRoots.map((r) => r.root), ...strayRoots]) {
    const stack = [root];
    while (stack.length) {
      const id = stack.pop()!;
      resolve(id);
      for (const k of kids.get(id) ?? []) stack.push(k);
    }
  }

  return {
    nodes: graph.nodes.map((n) => ({ ...n, position: final.get(n.id)! })) as GraphNode[],
    edges: [...graph.edges],
    dispositionEntries: { ...graph.dispositionEntries },
  };
}
