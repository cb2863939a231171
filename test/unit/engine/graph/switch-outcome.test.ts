import { describe, expect, it } from 'vitest';
import { switchOutcome } from '../../../../engine/graph/switch-outcome.js';
import { computeWarnings } from '../../../../engine/graph/warnings.js';
import { danaGraph, deepFreeze, refusal } from './fixtures.js';

describe('switchOutcome', () => {
  it('points an outcome at an existing node, in any spelling of the outcome', () => {
    const before = deepFreeze(danaGraph());
    const g = switchOutcome(before, 'No Action', 'n2');
    expect(g.dispositionEntries).toEqual({ VOICEMAIL: 'n1', SUCCESS: 'n3', NO_ACTION: 'n2' });
    expect(before.dispositionEntries).toEqual({ VOICEMAIL: 'n1', SUCCESS: 'n3' });
    expect(switchOutcome(g, 'VOICEMAIL', 'n4').dispositionEntries.VOICEMAIL).toBe('n4');
  });
  it('clears an outcome with null, leaving its nodes (now unreachable) in place', () => {
    const g = switchOutcome(danaGraph(), 'SUCCESS', null);
    expect(g.dispositionEntries).toEqual({ VOICEMAIL: 'n1' });
    expect(g.nodes).toHaveLength(5);
    const unreachable = computeWarnings(g, { emittable: ['VOICEMAIL', 'SUCCESS'], hasCallerId: true, hasCalendar: true }).filter((w) => w.code === 'UNREACHABLE_NODE');
    expect(unreachable.map((w) => w.nodeId)).toEqual(['n3', 'n4', 'n5']);
  });
  it('refuses an unknown node (NOT_FOUND) and an unknown outcome (VALIDATION)', () => {
    const r = refusal(() => switchOutcome(danaGraph(), 'VOICEMAIL', 'n42'));
    expect([r.code, r.message]).toEqual(['NOT_FOUND', 'nodeId: node "n42" is not in this workflow']);
    expect(refusal(() => switchOutcome(danaGraph(), 'MAYBE', 'n1')).code).toBe('VALIDATION');
  });
});
