import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendNodes, type AppendNode } from '../../../../engine/graph/append.js';
import { emptyGraph } from '../../../../engine/graph/empty.js';
import { GraphRefusal } from '../../../../engine/graph/errors.js';
import { DISPOSITIONS } from '../../../../engine/graph/outcomes.js';
import { patchNodes } from '../../../../engine/graph/patch.js';
import { deleteNode } from '../../../../engine/graph/relink.js';
import { switchOutcome } from '../../../../engine/graph/switch-outcome.js';
import type { Graph } from '../../../../engine/graph/types.js';
import { isBranch } from '../../../../engine/graph/types.js';
import { findGraphProblems } from '../../../../engine/graph/validate.js';
import { chainOf, reachable } from '../../../../engine/graph/walk.js';
import { appendOp, deleteOp, patchOp, switchOp, type Op } from './arbitraries.js';

// ---------------------------------------------------------------------------------------------
// Invariants
// ---------------------------------------------------------------------------------------------

function expectWellFormed(g: Graph) {
  const nodeIds = g.nodes.map((n) => n.id);
  const edgeIds = g.edges.map((e) => e.id);
  expect(new Set(nodeIds).size).toBe(nodeIds.length);
  expect(new Set(edgeIds).size).toBe(edgeIds.length);
  const ids = new Set(nodeIds);
  for (const e of g.edges) {
    expect(ids.has(e.source)).toBe(true);
    expect(ids.has(e.target)).toBe(true);
  }
  for (const entry of Object.values(g.dispositionEntries)) expect(ids.has(entry)).toBe(true);
  for (const n of g.nodes) expect(Number.isFinite(n.position.x) && Number.isFinite(n.position.y)).toBe(true);
  expect(findGraphProblems(g)).toEqual([]);
  expectAcyclic(g);
}

/** Kahn's algorithm, independent of the validator's DFS. */
function expectAcyclic(g: Graph) {
  const indegree = new Map(g.nodes.map((n) => [n.id, 0]));
  for (const e of g.edges) indegree.set(e.target, (indegree.get(e.target) ?? 0) + 1);
  const queue = [...indegree].filter(([, d]) => d === 0).map(([id]) => id);
  let removed = 0;
  while (queue.length) {
    const id = queue.pop()!;
    removed++;
    for (const e of g.edges) {
      if (e.source !== id) continue;
      const d = indegree.get(e.target)! - 1;
      indegree.set(e.target, d);
      if (d === 0) queue.push(e.target);
    }
  }
  expect(removed).toBe(g.nodes.length);
}

/** Every node hangs off an outcome (an empty graph has none to check). */
function expectAllReachable(g: Graph) {
  const live = reachable(g);
  for (const n of g.nodes) expect(live.has(n.id), `${n.id} is reachable`).toBe(true);
}

const countNew = (nodes: AppendNode[]) =>
  nodes.reduce((sum, n) => {
    if (n.type !== 'switch') return sum + 1;
    const cfg = (n as { config: { cases: { nodes: unknown[] }[]; default?: { nodes: unknown[] } } }).config;
    return sum + 1 + cfg.cases.reduce((s, c) => s + c.nodes.length, 0) + (cfg.default?.nodes.length ?? 0);
  }, 0);

/** Applies one op; checks the refusal is one the operation documents, and that nothing changed then. */
function apply(g: Graph, op: Op): { graph: Graph; refused: boolean } {
  const frozen = JSON.stringify(g);
  try {
    switch (op.kind) {
      case 'append':
        return { graph: appendNodes(g, op.outcome, op.nodes), refused: false };
      case 'delete':
        if (g.nodes.length === 0) return { graph: g, refused: true };
        return { graph: deleteNode(g, g.nodes[op.pick % g.nodes.length]!.id), refused: false };
      case 'patch': {
        const target = g.nodes.filter((n) => n.type === 'add-tag' || n.type === 'add-note');
        if (target.length === 0) return { graph: g, refused: true };
        const n = target[op.pick % target.length]!;
        return { graph: patchNodes(g, [{ id: n.id, label: op.text, config: n.type === 'add-tag' ? { tags: [op.text] } : { body: op.text } }]), refused: false };
      }
      case 'switch':
        return { graph: switchOutcome(g, op.outcome, op.pick === null || g.nodes.length === 0 ? null : g.nodes[op.pick % g.nodes.length]!.id), refused: false };
    }
  } catch (err) {
    expect(err).toBeInstanceOf(GraphRefusal);
    const r = err as GraphRefusal;
    if (op.kind === 'append') {
      // the only refusal a valid request can meet: the chain already ends in a branch
      expect(r.code).toBe('CONFLICT');
      const tail = g.nodes.find((n) => n.id === chainOf(g, op.outcome).at(-1));
      expect(tail && isBranch(tail.type)).toBe(true);
    } else if (op.kind === 'delete') {
      expect(r.code).toBe('VALIDATION');
      const n = g.nodes[op.pick % g.nodes.length]!;
      expect(isBranch(n.type)).toBe(true);
      expect(g.edges.filter((e) => e.source === n.id).length).toBeGreaterThan(1);
    } else {
      throw err;
    }
    expect(JSON.stringify(g)).toBe(frozen);
    return { graph: g, refused: true };
  }
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('graph operations (property-based)', () => {
  it('append / delete / patch keep the graph valid, ids unique, acyclic and every node reachable', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ arbitrary: appendOp, weight: 3 }, { arbitrary: deleteOp, weight: 2 }, { arbitrary: patchOp, weight: 1 }), { maxLength: 25 }), (ops) => {
        let g = emptyGraph();
        for (const op of ops) {
          const before = g;
          const { graph, refused } = apply(g, op);
          g = graph;
          expectWellFormed(g);
          expectAllReachable(g);
          if (!refused && op.kind === 'append') expect(g.nodes.length).toBe(before.nodes.length + countNew(op.nodes));
          if (!refused && op.kind === 'delete') expect(g.nodes.length).toBe(before.nodes.length - 1);
          if (!refused && op.kind === 'patch') {
            expect(g.edges).toEqual(before.edges);
            expect(g.dispositionEntries).toEqual(before.dispositionEntries);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('with outcome switching too: still valid, and append/delete never strand a node that was reachable', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(appendOp, deleteOp, patchOp, switchOp), { maxLength: 30 }), (ops) => {
        let g = emptyGraph();
        for (const op of ops) {
          const before = g;
          const liveBefore = reachable(before);
          g = apply(g, op).graph;
          expectWellFormed(g);
          if (op.kind === 'append' || op.kind === 'delete') {
            const liveAfter = reachable(g);
            const oldIds = new Set(before.nodes.map((n) => n.id));
            for (const n of g.nodes) {
              if (!oldIds.has(n.id)) expect(liveAfter.has(n.id)).toBe(true); // new nodes hang off an outcome
              else if (liveBefore.has(n.id)) expect(liveAfter.has(n.id)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('delete re-links: every other node stays reachable, chains keep their order, other edges keep id and handle', () => {
    fc.assert(
      fc.property(fc.array(appendOp, { minLength: 1, maxLength: 8 }), fc.nat(), (ops, pick) => {
        let g = emptyGraph();
        for (const op of ops) g = apply(g, op).graph;
        fc.pre(g.nodes.length > 0);
        const victim = g.nodes[pick % g.nodes.length]!;
        const { graph: after, refused } = apply(g, { kind: 'delete', pick });
        fc.pre(!refused);

        // every other node that was reachable still is
        const liveBefore = reachable(g);
        const liveAfter = reachable(after);
        for (const id of liveBefore) if (id !== victim.id) expect(liveAfter.has(id)).toBe(true);

        // each outcome's linear chain keeps its order, minus the victim (a deleted branch's only
        // chain joins the linear part, so the old chain is a prefix)
        for (const d of DISPOSITIONS) {
          const was = chainOf(g, d).filter((id) => id !== victim.id);
          expect(chainOf(after, d).slice(0, was.length)).toEqual(was);
        }

        // edges not touching the victim are untouched; an edge into it now goes to its successor
        const successorOfVictim = g.edges.find((e) => e.source === victim.id)?.target;
        for (const e of g.edges) {
          if (e.source === victim.id) continue;
          const kept = after.edges.find((x) => x.id === e.id);
          if (e.target !== victim.id) expect(kept).toEqual(e);
          else if (successorOfVictim) expect(kept).toEqual({ ...e, target: successorOfVictim });
          else expect(kept).toBeUndefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('new ids continue from the highest n<k>/e<k> in use, in order, and never collide', () => {
    const maxOf = (ids: string[], prefix: string) => Math.max(0, ...ids.map((id) => (new RegExp(`^${prefix}(\\d+)$`).exec(id) ? Number(id.slice(1)) : 0)));
    fc.assert(
      fc.property(fc.array(fc.oneof(appendOp, deleteOp), { maxLength: 20 }), (ops) => {
        let g = emptyGraph();
        for (const op of ops) {
          const oldNodes = g.nodes.map((n) => n.id);
          const oldEdges = g.edges.map((e) => e.id);
          const { graph, refused } = apply(g, op);
          g = graph;
          if (refused || op.kind !== 'append') continue;
          const newNodes = g.nodes.map((n) => n.id).filter((id) => !oldNodes.includes(id));
          const newEdges = g.edges.map((e) => e.id).filter((id) => !oldEdges.includes(id));
          const n0 = maxOf(oldNodes, 'n');
          const e0 = maxOf(oldEdges, 'e');
          expect(newNodes).toEqual(newNodes.map((_, i) => `n${n0 + i + 1}`));
          expect(newEdges).toEqual(newEdges.map((_, i) => `e${e0 + i + 1}`));
        }
      }),
      { numRuns: 200 },
    );
  });
});
