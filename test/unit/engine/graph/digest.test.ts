import { describe, expect, it } from 'vitest';
import { appendNodes } from '../../../../engine/graph/append.js';
import { describeNode, digestGraph, excerpt } from '../../../../engine/graph/digest.js';
import { emptyGraph } from '../../../../engine/graph/empty.js';
import type { Graph } from '../../../../engine/graph/types.js';
import { danaGraph, ifGraph, node } from './fixtures.js';

describe('excerpt', () => {
  it('keeps short text, cuts long text at the first clause or a word boundary, never inside a token', () => {
    expect(excerpt('Short one')).toBe('Short one');
    expect(excerpt('Hi {{contact.firstName}}, this is {{custom_values.business_name}} — sorry we missed you!')).toBe('Hi {{contact.firstName}}…');
    expect(excerpt('Please call us back at your earliest convenience about the visit')).toBe('Please call us back at your earliest…');
    expect(excerpt('Hello there {{custom_values.a_very_long_business_name_token}} and more')).toBe('Hello there…');
  });
});

describe('describeNode', () => {
  it.each([
    [node('a', 'add-tag', { tags: ['vm-left'] }), 'add tag vm-left'],
    [node('a', 'add-tag', { tags: ['a', 'b'] }), 'add tags a, b'],
    [node('a', 'remove-tag', { tags: ['new-lead'] }), 'remove tag new-lead'],
    [node('a', 'set-field', { field: 'contact.score', value: 5 }), 'set field contact.score to 5'],
    [node('a', 'move-stage', { pipelineId: 'patients', stageId: 'booked' }), 'move to stage booked of pipeline patients'],
    [node('a', 'add-note', { body: 'Summary' }), 'add note "Summary"'],
    [node('a', 'send-sms', { body: 'Hi', fromNumber: '+15125550100' }), 'send SMS "Hi" from +15125550100'],
    [node('a', 'send-email', { subject: 'Your visit', body: 'x', to: 'a@b.co' }), 'send email "Your visit" to a@b.co'],
    [node('a', 'book-appointment', { startField: 'appointment_time', durationMinutes: 30, calendarId: 'c1' }), 'book appointment at call.fields.appointment_time for 30 min on calendar c1'],
    [node('a', 'send-sms'), 'send SMS (draft, skipped)'],
  ])('%j', (n, text) => expect(describeNode(n)).toBe(text));
});

describe('digestGraph', () => {
  it("reads Dana's workflow as a sentence per outcome", () => {
    let g: Graph = danaGraph();
    const callback: Graph = {
      nodes: ifGraph().nodes.map((n) => ({ ...n, id: `c${n.id}` })),
      edges: ifGraph().edges.map((e) => ({ ...e, id: `c${e.id}`, source: `c${e.source}`, target: `c${e.target}` })),
      dispositionEntries: {},
    };
    g = { nodes: [...g.nodes, ...callback.nodes], edges: [...g.edges, ...callback.edges], dispositionEntries: { ...g.dispositionEntries, CALLBACK: 'cn1' } };
    expect(digestGraph(g, { outcomes: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION'] })).toBe(
      [
        'Voicemail: send SMS "Hi {{contact.firstName}}…" → add tag vm-left',
        'Success: move to stage booked of pipeline patients → book appointment at call.fields.appointment_time for 30 min → add note "Summary: {{call.callSummary}}"',
        'Call Back: if call.fields.callback_time exists: set field contact.callback_time to "{{call.fields.callback_time}}"; otherwise: add tag callback-unscheduled',
        'No Action: nothing happens',
        '',
      ].join('\n'),
    );
  });
  it('lists all six outcomes without a context, in canonical order', () => {
    expect(digestGraph(emptyGraph()).trim().split('\n')).toEqual([
      'Voicemail: nothing happens',
      'Success: nothing happens',
      'Call Back: nothing happens',
      'No Action: nothing happens',
      'Transfer: nothing happens',
      'Reschedule: nothing happens',
    ]);
  });
  it('flags a chain on an outcome the agent never emits, marks drafts and lists unreachable nodes', () => {
    const g: Graph = {
      nodes: [node('a', 'send-sms'), node('b', 'add-tag', { tags: ['x'] }), node('z', 'add-note', { body: 'lost' })],
      edges: [{ id: 'e1', source: 'a', target: 'b' }],
      dispositionEntries: { TRANSFER: 'a' },
    };
    expect(digestGraph(g, { outcomes: ['VOICEMAIL'] })).toBe(
      'Voicemail: nothing happens\nTransfer (this agent never ends a call here, so it never runs): send SMS (draft, skipped) → add tag x\nNot reached by any outcome: add note "lost" (z)\n',
    );
  });
  it('words routers, including nested branches and the default', () => {
    const g = appendNodes(emptyGraph(), 'NO_ACTION', [
      { type: 'add-note', config: { body: 'No action' } },
      {
        type: 'switch',
        config: {
          cases: [
            { label: 'Long call', conditions: [{ field: 'call.duration', op: 'gte', value: 60 }, { field: 'contact.tags', op: 'contains', value: 'vip' }], nodes: [{ type: 'add-tag', config: { tags: ['engaged'] } }] },
            { label: 'Opted out', match: 'any', conditions: [{ field: 'call.fields.opt_out', op: 'eq', value: true }], nodes: [] },
          ],
          default: { nodes: [{ type: 'remove-tag', config: { tags: ['new-lead'] } }] },
        },
      } as never,
    ]);
    expect(digestGraph(g, { outcomes: ['NO_ACTION'] })).toBe(
      'No Action: add note "No action" → switch: "Long call" when call.duration is at least 60 and contact.tags contains "vip": add tag engaged; "Opted out" when call.fields.opt_out is true: nothing; otherwise: remove tag new-lead\n',
    );
    const nested: Graph = {
      nodes: [
        node('i', 'if', { match: 'all', conditions: [{ field: 'a', op: 'exists' }] }),
        node('j', 'if', { match: 'any', conditions: [{ field: 'b', op: 'exists' }] }),
        node('t', 'add-tag', { tags: ['t'] }),
      ],
      edges: [{ id: 'e1', source: 'i', target: 'j', sourceHandle: 'true' }, { id: 'e2', source: 'j', target: 't', sourceHandle: 'false' }],
      dispositionEntries: { VOICEMAIL: 'i' },
    };
    expect(digestGraph(nested, { outcomes: ['VOICEMAIL'] })).toBe('Voicemail: if a exists: (if b exists: nothing; otherwise: add tag t); otherwise: nothing\n');
  });
  it('describes a draft branch as skipped and follows its false/default path', () => {
    const g: Graph = { ...ifGraph(), nodes: ifGraph().nodes.map((n) => (n.id === 'n1' ? { ...n, config: {} } : n)) };
    expect(digestGraph(g, { outcomes: ['CALLBACK'] })).toBe('Call Back: if (draft, skipped) → add tag callback-unscheduled\n');
  });
});
