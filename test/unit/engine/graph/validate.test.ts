import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { findGraphProblems, prepareGraph, validateGraph } from '../../../../engine/graph/validate.js';
import type { GraphInput } from '../../../../engine/graph/types.js';
import * as schemas from '../../../../schemas/workflow.js';
import { deepFreeze, ifGraph, node, refusal } from './fixtures.js';

const graph = (nodes: unknown[], edges: unknown[] = [], dispositionEntries: Record<string, string> = {}) =>
  ({ nodes, edges, dispositionEntries }) as unknown as GraphInput;
const first = (g: GraphInput) => findGraphProblems(g)[0];

describe('validateGraph: node types', () => {
  it.each(['post-webhook', 'enroll-in-campaign', 'requeue-pd'])('refuses the removed type %s, saying it was removed', (type) => {
    const r = refusal(() => validateGraph(graph([node('n1', 'add-tag', { tags: ['a'] }), node('n2', type, { url: 'https://hooks.brightsmile.dental' })])));
    expect(r.code).toBe('VALIDATION');
    expect(r.field).toBe('nodes[1].type');
    expect(r.nodeId).toBe('n2');
    expect(r.message).toContain(`nodes[1].type: node type "${type}" was removed in July 2026`);
    expect(r.message).toContain('node n2');
  });
  it('refuses an unknown type listing the valid ones', () => {
    const r = refusal(() => validateGraph(graph([node('x', 'send-fax', { to: '1' })])));
    expect(r.message).toBe(
      'nodes[0].type: unknown node type "send-fax" (node x); valid types: add-tag, remove-tag, set-field, move-stage, add-note, send-sms, send-email, book-appointment, if, switch',
    );
  });
  it('accepts every writable type with a valid config', () => {
    const g = graph([
      node('a', 'add-tag', { tags: ['a'] }),
      node('b', 'remove-tag', { tags: ['b', 'c'] }),
      node('c', 'set-field', { field: 'contact.x', value: 3 }),
      node('d', 'move-stage', { pipelineId: 'p', stageId: 's' }),
      node('e', 'add-note', { body: 'note' }),
      node('f', 'send-sms', { body: 'hi', fromNumber: '+15125550100' }),
      node('g', 'send-email', { subject: 's', body: 'b', to: '{{contact.email}}' }),
      node('h', 'book-appointment', { calendarId: 'cal', startField: 'appointment_time', durationMinutes: 30 }),
      node('i', 'if', { match: 'any', conditions: [{ field: 'call.duration', op: 'gt', value: 10 }] }),
      node('j', 'switch', { cases: [{ id: 'hot', label: 'Hot', match: 'all', conditions: [{ field: 'contact.tags', op: 'in', value: ['hot'] }] }] }),
    ]);
    expect(findGraphProblems(g)).toEqual([]);
    expect(() => validateGraph(g)).not.toThrow();
  });
  it('accepts an empty config as a draft for every type', () => {
    for (const type of schemas.NODE_TYPES) expect(findGraphProblems(graph([node('n1', type, {})]))).toEqual([]);
  });
});

describe('validateGraph: configs', () => {
  it.each([
    [node('n1', 'add-tag', { tags: [] }), 'nodes[0].config.tags: must NOT have fewer than 1 items in node n1 (add-tag)'],
    [node('n1', 'send-sms', { text: 'hi' }), 'nodes[0].config.body: is required in node n1 (send-sms)'],
    [node('n1', 'send-sms', { body: 'hi', fromNumber: '512-555-0100' }), 'nodes[0].config.fromNumber: must be an E.164 phone number: + and 10 to 15 digits in node n1 (send-sms)'],
    [node('n1', 'send-sms', { body: 'hi', media: 'x' }), 'nodes[0].config.media: is not a setting here (allowed: body, fromNumber) in node n1 (send-sms)'],
    [node('n1', 'book-appointment', { durationMinutes: 500 }), 'nodes[0].config.durationMinutes: must be <= 480 in node n1 (book-appointment)'],
    [node('n1', 'book-appointment', { durationMinutes: 4 }), 'nodes[0].config.durationMinutes: must be >= 5 in node n1 (book-appointment)'],
    [node('n1', 'set-field', { field: 'x' }), 'nodes[0].config.value: is required in node n1 (set-field)'],
    [node('n1', 'if', { match: 'most', conditions: [{ field: 'a', op: 'exists' }] }), 'nodes[0].config.match: must be one of "all", "any" in node n1 (if)'],
    [node('n1', 'if', { match: 'all', conditions: [{ field: 'a', op: 'eq' }] }), 'nodes[0].config.conditions[0].value: is required in node n1 (if)'],
    [node('n1', 'if', { match: 'all', conditions: [{ field: 'a', op: 'in', value: 'x' }] }), 'nodes[0].config.conditions[0].value: must be array in node n1 (if)'],
    [node('n1', 'if', { match: 'all', conditions: [{ field: 'a', op: 'like', value: 'x' }] }), 'nodes[0].config.conditions[0].op: must be one of'],
    [node('n1', 'if', { match: 'all', conditions: [] }), 'nodes[0].config.conditions: must NOT have fewer than 1 items in node n1 (if)'],
  ])('refuses %j', (n, message) => {
    const r = refusal(() => validateGraph(graph([n])));
    expect(r.code).toBe('VALIDATION');
    expect(r.message).toContain(message);
    expect(r.nodeId).toBe('n1');
  });
  it('refuses a config that is not an object', () => {
    expect(first(graph([{ id: 'n1', type: 'add-note', config: 'hi' }]))?.message).toBe('nodes[0].config: must be an object in node n1 (add-note)');
  });
  it('refuses stand-ins, naming the node and the field', () => {
    const r = refusal(() =>
      validateGraph(graph([node('n1', 'add-tag', { tags: ['a'] }), node('n2', 'add-tag', { tags: ['b'] }), node('n3', 'send-sms', { body: 'REPLACE-WITH-NAME' })])),
    );
    expect(r.message).toBe('nodes[2].config.body: unreplaced stand-in "REPLACE-WITH-NAME" in node n3 (send-sms)');
    expect(r.field).toBe('nodes[2].config.body');
    expect(first(graph([node('n1', 'add-tag', { tags: ['ok', 'CHANGE-ME'] })]))?.field).toBe('nodes[0].config.tags[1]');
    expect(first(graph([node('n1', 'add-note', { body: 'see https://example.com/x' })]))?.message).toContain('reserved documentation host example.com');
    expect(
      first(graph([node('n1', 'if', { match: 'all', conditions: [{ field: 'contact.site', op: 'eq', value: 'https://clinic.test' }] })]))?.field,
    ).toBe('nodes[0].config.conditions[0].value');
  });
  it('refuses duplicate and reserved switch case ids', () => {
    const c = (id: string) => ({ id, label: id, match: 'all', conditions: [{ field: 'a', op: 'exists' }] });
    expect(first(graph([node('s', 'switch', { cases: [c('a'), c('a')] })]))?.message).toBe('nodes[0].config.cases[1].id: duplicate case id "a" in node s (switch)');
    expect(first(graph([node('s', 'switch', { cases: [c('default')] })]))?.message).toContain('nodes[0].config.cases[0].id: "default" is the fall-through handle');
  });
});

describe('validateGraph: ids, edges, handles, entries, cycles', () => {
  it('refuses duplicate node ids', () => {
    const r = refusal(() => validateGraph(graph([node('n1', 'add-tag', { tags: ['a'] }), node('n1', 'add-note', { body: 'x' })])));
    expect(r.message).toBe('nodes[1].id: duplicate node id "n1" (also nodes[0])');
  });
  it('refuses duplicate edge ids', () => {
    const nodes = [node('a', 'add-tag', { tags: ['a'] }), node('b', 'add-tag', { tags: ['b'] }), node('c', 'add-tag', { tags: ['c'] })];
    const r = refusal(() => validateGraph(graph(nodes, [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e1', source: 'b', target: 'c' }])));
    expect(r.message).toBe('edges[1].id: duplicate edge id "e1" (also edges[0])');
  });
  it('refuses edges pointing at missing nodes', () => {
    const nodes = [node('a', 'add-tag', { tags: ['a'] })];
    expect(first(graph(nodes, [{ id: 'e1', source: 'a', target: 'zz' }]))?.message).toBe('edges[0].target: node "zz" does not exist (edge e1)');
    expect(first(graph(nodes, [{ id: 'e1', source: 'yy', target: 'a' }]))?.message).toBe('edges[0].source: node "yy" does not exist (edge e1)');
  });
  it('checks sourceHandle against the source: if true/false, switch case ids or default, actions none', () => {
    const g = ifGraph();
    expect(findGraphProblems(g)).toEqual([]);
    const bad = { ...g, edges: [{ ...g.edges[0]!, sourceHandle: 'yes' }, g.edges[1]!] };
    expect(first(bad)?.message).toBe('edges[0].sourceHandle: "yes" is not a handle out of node n1 (if); use one of "true", "false" (edge e1)');
    const missing = { ...g, edges: [{ id: 'e1', source: 'n1', target: 'n2' }] };
    expect(first(missing)?.message).toContain('edges[0].sourceHandle: is required out of node n1 (if)');
    const fromAction = { ...g, edges: [...g.edges, { id: 'e3', source: 'n2', target: 'n3', sourceHandle: 'true' }] };
    expect(first(fromAction)?.message).toBe('edges[2].sourceHandle: node n2 (set-field) is an action and has no branch handles; leave sourceHandle out (edge e3)');

    const sw = node('s', 'switch', { cases: [{ id: 'hot', label: 'Hot', match: 'all', conditions: [{ field: 'a', op: 'exists' }] }] });
    const t1 = node('t1', 'add-tag', { tags: ['a'] });
    const t2 = node('t2', 'add-tag', { tags: ['b'] });
    expect(findGraphProblems(graph([sw, t1, t2], [{ id: 'e1', source: 's', target: 't1', sourceHandle: 'hot' }, { id: 'e2', source: 's', target: 't2', sourceHandle: 'default' }]))).toEqual([]);
    expect(first(graph([sw, t1], [{ id: 'e1', source: 's', target: 't1', sourceHandle: 'cold' }]))?.message).toContain('use one of "hot", "default"');
    // a draft switch has only its default handle
    expect(first(graph([node('s', 'switch'), t1], [{ id: 'e1', source: 's', target: 't1', sourceHandle: 'hot' }]))?.message).toContain('use one of "default"');
    expect(findGraphProblems(graph([node('s', 'switch'), t1], [{ id: 'e1', source: 's', target: 't1', sourceHandle: 'default' }]))).toEqual([]);
  });
  it('treats a null sourceHandle as none', () => {
    const nodes = [node('a', 'add-tag', { tags: ['a'] }), node('b', 'add-tag', { tags: ['b'] })];
    expect(findGraphProblems(graph(nodes, [{ id: 'e1', source: 'a', target: 'b', sourceHandle: null }]))).toEqual([]);
  });
  it('allows an action at most one outgoing edge and a branch handle at most one', () => {
    const nodes = [node('a', 'add-tag', { tags: ['a'] }), node('b', 'add-tag', { tags: ['b'] }), node('c', 'add-tag', { tags: ['c'] })];
    const r = refusal(() => validateGraph(graph(nodes, [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'a', target: 'c' }])));
    expect(r.message).toBe('edges[1].source: node a (add-tag) already continues through edge e1; an action leads to at most one next node (edge e2)');
    const g = ifGraph();
    const twice = { ...g, edges: [...g.edges, { id: 'e3', source: 'n1', target: 'n3', sourceHandle: 'true' }] };
    expect(first(twice)?.message).toBe('edges[2].sourceHandle: handle "true" of node n1 (if) is already connected by edge e1; one chain per branch (edge e3)');
  });
  it('refuses cycles, naming them', () => {
    const nodes = [node('a', 'add-tag', { tags: ['a'] }), node('b', 'add-tag', { tags: ['b'] }), node('c', 'add-tag', { tags: ['c'] })];
    const edges = [{ id: 'e1', source: 'a', target: 'b' }, { id: 'e2', source: 'b', target: 'c' }, { id: 'e3', source: 'c', target: 'a' }];
    const r = refusal(() => validateGraph(graph(nodes, edges, { VOICEMAIL: 'a' })));
    expect(r.field).toBe('edges');
    expect(r.message).toBe('edges: the edges form a cycle a → b → c → a; a run must always end');
    expect(first(graph([nodes[0]!], [{ id: 'e1', source: 'a', target: 'a' }]))?.message).toContain('cycle a → a');
  });
  it('refuses entries with unknown or non-upper-case outcomes and missing nodes', () => {
    const nodes = [node('a', 'add-tag', { tags: ['a'] })];
    expect(first(graph(nodes, [], { callBack: 'a' }))?.message).toBe('dispositionEntries.callBack: outcome keys are raw dispositions in upper case; use "CALLBACK"');
    expect(first(graph(nodes, [], { BOOKED: 'a' }))?.message).toBe(
      'dispositionEntries.BOOKED: unknown outcome; valid: VOICEMAIL, SUCCESS, CALLBACK, NO_ACTION, TRANSFER, RESCHEDULE',
    );
    expect(first(graph(nodes, [], { VOICEMAIL: 'zz' }))?.message).toBe('dispositionEntries.VOICEMAIL: node "zz" does not exist');
    expect(findGraphProblems(graph(nodes, [], { VOICEMAIL: 'a', CALLBACK: 'a' }))).toEqual([]);
  });
  it('reports every problem, and throws the first with all attached', () => {
    const g = graph([node('a', 'post-webhook', {}), node('a', 'add-tag', {})], [{ id: 'e1', source: 'a', target: 'zz' }], { nope: 'a' });
    const problems = findGraphProblems(g);
    expect(problems.map((p) => p.field)).toEqual(['nodes[0].type', 'nodes[1].id', 'edges[0].target', 'dispositionEntries.nope']);
    const r = refusal(() => validateGraph(g));
    expect(r.problems).toEqual(problems);
    expect(r.message).toBe(problems[0]!.message);
  });
  it('refuses non-finite positions and malformed shapes', () => {
    expect(first(graph([{ id: 'a', type: 'add-tag', config: { tags: ['a'] }, position: { x: 'left', y: 0 } }]))?.field).toBe('nodes[0].position');
    expect(first(graph(['nope']))?.message).toBe('nodes[0]: must be an object with id, type and config');
    expect(first(graph([{ id: 'a', type: 'add-tag', label: 7, config: { tags: ['a'] } }]))?.message).toBe('nodes[0].label: must be text in node a (add-tag)');
    expect(findGraphProblems({ nodes: 1, edges: [], dispositionEntries: {} } as never)[0]?.message).toBe('nodes: must be an array');
  });
});

describe('prepareGraph (PUT)', () => {
  it('validates, drops null handles and unknown keys, lays out nodes without a position, keeps given ones', () => {
    const input = deepFreeze(
      graph(
        [
          { id: 'a', type: 'add-tag', config: { tags: ['a'] }, position: { x: 5, y: 7 } },
          { id: 'b', type: 'add-note', label: 'Note', config: { body: 'x' } },
        ],
        [{ id: 'e1', source: 'a', target: 'b', sourceHandle: null }],
        { VOICEMAIL: 'a' },
      ),
    );
    const g = prepareGraph(input);
    expect(g.edges).toEqual([{ id: 'e1', source: 'a', target: 'b' }]);
    expect(g.nodes[0]!.position).toEqual({ x: 5, y: 7 });
    expect(g.nodes[1]).toEqual({ id: 'b', type: 'add-note', label: 'Note', config: { body: 'x' }, position: { x: 5, y: 147 } });
    expect(g.dispositionEntries).toEqual({ VOICEMAIL: 'a' });
  });
  it('refuses what validateGraph refuses', () => {
    expect(refusal(() => prepareGraph(graph([node('a', 'requeue-pd', {})]))).message).toContain('removed');
  });
});

describe('schemas/workflow.ts', () => {
  const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  const bodies = ['AppendNodesBody', 'PutWorkflowBody', 'PatchWorkflowBody', 'SwitchOutcomeBody', 'Workflow', 'Warning', 'WorkflowNode', 'WorkflowEdge'] as const;

  it.each(bodies)('%s compiles under strict ajv (draft 2020-12)', (name) => {
    expect(() => ajv.compile(schemas[name])).not.toThrow();
  });
  it('every node type has a config schema', () => {
    expect(Object.keys(schemas.nodeConfigSchemas).sort()).toEqual([...schemas.NODE_TYPES].sort());
  });
  it('AppendNodesBody: at least one node, expectedVersion >= 0, permissive on type, strict on extra keys', () => {
    const v = ajv.compile(schemas.AppendNodesBody);
    expect(v({ nodes: [{ type: 'add-tag', config: { tags: ['a'] } }], expectedVersion: 3 })).toBe(true);
    expect(v({ nodes: [{ type: 'post-webhook', config: {} }] })).toBe(true);
    expect(v({ nodes: [] })).toBe(false);
    expect(v({ nodes: [{ type: 'add-tag', config: {} }], expectedVersion: -1 })).toBe(false);
    expect(v({ nodes: [{ id: 'n1', type: 'add-tag', config: {} }] })).toBe(false);
    expect(
      v({
        nodes: [
          {
            type: 'switch',
            config: { cases: [{ label: 'Hot', conditions: [{ field: 'a', op: 'exists' }], nodes: [{ type: 'add-tag', config: { tags: ['hot'] } }] }], default: { nodes: [] } },
          },
        ],
      }),
    ).toBe(true);
  });
  it('PutWorkflowBody accepts positions and null handles; PatchWorkflowBody needs at least one node', () => {
    const put = ajv.compile(schemas.PutWorkflowBody);
    expect(put({ nodes: [{ id: 'a', type: 'x', config: {}, position: { x: 1, y: 2 } }], edges: [{ id: 'e', source: 'a', target: 'a', sourceHandle: null }], dispositionEntries: { voicemail: 'a' }, expectedVersion: 1 })).toBe(true);
    // Spec 4.12: a whole-graph replace must send expectedVersion.
    expect(put({ nodes: [{ id: 'a', type: 'x', config: {} }], edges: [], dispositionEntries: {} })).toBe(false);
    expect(put({ nodes: [], edges: [] })).toBe(false);
    const patch = ajv.compile(schemas.PatchWorkflowBody);
    expect(patch({ nodes: [{ id: 'a', label: null, config: { body: 'x' } }] })).toBe(true);
    expect(patch({ nodes: [] })).toBe(false);
    expect(patch({ nodes: [{ id: 'a', type: 'add-tag' }] })).toBe(false);
    const sw = ajv.compile(schemas.SwitchOutcomeBody);
    expect(sw({ nodeId: null })).toBe(true);
    expect(sw({ nodeId: 'n1', expectedVersion: 0 })).toBe(true);
    expect(sw({})).toBe(false);
  });
});
