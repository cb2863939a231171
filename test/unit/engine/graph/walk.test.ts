import { describe, expect, it } from 'vitest';
import type { Graph } from '../../../../engine/graph/types.js';
import { chainFrom, chainOf, entryOf, handlesOf, nextStep, outcomeOfNodes, reachable, successor } from '../../../../engine/graph/walk.js';
import { danaGraph, ifGraph, node } from './fixtures.js';

describe('walk', () => {
  it('entryOf reads the entry in any spelling of the outcome, null when absent', () => {
    expect(entryOf(danaGraph(), 'VOICEMAIL')).toBe('n1');
    expect(entryOf(danaGraph(), 'voicemail')).toBe('n1');
    expect(entryOf(danaGraph(), 'CALLBACK')).toBeNull();
    expect(entryOf(danaGraph(), 'nonsense')).toBeNull();
  });
  it('successor follows the handle-less edge, or the named handle', () => {
    expect(successor(danaGraph(), 'n1')).toBe('n2');
    expect(successor(danaGraph(), 'n2')).toBeNull();
    expect(successor(ifGraph(), 'n1')).toBeNull();
    expect(successor(ifGraph(), 'n1', 'true')).toBe('n2');
    expect(successor(ifGraph(), 'n1', 'false')).toBe('n3');
  });
  it('chainOf lists the linear chain, stopping at a branch (included)', () => {
    expect(chainOf(danaGraph(), 'SUCCESS')).toEqual(['n3', 'n4', 'n5']);
    expect(chainOf(ifGraph(), 'CALLBACK')).toEqual(['n1']);
    expect(chainOf(danaGraph(), 'TRANSFER')).toEqual([]);
  });
  it('chainFrom stops on a repeat, even in a malformed cyclic graph', () => {
    const cyclic: Graph = { nodes: [node('a', 'add-tag'), node('b', 'add-tag')], edges: [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'b', target: 'a' }], dispositionEntries: {} };
    expect(chainFrom(cyclic, 'a')).toEqual(['a', 'b']);
  });
  it('chainFrom follows the step a run takes: the first handle-less edge, past edges with a handle', () => {
    // Malformed on purpose (two plain edges out of `a`, one with a handle first): the chain and `successor` agree.
    const g: Graph = {
      nodes: [node('a', 'add-tag'), node('b', 'add-tag'), node('c', 'add-tag'), node('d', 'add-tag')],
      edges: [{ id: 'e0', source: 'a', target: 'd', sourceHandle: 'x' }, { id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'a', target: 'c' }, { id: 'e3', source: 'b', target: 'c' }],
      dispositionEntries: {},
    };
    expect(successor(g, 'a')).toBe('b');
    expect(chainFrom(g, 'a')).toEqual(['a', 'b', 'c']);
  });
  it('nextStep evaluates branches against the run context', () => {
    const g = ifGraph();
    const ifNode = g.nodes[0]!;
    expect(nextStep(g, ifNode, { call: { fields: { callback_time: 'tomorrow 10am' } } })).toEqual({ handle: 'true', next: 'n2' });
    expect(nextStep(g, ifNode, { call: { fields: {} } })).toEqual({ handle: 'false', next: 'n3' });
    expect(nextStep(g, g.nodes[1]!, {})).toEqual({ next: null });
    const sw: Graph = {
      nodes: [node('s', 'switch', { cases: [{ id: 'long', label: 'Long', match: 'all', conditions: [{ field: 'call.duration', op: 'gte', value: 60 }] }] }), node('t', 'add-tag', { tags: ['x'] })],
      edges: [{ id: 'e1', source: 's', target: 't', sourceHandle: 'long' }],
      dispositionEntries: { VOICEMAIL: 's' },
    };
    expect(nextStep(sw, sw.nodes[0]!, { call: { duration: 61 } })).toEqual({ handle: 'long', next: 't' });
    expect(nextStep(sw, sw.nodes[0]!, { call: { duration: 5 } })).toEqual({ handle: 'default', next: null });
    expect(nextStep(sw, node('s', 'switch'), { call: { duration: 61 } })).toEqual({ handle: 'default', next: null });
  });
  it('handlesOf lists branch handles in order', () => {
    expect(handlesOf(node('i', 'if'))).toEqual(['true', 'false']);
    expect(handlesOf(node('s', 'switch', { cases: [{ id: 'a' }, { id: 'b' }] }))).toEqual(['a', 'b', 'default']);
    expect(handlesOf(node('x', 'add-tag'))).toEqual([]);
  });
  it('reachable and outcomeOfNodes follow every edge from the entries', () => {
    const g = { ...ifGraph(), nodes: [...ifGraph().nodes, node('orphan', 'add-tag', { tags: ['o'] })] };
    expect([...reachable(g)].sort()).toEqual(['n1', 'n2', 'n3']);
    const both = { ...danaGraph(), dispositionEntries: { NO_ACTION: 'n2', VOICEMAIL: 'n1' } };
    expect(Object.fromEntries(outcomeOfNodes(both))).toEqual({ n1: 'VOICEMAIL', n2: 'VOICEMAIL' });
  });
});
