/**
 * What dagre (@dagrejs/dagre 3.x, as model/layout.ts calls it: rankdir TB, no edge labels, no
 * clusters, the order sweeps off) computes for a graph that is a tree, without building graphlib
 * graphs. Every step below mirrors one of dagre's, with the same floating-point operations in the
 * same order, so the positions are identical (test/editor/model.test.ts compares with dagre).
 *
 * - makeSpaceForEdgeLabels halves ranksep and doubles every edge's minlen; in a tree every edge is
 *   tight, so a step at depth d has rank 2d (network simplex's optimum is unique), and
 *   normalize gives every edge one dummy node (width and height 0) on the odd rank between.
 * - The order is dagre's initial order: a depth-first walk from the root, successors in the order
 *   their edges were added; a dummy comes just before its child, so a dummy rank lists the dummies
 *   in the order of the children below.
 * - y: positionY, each rank as tall as its tallest node, nodes centred in it.
 * - x: Brandes-Köpf as dagre's bk.ts does it (four alignments, block graph compaction in two
 *   passes, smallest-width alignment, alignCoordinates, balance by the median pair). A tree has no
 *   inner segments (no dummy follows a dummy), so there are no type-1 or type-2 conflicts.
 * - translateGraph: the top-left node corner at 0, 0; the width is the right edge (at least 0).
 */

export interface TreeInput {
  /** node sizes, node 0 the root */
  width: number[];
  height: number[];
  /** children of each node in the order dagre would see their edges */
  children: number[][];
  nodesep: number;
  ranksep: number;
  edgesep: number;
}

export interface TreeLayout {
  /** centres, as dagre's node x / y */
  x: Float64Array;
  y: Float64Array;
  width: number;
}

export function layoutTree(t: TreeInput): TreeLayout {
  const n = t.width.length;
  const N = 2 * n; // node v < n is real; n + c is the dummy on the edge into c (c > 0)
  const parent = new Int32Array(n).fill(-1);
  // Layers in dagre's initial order: a preorder walk, children in edge order.
  const layers: number[][] = [[0]];
  const stack: number[] = [0];
  const depth = new Int32Array(n);
  while (stack.length) {
    const v = stack.pop()!;
    const kids = t.children[v]!;
    for (let i = kids.length - 1; i >= 0; i--) {
      const c = kids[i]!;
      parent[c] = v;
      depth[c] = depth[v]! + 1;
      stack.push(c);
    }
    if (v !== 0) {
      const r = 2 * depth[v]!;
      (layers[r - 1] ??= []).push(n + v);
      (layers[r] ??= []).push(v);
    }
  }
  const isDummy = (v: number) => v >= n;
  const widthOf = (v: number) => (v >= n ? 0 : t.width[v]!);
  const preds = (v: number): number[] => (v >= n ? [parent[v - n]!] : v === 0 ? [] : [n + v]);
  const succs = (v: number): number[] => (v >= n ? [v - n] : t.children[v]!.map((c) => n + c));

  // positionY
  const y = new Float64Array(n);
  let top = 0;
  for (const layer of layers) {
    let max = 0;
    for (const v of layer) {
      const h = v >= n ? 0 : t.height[v]!;
      max = max > h ? max : h;
    }
    for (const v of layer) if (v < n) y[v] = top + max / 2;
    top += max + t.ranksep;
  }

  // positionX: ul, ur, dl, dr
  const sep = (v: number, u: number) => {
    let sum = 0;
    sum += widthOf(v) / 2;
    sum += (isDummy(v) ? t.edgesep : t.nodesep) / 2;
    sum += (isDummy(u) ? t.edgesep : t.nodesep) / 2;
    sum += widthOf(u) / 2;
    return sum;
  };
  const pos = new Int32Array(N);
  const root = new Int32Array(N);
  const align = new Int32Array(N);
  const xss: Float64Array[] = [];
  for (const vert of ['u', 'd'] as const) {
    let layering = vert === 'u' ? layers : [...layers].reverse();
    for (const horiz of ['l', 'r'] as const) {
      if (horiz === 'r') layering = layering.map((l) => [...l].reverse());
      const neighbours = vert === 'u' ? preds : succs;
      // verticalAlignment
      for (const layer of layering)
        layer.forEach((v, i) => {
          root[v] = v;
          align[v] = v;
          pos[v] = i;
        });
      for (const layer of layering) {
        let prevIdx = -1;
        for (const v of layer) {
          let ws = neighbours(v);
          if (!ws.length) continue;
          if (ws.length > 1) ws = ws.sort((a, b) => pos[a]! - pos[b]!);
          const mp = (ws.length - 1) / 2;
          for (let i = Math.floor(mp), il = Math.ceil(mp); i <= il; ++i) {
            const w = ws[i]!;
            if (align[v] === v && prevIdx < pos[w]!) {
              align[w] = v;
              align[v] = root[v] = root[w]!;
              prevIdx = pos[w]!;
            }
          }
        }
      }
      // horizontalCompaction: the block graph (an edge between the roots of neighbours in a layer,
      // the largest separation), then smallest coordinates in topological order, then each block
      // as far right as its successors allow, in reverse.
      const out = new Map<number, Map<number, number>>();
      const indeg = new Int32Array(N);
      const blocks: number[] = [];
      for (const layer of layering) {
        let u = -1;
        for (const v of layer) {
          const rv = root[v]!;
          if (rv === v) blocks.push(v);
          if (u !== -1) {
            const ru = root[u]!;
            let m = out.get(ru);
            if (!m) out.set(ru, (m = new Map()));
            const prev = m.get(rv);
            if (prev === undefined) indeg[rv] = indeg[rv]! + 1;
            m.set(rv, Math.max(sep(v, u), prev || 0));
          }
          u = v;
        }
      }
      const order: number[] = blocks.filter((b) => indeg[b] === 0);
      for (let i = 0; i < order.length; i++) for (const w of out.get(order[i]!)?.keys() ?? []) if ((indeg[w] = indeg[w]! - 1) === 0) order.push(w);
      const xs = new Float64Array(N);
      for (const b of order) {
        const m = out.get(b);
        if (m) for (const [w, wt] of m) xs[w] = Math.max(xs[w]!, xs[b]! + wt);
      }
      for (let i = order.length - 1; i >= 0; i--) {
        const b = order[i]!;
        const m = out.get(b);
        if (!m || !m.size) continue;
        let min = Number.POSITIVE_INFINITY;
        for (const [w, wt] of m) min = Math.min(min, xs[w]! - wt);
        if (min !== Number.POSITIVE_INFINITY) xs[b] = Math.max(xs[b]!, min);
      }
      const res = new Float64Array(N);
      for (const layer of layering) for (const v of layer) res[v] = horiz === 'r' ? -xs[root[v]!]! : xs[root[v]!]!;
      xss.push(res);
    }
  }
  const all: number[] = layers.flat();
  // findSmallestWidthAlignment
  let best = 0;
  let bestWidth = Number.POSITIVE_INFINITY;
  xss.forEach((xs, k) => {
    let max = Number.NEGATIVE_INFINITY;
    let min = Number.POSITIVE_INFINITY;
    for (const v of all) {
      const half = widthOf(v) / 2;
      max = Math.max(xs[v]! + half, max);
      min = Math.min(xs[v]! - half, min);
    }
    if (max - min < bestWidth) (bestWidth = max - min), (best = k);
  });
  // alignCoordinates
  const minOf = (xs: Float64Array) => {
    let m = Number.POSITIVE_INFINITY;
    for (const v of all) m = Math.min(m, xs[v]!);
    return m;
  };
  const maxOf = (xs: Float64Array) => {
    let m = Number.NEGATIVE_INFINITY;
    for (const v of all) m = Math.max(m, xs[v]!);
    return m;
  };
  const alignMin = minOf(xss[best]!);
  const alignMax = maxOf(xss[best]!);
  xss.forEach((xs, k) => {
    if (k === best) return;
    const delta = k % 2 === 0 ? alignMin - minOf(xs) : alignMax - maxOf(xs);
    if (delta) for (const v of all) xs[v] = xs[v]! + delta;
  });
  // balance, then translateGraph
  const x = new Float64Array(n);
  const four = [0, 0, 0, 0];
  for (let v = 0; v < n; v++) {
    for (let k = 0; k < 4; k++) four[k] = xss[k]![v]!;
    const s = four.slice().sort((a, b) => a - b);
    x[v] = (s[1]! + s[2]!) / 2;
  }
  let minX = Number.POSITIVE_INFINITY;
  let maxX = 0;
  let minY = Number.POSITIVE_INFINITY;
  for (let v = 0; v < n; v++) {
    minX = Math.min(minX, x[v]! - t.width[v]! / 2);
    maxX = Math.max(maxX, x[v]! + t.width[v]! / 2);
    minY = Math.min(minY, y[v]! - t.height[v]! / 2);
  }
  minX -= 0;
  minY -= 0;
  for (let v = 0; v < n; v++) {
    x[v] = x[v]! - minX;
    y[v] = y[v]! - minY;
  }
  return { x, y, width: maxX - minX + 0 };
}
