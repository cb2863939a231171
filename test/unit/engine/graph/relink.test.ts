import { describe, expect, it } from 'vitest';
import { appendNodes } from '../../../../engine/graph/append.js';
import { emptyGraph } from '../../../../engine/graph/empty.js';
import { deleteNode } from '../../../../engine/graph/relink.js';
import type { Graph } from '../../../../engine/graph/types.js';
import { findGraphProblems } from '../../../../engine/graph/validate.js';
import { chainOf } from '../../../../engine/graph/walk.js';
import { danaGraph, deepFreeze, ifGraph, node, refusal } from './fixtures.js';

describe('deleteNode', () => {
  it('re-links the predecessor edge to the successor', () => {
    const before = deepFreeze(danaGraph());
    const g = deleteNode(before, 'n4');
    expect(chainOf(g, 'SUCCESS')).toEqual(['n3', 'n5']);
    expect(g.edges).toEqual([{ id: 'e1', source: 'n1', target: 'n2' }, { id: 'e2', source: 'n3', target: 'n5' }]);
    expect(g.nodes.map((n) => n.id)).toEqual(['n1', 'n2', 'n3', 'n5']);
    expect(before.nodes).toHaveLength(5);
  });
  it('moves the outcome entry to the successor when deleting the first node', () => {
    const g = deleteNode(danaGraph(), 'n3');
    expect(g.dispositionEntries.SUCCESS).toBe('n4');
    expect(chainOf(g, 'SUCCESS')).toEqual(['n4', 'n5']);
  });
  it('drops the edge when deleting the last node, and the entry when deleting the only node', () => {
    expect(chainOf(deleteNode(danaGraph(), 'n5'), 'SUCCESS')).toEqual(['n3', 'n4']);
    const one = appendNodes(emptyGraph(), 'VOICEMAIL', [{ type: 'add-tag', config: { tags: ['a'] } }]);
    expect(deleteNode(one, 'n1')).toEqual(emptyGraph());
  });
  it('keeps the sourceHandle of a branch edge pointing at the deleted node', () => {
    const g = deleteNode(ifGraph(), 'n2');
    expect(g.edges).toEqual([{ id: 'e2', source: 'n1', target: 'n3', sourceHandle: 'false' }]);
    const longer: Graph = {
      ...ifGraph(),
      nodes: [...ifGraph().nodes, node('n4', 'add-note', { body: 'x' })],
      edges: [...ifGraph().edges, { id: 'e3', source: 'n2', target: 'n4' }],
    };
    expect(deleteNode(longer, 'n2').edges).toContainEqual({ id: 'e1', source: 'n1', target: 'n4', sourceHandle: 'true' });
  });
  it('re-links every predecessor of a shared node', () => {
    const shared: Graph = {
      nodes: [node('a', 'add-tag', { tags: ['a'] }), node('b', 'add-tag', { tags: ['b'] }), node('m', 'add-note', { body: 'm' }), node('z', 'add-note', { body: 'z' })],
      edges: [{ id: 'e1', source: 'a', target: 'm' }, { id: 'e2', source: 'b', target: 'm' }, { id: 'e3', source: 'm', target: 'z' }],
      dispositionEntries: { VOICEMAIL: 'a', CALLBACK: 'b', NO_ACTION: 'm' },
    };
    const g = deleteNode(shared, 'm');
    expect(g.edges).toEqual([{ id: 'e1', source: 'a', target: 'z' }, { id: 'e2', source: 'b', target: 'z' }]);
    expect(g.dispositionEntries).toEqual({ VOICEMAIL: 'a', CALLBACK: 'b', NO_ACTION: 'z' });
    expect(findGraphProblems(g)).toEqual([]);
  });
  it('refuses (VALIDATION) deleting a branch with more than one connected chain', () => {
    const r = refusal(() => deleteNode(ifGraph(), 'n1'));
    expect(r.code).toBe('VALIDATION');
    expect(r.nodeId).toBe('n1');
    expect(r.message).toContain('node n1 (if) has 2 connected branches (true, false)');
    expect(r.message).toContain('PUT');
  });
  it('deletes a branch with one connected chain, re-linking to it', () => {
    const g = deleteNode(deleteNode(ifGraph(), 'n3'), 'n1');
    expect(g.dispositionEntries).toEqual({ CALLBACK: 'n2' });
    expect(g.edges).toEqual([]);
    const dangling = deleteNode(deleteNode(deleteNode(ifGraph(), 'n3'), 'n2'), 'n1');
    expect(dangling).toEqual(emptyGraph());
  });
  it('refuses an unknown node with NOT_FOUND', () => {
    const r = refusal(() => deleteNode(danaGraph(), 'n99'));
    expect(r.code).toBe('NOT_FOUND');
    expect(r.message).toBe('node "n99" is not in this workflow');
  });
});
