import { describe, expect, it } from 'vitest';
import { appendNodes } from '../../../../engine/graph/append.js';
import { emptyGraph } from '../../../../engine/graph/empty.js';
import { idAllocator } from '../../../../engine/graph/ids.js';
import { LANE_WIDTH, ROW_HEIGHT } from '../../../../engine/graph/layout.js';
import type { Graph } from '../../../../engine/graph/types.js';
import { findGraphProblems } from '../../../../engine/graph/validate.js';
import { chainOf } from '../../../../engine/graph/walk.js';
import { danaGraph, deepFreeze, ifGraph, refusal } from './fixtures.js';

const tag = (t: string) => ({ type: 'add-tag', config: { tags: [t] } });
const router = (cases: unknown[], dflt?: unknown[]) => ({ type: 'switch' as const, config: { cases, ...(dflt && { default: { nodes: dflt } }) } }) as never;
const kase = (label: string, nodes: unknown[], extra: Record<string, unknown> = {}) => ({ label, conditions: [{ field: 'call.fields.score', op: 'gt', value: 5 }], nodes, ...extra });

describe('idAllocator', () => {
  it('counts up from the highest <prefix><k>, skipping taken ids', () => {
    const next = idAllocator('n', ['n2', 'n10', 'x99', 'n7a']);
    expect([next(), next()]).toEqual(['n11', 'n12']);
    const fresh = idAllocator('e', []);
    expect(fresh()).toBe('e1');
    const huge = idAllocator('n', ['n99999999999999999999', 'n1']);
    expect(huge()).toBe('n2');
  });
});

describe('appendNodes', () => {
  it('makes the first node the entry of an empty outcome and chains the rest in order', () => {
    const g = appendNodes(emptyGraph(), 'VOICEMAIL', [tag('a'), tag('b'), { type: 'add-note', label: 'Log', config: { body: 'x' } }]);
    expect(g.dispositionEntries).toEqual({ VOICEMAIL: 'n1' });
    expect(g.nodes.map((n) => [n.id, n.type])).toEqual([['n1', 'add-tag'], ['n2', 'add-tag'], ['n3', 'add-note']]);
    expect(g.nodes[2]!.label).toBe('Log');
    expect(g.edges).toEqual([{ id: 'e1', source: 'n1', target: 'n2' }, { id: 'e2', source: 'n2', target: 'n3' }]);
    expect(findGraphProblems(g)).toEqual([]);
  });

  it('appends at the end of the existing chain, never mutating the input', () => {
    const before = deepFreeze(danaGraph());
    const snapshot = JSON.stringify(before);
    const g = appendNodes(before, 'voicemail', [tag('extra')]);
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(chainOf(g, 'VOICEMAIL')).toEqual(['n1', 'n2', 'n6']);
    expect(g.edges.at(-1)).toEqual({ id: 'e4', source: 'n2', target: 'n6' });
    // existing positions kept, the new node below its predecessor
    expect(g.nodes.slice(0, 5)).toEqual(before.nodes);
    const n2 = g.nodes.find((n) => n.id === 'n2')!;
    expect(g.nodes.find((n) => n.id === 'n6')!.position).toEqual({ x: n2.position.x, y: n2.position.y + ROW_HEIGHT });
  });

  it('accepts the outcome in any spelling', () => {
    for (const o of ['CALLBACK', 'callBack', 'Call Back', 'call_back']) expect(appendNodes(emptyGraph(), o, [tag('a')]).dispositionEntries).toEqual({ CALLBACK: 'n1' });
  });

  it('lays out lanes by canonical outcome order', () => {
    let g = appendNodes(emptyGraph(), 'NO_ACTION', [tag('a'), tag('b')]);
    g = appendNodes(g, 'VOICEMAIL', [tag('c')]);
    const pos = Object.fromEntries(g.nodes.map((n) => [n.id, n.position]));
    expect(pos).toEqual({ n1: { x: 3 * LANE_WIDTH, y: 0 }, n2: { x: 3 * LANE_WIDTH, y: ROW_HEIGHT }, n3: { x: 0, y: 0 } });
  });

  it('derives ids above the highest existing ones and never reuses them', () => {
    const base: Graph = {
      nodes: [{ id: 'n7', type: 'add-tag', config: { tags: ['a'] }, position: { x: 0, y: 0 } }, { id: 'n8', type: 'add-tag', config: { tags: ['b'] }, position: { x: 0, y: 0 } }],
      edges: [{ id: 'e4', source: 'n7', target: 'n8' }],
      dispositionEntries: { VOICEMAIL: 'n7' },
    };
    const g = appendNodes(base, 'VOICEMAIL', [tag('c')]);
    expect(g.nodes.at(-1)!.id).toBe('n9');
    expect(g.edges.at(-1)!.id).toBe('e5');
  });

  describe('routers', () => {
    it('expands a switch into one node plus a chain per case and default', () => {
      const g = appendNodes(danaGraph(), 'CALLBACK', [
        router(
          [kase('Hot', [tag('hot'), tag('call-today')]), kase('Warm', [tag('warm')], { id: 'warm', match: 'any' }), kase('Empty', [])],
          [tag('cold')],
        ),
      ]);
      const sw = g.nodes.find((n) => n.id === 'n6')!;
      expect(g.dispositionEntries.CALLBACK).toBe('n6');
      expect(sw.type).toBe('switch');
      expect(sw.config).toEqual({
        cases: [
          { id: 'case-1', label: 'Hot', match: 'all', conditions: [{ field: 'call.fields.score', op: 'gt', value: 5 }] },
          { id: 'warm', label: 'Warm', match: 'any', conditions: [{ field: 'call.fields.score', op: 'gt', value: 5 }] },
          { id: 'case-3', label: 'Empty', match: 'all', conditions: [{ field: 'call.fields.score', op: 'gt', value: 5 }] },
        ],
      });
      const newEdges = g.edges.filter((e) => !danaGraph().edges.some((x) => x.id === e.id));
      expect(newEdges).toEqual([
        { id: 'e4', source: 'n6', target: 'n7', sourceHandle: 'case-1' },
        { id: 'e5', source: 'n7', target: 'n8' },
        { id: 'e6', source: 'n6', target: 'n9', sourceHandle: 'warm' },
        { id: 'e7', source: 'n6', target: 'n10', sourceHandle: 'default' },
      ]);
      expect(g.nodes.find((n) => n.id === 'n10')!.config).toEqual({ tags: ['cold'] });
      expect(findGraphProblems(g)).toEqual([]);
      // branch chains fan out side by side below the switch
      const p = (id: string) => g.nodes.find((n) => n.id === id)!.position;
      expect(p('n7').y).toBe(p('n6').y + ROW_HEIGHT);
      expect(p('n8')).toEqual({ x: p('n7').x, y: p('n7').y + ROW_HEIGHT });
      expect(new Set([p('n7').x, p('n9').x, p('n10').x]).size).toBe(3);
    });

    it('applies the router-level match to cases without their own, and avoids generated id clashes', () => {
      const g = appendNodes(emptyGraph(), 'VOICEMAIL', [
        { type: 'switch', config: { match: 'any', cases: [kase('A', [], { id: 'case-2', match: 'all' }), kase('B', [])] } } as never,
      ]);
      expect((g.nodes[0]!.config as { cases: { id: string; match: string }[] }).cases.map((c) => [c.id, c.match])).toEqual([
        ['case-2', 'all'],
        ['case-3', 'any'],
      ]);
    });

    it('appends after actions and before nothing else', () => {
      const g = appendNodes(emptyGraph(), 'VOICEMAIL', [tag('first'), router([kase('A', [tag('a')])])]);
      expect(g.edges).toEqual([{ id: 'e1', source: 'n1', target: 'n2' }, { id: 'e2', source: 'n2', target: 'n3', sourceHandle: 'case-1' }]);
      const r = refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([kase('A', [])]), tag('after')]));
      expect(r.code).toBe('VALIDATION');
      expect(r.message).toBe('nodes[1]: nothing can follow a router in the same request (nodes[0] is a switch); put these actions in its cases or default');
    });

    it('refuses branches inside a case, bad case ids and bad router configs', () => {
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([kase('A', [router([kase('B', [])])])])])).message).toBe(
        'nodes[0].config.cases[0].nodes[0].type: a router case holds actions only (node n2); build nested branches by replacing the graph (PUT)',
      );
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([kase('A', [], { id: 'default' })])])).message).toContain(
        'nodes[0].config.cases[0].id: "default" is the fall-through handle',
      );
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([kase('A', [], { id: 'x' }), kase('B', [], { id: 'x' })])])).message).toBe(
        'nodes[0].config.cases[1].id: duplicate case id "x" in node n1 (switch)',
      );
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([])])).message).toBe(
        'nodes[0].config.cases: must NOT have fewer than 1 items in node n1 (switch)',
      );
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([{ label: 'A', conditions: [{ field: 'a', op: 'gt' }], nodes: [] }])])).message).toBe(
        'nodes[0].config.cases[0].conditions[0].value: is required in node n1 (switch)',
      );
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([{ label: 'A', conditions: [{ field: 'a', op: 'eq', value: 'CHANGE-ME' }], nodes: [] }])])).field).toBe(
        'nodes[0].config.cases[0].conditions[0].value',
      );
    });

    it('checks the actions inside cases with their request paths', () => {
      const r = refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [router([kase('A', [tag('ok'), { type: 'send-sms', config: { body: 'REPLACE-WITH-TEXT' } }])], [{ type: 'requeue-pd', config: {} }])]));
      expect(r.message).toBe('nodes[0].config.cases[0].nodes[1].config.body: unreplaced stand-in "REPLACE-WITH-TEXT" in node n3 (send-sms)');
      expect(r.problems.map((p) => p.field)).toEqual(['nodes[0].config.cases[0].nodes[1].config.body', 'nodes[0].config.default.nodes[0].type']);
    });
  });

  describe('refusals', () => {
    it('names the request field and the derived node id for a stand-in', () => {
      const r = refusal(() => appendNodes(danaGraph(), 'VOICEMAIL', [tag('a'), tag('b'), { type: 'send-sms', config: { body: 'REPLACE-WITH-NAME' } }]));
      expect(r.code).toBe('VALIDATION');
      expect(r.message).toBe('nodes[2].config.body: unreplaced stand-in "REPLACE-WITH-NAME" in node n8 (send-sms)');
      expect(r.nodeId).toBe('n8');
    });
    it.each(['post-webhook', 'enroll-in-campaign', 'requeue-pd'])('refuses the removed type %s', (type) => {
      const r = refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [{ type, config: { x: 1 } }]));
      expect(r.code).toBe('VALIDATION');
      expect(r.message).toMatch(new RegExp(`^nodes\\[0\\]\\.type: node type "${type}" was removed in July 2026`));
    });
    it('refuses an unknown type listing the valid ones', () => {
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [{ type: 'tag', config: { tags: ['a'] } }])).message).toContain('valid types: add-tag, remove-tag');
    });
    it('refuses an if (built with PUT)', () => {
      const r = refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [{ type: 'if', config: { match: 'all', conditions: [{ field: 'a', op: 'exists' }] } }]));
      expect(r.message).toContain('nodes[0].type: an if node is built by replacing the graph (PUT)');
    });
    it('refuses empty configs (drafts are saved with PUT) and invalid configs', () => {
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [{ type: 'add-note', config: {} }])).message).toBe(
        'nodes[0].config: is empty; an unconfigured draft can only be saved by replacing the whole graph (PUT) in node n1 (add-note)',
      );
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [{ type: 'send-email', config: { subject: 'x' } }])).message).toBe(
        'nodes[0].config.body: is required in node n1 (send-email)',
      );
    });
    it('refuses an empty node list and an unknown outcome', () => {
      expect(refusal(() => appendNodes(emptyGraph(), 'VOICEMAIL', [])).message).toBe('nodes: at least one node is required');
      const r = refusal(() => appendNodes(emptyGraph(), 'BOOKED', [tag('a')]));
      expect([r.code, r.field]).toEqual(['VALIDATION', 'outcome']);
    });
    it('refuses (CONFLICT) appending to a chain that ends in a branch, telling to use PUT', () => {
      const r = refusal(() => appendNodes(ifGraph(), 'CALLBACK', [tag('a')]));
      expect(r.code).toBe('CONFLICT');
      expect(r.nodeId).toBe('n1');
      expect(r.message).toContain('chain ends in a branch, node n1 (if)');
      expect(r.message).toContain('PUT');
      const withRouter = appendNodes(emptyGraph(), 'VOICEMAIL', [tag('x'), router([kase('A', [tag('a')])])]);
      expect(refusal(() => appendNodes(withRouter, 'VOICEMAIL', [tag('b')])).code).toBe('CONFLICT');
    });
  });
});
