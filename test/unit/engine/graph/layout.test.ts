import { describe, expect, it } from 'vitest';
import { BRANCH_OFFSET, LANE_WIDTH, layoutGraph, ROW_HEIGHT, type LayoutInput } from '../../../../engine/graph/layout.js';
import { danaGraph, ifGraph } from './fixtures.js';

const strip = (g: ReturnType<typeof danaGraph>): LayoutInput => ({ ...g, nodes: g.nodes.map(({ position: _p, ...n }) => n) });
const positions = (g: { nodes: { id: string; position: { x: number; y: number } }[] }) => Object.fromEntries(g.nodes.map((n) => [n.id, n.position]));

describe('layoutGraph', () => {
  it('places each outcome in its lane (canonical order × LANE_WIDTH), steps ROW_HEIGHT apart', () => {
    const g = layoutGraph(strip(danaGraph()));
    expect(positions(g)).toEqual({
      n1: { x: 0, y: 0 },
      n2: { x: 0, y: ROW_HEIGHT },
      n3: { x: LANE_WIDTH, y: 0 },
      n4: { x: LANE_WIDTH, y: ROW_HEIGHT },
      n5: { x: LANE_WIDTH, y: 2 * ROW_HEIGHT },
    });
  });
  it('fans branch chains out sideways inside the lane, in handle order', () => {
    const g = layoutGraph(ifGraph(), { all: true });
    expect(positions(g)).toEqual({
      n1: { x: 2 * LANE_WIDTH, y: 0 },
      n2: { x: 2 * LANE_WIDTH, y: ROW_HEIGHT },
      n3: { x: 2 * LANE_WIDTH + BRANCH_OFFSET, y: ROW_HEIGHT },
    });
  });
  it('keeps existing positions unless asked, and places new nodes relative to their moved predecessor', () => {
    const moved = danaGraph();
    moved.nodes[0] = { ...moved.nodes[0]!, position: { x: 1000, y: 500 } };
    const { position: _p, ...n2 } = moved.nodes[1]!;
    const input: LayoutInput = { ...moved, nodes: [moved.nodes[0]!, n2, ...moved.nodes.slice(2)] };
    const g = layoutGraph(input);
    expect(positions(g).n1).toEqual({ x: 1000, y: 500 });
    expect(positions(g).n2).toEqual({ x: 1000, y: 500 + ROW_HEIGHT });
    expect(positions(layoutGraph(moved, { all: true })).n1).toEqual({ x: 0, y: 0 });
    expect(positions(layoutGraph(moved, { keep: new Set(['n2']) })).n1).toEqual({ x: 0, y: 0 });
  });
  it('shifts later lanes right when a lane needs more than two branch columns', () => {
    const cases = ['a', 'b'].map((id) => ({ id, label: id, match: 'all', conditions: [{ field: 'x', op: 'exists' }] }));
    const input: LayoutInput = {
      nodes: [
        { id: 's', type: 'switch', config: { cases } },
        { id: 'a', type: 'add-tag', config: { tags: ['a'] } },
        { id: 'b', type: 'add-tag', config: { tags: ['b'] } },
        { id: 'd', type: 'add-tag', config: { tags: ['d'] } },
        { id: 'v', type: 'add-tag', config: { tags: ['v'] } },
      ],
      edges: [
        { id: 'e1', source: 's', target: 'd', sourceHandle: 'default' },
        { id: 'e2', source: 's', target: 'b', sourceHandle: 'b' },
        { id: 'e3', source: 's', target: 'a', sourceHandle: 'a' },
      ],
      dispositionEntries: { VOICEMAIL: 's', SUCCESS: 'v' },
    };
    const p = positions(layoutGraph(input));
    expect([p.a!.x, p.b!.x, p.d!.x]).toEqual([0, BRANCH_OFFSET, 2 * BRANCH_OFFSET]);
    expect(p.v).toEqual({ x: LANE_WIDTH + BRANCH_OFFSET, y: 0 });
  });
  it('puts nodes no outcome reaches to the right of the lanes, chained', () => {
    const input: LayoutInput = {
      nodes: [
        { id: 'x', type: 'add-tag', config: { tags: ['x'] } },
        { id: 'y', type: 'add-tag', config: { tags: ['y'] } },
      ],
      edges: [{ id: 'e1', source: 'x', target: 'y' }],
      dispositionEntries: {},
    };
    expect(positions(layoutGraph(input))).toEqual({ x: { x: 6 * LANE_WIDTH, y: 0 }, y: { x: 6 * LANE_WIDTH, y: ROW_HEIGHT } });
  });
  it('is deterministic and does not change its input', () => {
    const input = strip(danaGraph());
    const copy = JSON.stringify(input);
    expect(layoutGraph(input)).toEqual(layoutGraph(input));
    expect(JSON.stringify(input)).toBe(copy);
  });
});
