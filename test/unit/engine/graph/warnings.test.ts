import { describe, expect, it } from 'vitest';
import type { Graph } from '../../../../engine/graph/types.js';
import { computeWarnings, type WarningContext } from '../../../../engine/graph/warnings.js';
import { WARNING_CODES } from '../../../../schemas/workflow.js';
import { danaGraph, ifGraph, node } from './fixtures.js';

const clean: WarningContext = { emittable: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION'], hasCallerId: true, hasCalendar: true };
const codes = (g: Graph, ctx: WarningContext = clean) => computeWarnings(g, ctx).map((w) => [w.code, w.nodeId ?? null, w.outcome ?? null]);

describe('computeWarnings', () => {
  it('is empty on a clean graph', () => {
    expect(computeWarnings(danaGraph(), clean)).toEqual([]);
    expect(computeWarnings(ifGraph(), clean)).toEqual([]);
    expect(computeWarnings({ nodes: [], edges: [], dispositionEntries: {} }, clean)).toEqual([]);
  });
  it('SMS_WITHOUT_CALLER_ID: send-sms without fromNumber while the campaign has no caller ID', () => {
    expect(codes(danaGraph(), { ...clean, hasCallerId: false })).toEqual([['SMS_WITHOUT_CALLER_ID', 'n1', 'VOICEMAIL']]);
    const own = { ...danaGraph(), nodes: danaGraph().nodes.map((n) => (n.id === 'n1' ? { ...n, config: { ...n.config, fromNumber: '+15125550100' } } : n)) };
    expect(codes(own, { ...clean, hasCallerId: false })).toEqual([]);
  });
  it('APPOINTMENT_WITHOUT_CALENDAR: book-appointment without calendarId while the campaign has none', () => {
    const [w] = computeWarnings(danaGraph(), { ...clean, hasCalendar: false });
    expect(w).toMatchObject({ code: 'APPOINTMENT_WITHOUT_CALENDAR', nodeId: 'n4', outcome: 'SUCCESS' });
    expect(w!.message).toContain('calendarId');
    const own = { ...danaGraph(), nodes: danaGraph().nodes.map((n) => (n.id === 'n4' ? { ...n, config: { ...n.config, calendarId: 'cal' } } : n)) };
    expect(codes(own, { ...clean, hasCalendar: false })).toEqual([]);
  });
  it('OUTCOME_NOT_EMITTABLE: a chain on an outcome the agent can never end in', () => {
    const [w] = computeWarnings(danaGraph(), { ...clean, emittable: ['VOICEMAIL', 'CALLBACK', 'NO_ACTION'] });
    expect(w).toMatchObject({ code: 'OUTCOME_NOT_EMITTABLE', outcome: 'SUCCESS', nodeId: 'n3' });
    expect(w!.message).toContain('appointment_booking');
  });
  it('UNREACHABLE_NODE: a node no outcome reaches', () => {
    const g = { ...danaGraph(), nodes: [...danaGraph().nodes, node('n9', 'add-tag', { tags: ['x'] })] };
    expect(codes(g)).toEqual([['UNREACHABLE_NODE', 'n9', null]]);
  });
  it('DRAFT_NODE_SKIPPED: empty configs, with where a draft branch continues', () => {
    const g: Graph = { ...ifGraph(), nodes: ifGraph().nodes.map((n) => (n.id === 'n1' || n.id === 'n3' ? { ...n, config: {} } : n)) };
    const ws = computeWarnings(g, clean);
    expect(ws.map((w) => [w.code, w.nodeId])).toEqual([['DRAFT_NODE_SKIPPED', 'n1'], ['DRAFT_NODE_SKIPPED', 'n3']]);
    expect(ws[0]!.message).toContain('false branch');
  });
  it('BRANCH_HANDLE_UNCONNECTED: each handle of a branch that leads nowhere', () => {
    const g: Graph = { ...ifGraph(), edges: [ifGraph().edges[0]!], nodes: ifGraph().nodes.slice(0, 2) };
    const [w] = computeWarnings(g, clean);
    expect(w).toMatchObject({ code: 'BRANCH_HANDLE_UNCONNECTED', nodeId: 'n1', outcome: 'CALLBACK' });
    expect(w!.message).toContain('otherwise (false)');
    const sw: Graph = {
      nodes: [node('s', 'switch', { cases: [{ id: 'hot', label: 'Hot', match: 'all', conditions: [{ field: 'a', op: 'exists' }] }] })],
      edges: [],
      dispositionEntries: { VOICEMAIL: 's' },
    };
    expect(computeWarnings(sw, clean).map((w) => w.message)).toEqual([
      'node s (switch): branch case "Hot" (hot) leads nowhere; runs taking it end there',
      'node s (switch): branch default leads nowhere; runs taking it end there',
    ]);
  });
  it('TAG_ADDED_AND_REMOVED: the same tag added and removed along one chain', () => {
    const g: Graph = {
      nodes: [node('a', 'add-tag', { tags: ['x', 'y'] }), node('b', 'add-note', { body: 'n' }), node('c', 'remove-tag', { tags: ['y'] })],
      edges: [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'b', target: 'c' }],
      dispositionEntries: { VOICEMAIL: 'a' },
    };
    const ws = computeWarnings(g, clean);
    expect(ws.map((w) => [w.code, w.nodeId, w.outcome])).toEqual([['TAG_ADDED_AND_REMOVED', 'c', 'VOICEMAIL']]);
    expect(ws[0]!.message).toBe('Voicemail: tag "y" is added by a and then removed by c on the same run; the first step has no lasting effect');
  });
  it('TAG_ADDED_AND_REMOVED only along one path: different branches do not conflict', () => {
    const g: Graph = {
      ...ifGraph(),
      nodes: [ifGraph().nodes[0]!, node('n2', 'add-tag', { tags: ['t'] }), node('n3', 'remove-tag', { tags: ['t'] })],
    };
    expect(computeWarnings(g, clean)).toEqual([]);
    const sequential: Graph = { ...g, nodes: [...g.nodes, node('n4', 'add-tag', { tags: ['t'] })], edges: [...g.edges, { id: 'e3', source: 'n3', target: 'n4' }] };
    expect(codes(sequential)).toEqual([['TAG_ADDED_AND_REMOVED', 'n4', 'CALLBACK']]);
  });
  it('only uses the stable codes of the schema', () => {
    const g: Graph = { nodes: [node('d', 'send-sms'), node('s', 'send-sms', { body: 'x' })], edges: [], dispositionEntries: { TRANSFER: 's' } };
    for (const w of computeWarnings(g, { emittable: [], hasCallerId: false, hasCalendar: false })) expect(WARNING_CODES).toContain(w.code);
  });
});
