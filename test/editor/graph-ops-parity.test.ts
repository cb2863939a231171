/**
 * The editor keeps its own copy of delete-and-relink (editor/src/model/graph-ops.ts) so the canvas
 * does not load the engine's ajv validator; the server applies engine/graph/relink.ts when the
 * change is saved. On any valid graph and any node the two must agree: the same graph, or both
 * refuse. A difference would show the admin one chain and store another.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deleteNode as editorDelete, EditRefusal } from '../../editor/src/model/graph-ops.js';
import type { Graph as EditorGraph } from '../../editor/src/model/types.js';
import { GraphRefusal } from '../../engine/graph/errors.js';
import type { Graph } from '../../engine/graph/types.js';
import { findGraphProblems } from '../../engine/graph/validate.js';
import { deleteNode as engineDelete } from '../../engine/graph/relink.js';
import { appendedGraph, storedGraph, validGraph } from '../unit/engine/graph/arbitraries.js';

type Outcome = { graph: Graph } | { refused: 'branch' | 'unknown' };

function viaEngine(g: Graph, nodeId: string): Outcome {
  try {
    return { graph: engineDelete(g, nodeId) };
  } catch (err) {
    expect(err).toBeInstanceOf(GraphRefusal);
    return { refused: (err as GraphRefusal).code === 'NOT_FOUND' ? 'unknown' : 'branch' };
  }
}

function viaEditor(g: Graph, nodeId: string): Outcome {
  try {
    return { graph: editorDelete(g as EditorGraph, nodeId) as Graph };
  } catch (err) {
    expect(err).toBeInstanceOf(EditRefusal);
    return { refused: g.nodes.some((n) => n.id === nodeId) ? 'branch' : 'unknown' };
  }
}

describe('editor delete-and-relink = engine delete-and-relink (property-based)', () => {
  it('the generators make valid graphs of both kinds', () => {
    fc.assert(
      fc.property(validGraph, (g) => {
        expect(findGraphProblems(g)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('deleting any node gives the same graph, or both refuse', () => {
    let compared = 0;
    let refused = 0;
    fc.assert(
      fc.property(validGraph, fc.nat(), (g, pick) => {
        fc.pre(g.nodes.length > 0);
        const nodeId = g.nodes[pick % g.nodes.length]!.id;
        const frozen = structuredClone(g);
        const engine = viaEngine(g, nodeId);
        const editor = viaEditor(g, nodeId);
        expect(editor).toEqual(engine);
        // neither mutates its input
        expect(g).toEqual(frozen);
        if ('graph' in engine) compared++;
        else refused++;
      }),
      { numRuns: 300 },
    );
    // Both paths were exercised, so the property did not pass by always refusing (or never).
    expect(compared).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('on graphs only PUT makes (joins, shared entries, drafts, orphans): every node, one after another', () => {
    fc.assert(
      fc.property(storedGraph, (start) => {
        // delete nodes in list order until one is refused or none is left, comparing each step
        let g = start;
        for (const { id } of start.nodes) {
          const engine = viaEngine(g, id);
          expect(viaEditor(g, id)).toEqual(engine);
          if (!('graph' in engine)) break;
          g = engine.graph;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('an unknown node is refused by both', () => {
    fc.assert(
      fc.property(appendedGraph, (g) => {
        expect(viaEditor(g, 'no-such-node')).toEqual({ refused: 'unknown' });
        expect(viaEngine(g, 'no-such-node')).toEqual({ refused: 'unknown' });
      }),
      { numRuns: 50 },
    );
  });
});
