import { describe, expect, it } from 'vitest';
import { appendNodes } from '../../../../engine/graph/append.js';
import { describeChange } from '../../../../engine/graph/describe-change.js';
import { emptyGraph } from '../../../../engine/graph/empty.js';
import { patchNodes } from '../../../../engine/graph/patch.js';
import { deleteNode } from '../../../../engine/graph/relink.js';
import { switchOutcome } from '../../../../engine/graph/switch-outcome.js';
import { danaGraph, ifGraph } from './fixtures.js';

const tag = (t: string) => ({ type: 'add-tag', config: { tags: [t] } });

describe('describeChange', () => {
  it('names appends with their outcome', () => {
    expect(describeChange(danaGraph(), appendNodes(danaGraph(), 'VOICEMAIL', [tag('a'), tag('b')]))).toBe('appended 2 nodes to VOICEMAIL');
    expect(describeChange(emptyGraph(), appendNodes(emptyGraph(), 'CALLBACK', [tag('a')]))).toBe('appended 1 node to CALLBACK');
  });
  it('names a delete', () => {
    expect(describeChange(danaGraph(), deleteNode(danaGraph(), 'n4'))).toBe('deleted n4');
    expect(describeChange(danaGraph(), deleteNode(danaGraph(), 'n1'))).toBe('deleted n1');
  });
  it('names edits, entry switches and moves', () => {
    expect(describeChange(danaGraph(), patchNodes(danaGraph(), [{ id: 'n1', config: { body: 'x' } }]))).toBe('changed n1 (send-sms)');
    expect(describeChange(danaGraph(), switchOutcome(danaGraph(), 'VOICEMAIL', 'n2'))).toBe('VOICEMAIL now starts at n2');
    expect(describeChange(danaGraph(), switchOutcome(danaGraph(), 'SUCCESS', null))).toBe('SUCCESS cleared');
    const moved = { ...danaGraph(), nodes: danaGraph().nodes.map((n) => ({ ...n, position: { x: n.position.x + 1, y: n.position.y } })) };
    expect(describeChange(danaGraph(), moved)).toBe('moved 5 nodes');
    expect(describeChange(danaGraph(), danaGraph())).toBe('no change');
  });
  it('summarises anything else as a replaced graph', () => {
    expect(describeChange(danaGraph(), ifGraph())).toBe('replaced graph: 3 nodes, 2 edges');
  });
});
