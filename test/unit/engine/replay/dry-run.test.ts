/**
 * The dry run of a post-call chain (engine/replay/dry-run.ts) and the what-if comparison
 * (engine/replay/what-if.ts): the path a run would take, branches evaluated on the call and on the
 * contact as earlier steps would leave it, drafts skipped, templates rendered, custom values left as
 * tokens, a cycle walked once; and the differences of many calls in words.
 */
import { describe, expect, it } from 'vitest';
import { dryRun, type DryRunInput } from '../../../../engine/replay/dry-run.js';
import { compareRuns, summarize } from '../../../../engine/replay/what-if.js';
import type { Graph } from '../../../../engine/graph/types.js';

const call = (duration: number, fields: Record<string, unknown> = {}) => ({
  callId: 'call_1', contactId: 'c1', phoneNumber: '+15125550123', leadName: 'Ana Lopez', duration, disposition: 'VOICEMAIL', callSummary: 's', transcript: 't', fields, dateTime: '2026-11-20T10:00:00.000Z',
});
const at = { x: 0, y: 0 };
const input = (graph: Graph, over: Partial<DryRunInput> = {}): DryRunInput => ({
  graph, outcome: 'VOICEMAIL', call: call(42), contact: { firstName: 'Ana', tags: ['lead'], fields: {} }, campaign: { callerId: '+15125550100', calendarId: 'cal_main' }, ...over,
});

// Tag, then a router on the contact's tags (which the tag just changed), then per case an action.
const graph: Graph = {
  nodes: [
    { id: 'n1', type: 'add-tag', config: { tags: ['vm-left'] }, position: at },
    { id: 'n2', type: 'switch', config: { cases: [{ id: 'c_vip', label: 'VIP', conditions: [{ field: 'contact.tags', op: 'contains', value: 'vip' }] }, { id: 'c_vm', label: 'Voicemail', conditions: [{ field: 'contact.tags', op: 'contains', value: 'vm-left' }] }] }, position: at },
    { id: 'n3', type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, {{custom_values.clinic_name}} called ({{call.duration}} s).' }, position: at },
    { id: 'n4', type: 'add-note', config: {}, position: at },
    { id: 'n5', type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.when}}' }, position: at },
  ],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n5', sourceHandle: 'c_vip' },
    { id: 'e3', source: 'n2', target: 'n3', sourceHandle: 'c_vm' },
    { id: 'e4', source: 'n3', target: 'n4' },
  ],
  dispositionEntries: { VOICEMAIL: 'n1' },
};

describe('dryRun', () => {
  it('walks the outcome’s chain: the branch sees the tag added before it, drafts are skipped, templates rendered', () => {
    const r = dryRun(input(graph));
    expect(r.path).toEqual([
      { nodeId: 'n1', type: 'add-tag', status: 'acted' },
      { nodeId: 'n2', type: 'switch', status: 'evaluated', handle: 'c_vm' },
      { nodeId: 'n3', type: 'send-sms', status: 'acted' },
      { nodeId: 'n4', type: 'add-note', status: 'skipped' },
    ]);
    expect(r.effects.map((e) => [e.key, e.text])).toEqual([
      ['add-tag:vm-left', 'tag vm-left'],
      // Custom values are not read: the token stays.
      ['send-sms', 'SMS "Hi Ana, {{custom_values.clinic_name}} called (42 s)."'],
    ]);
    expect(r.effects[1]!.detail).toBe('+15125550100\nHi Ana, {{custom_values.clinic_name}} called (42 s).');
  });

  it('takes the other case for a VIP, setting the field from the call; no chain for another outcome', () => {
    const r = dryRun(input(graph, { contact: { firstName: 'Bo', tags: ['vip'] }, call: call(5, { when: '2026-12-01T15:00:00Z' }) }));
    expect(r.path.map((p) => `${p.nodeId}${p.handle ? `:${p.handle}` : ''}`)).toEqual(['n1', 'n2:c_vip', 'n5']);
    expect(r.effects.at(-1)).toMatchObject({ key: 'set-field:callback_time', detail: '2026-12-01T15:00:00Z' });
    expect(dryRun(input(graph, { outcome: 'SUCCESS' }))).toEqual({ path: [], effects: [] });
  });

  it('walks a cycle once and leaves its input as it was', () => {
    const looped: Graph = { ...graph, edges: [...graph.edges, { id: 'e5', source: 'n4', target: 'n1' }] };
    const i = input(looped);
    const copy = structuredClone(i);
    expect(dryRun(i).path.map((p) => p.nodeId)).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(i).toEqual(copy);
  });
});

describe('what-if', () => {
  const v2: Graph = { ...graph, nodes: graph.nodes.map((n) => (n.id === 'n1' ? { ...n, config: { tags: ['voicemail-left'] } } : n.id === 'n3' ? { ...n, config: { body: 'Hello {{contact.firstName}}' } } : n)) };
  it('compares one call’s effects by what they are, and their details', () => {
    const d = compareRuns(dryRun(input(graph)), dryRun(input(v2)));
    // v2's tag is not vm-left: the router falls to its default, so no SMS either.
    expect(d.gained.map((e) => e.key)).toEqual(['add-tag:voicemail-left']);
    expect(d.lost.map((e) => e.key)).toEqual(['add-tag:vm-left', 'send-sms']);
    expect(d).toMatchObject({ pathChanged: true, changed: true, altered: [] });
    const same = compareRuns(dryRun(input(graph)), dryRun(input(graph)));
    expect(same).toEqual({ gained: [], lost: [], altered: [], pathChanged: false, changed: false });
  });

  it('adds up many calls in words, most calls first', () => {
    const smsV2: Graph = { ...graph, nodes: graph.nodes.map((n) => (n.id === 'n3' ? { ...n, config: { body: 'Hello {{contact.firstName}}' } } : n)) };
    const diffs = [
      compareRuns(dryRun(input(graph)), dryRun(input(v2))),
      compareRuns(dryRun(input(graph)), dryRun(input(v2))),
      compareRuns(dryRun(input(graph)), dryRun(input(smsV2))),
      compareRuns(dryRun(input(graph)), dryRun(input(graph))),
    ];
    expect(summarize(diffs).map((l) => l.text)).toEqual([
      '2 calls would now be tagged voicemail-left',
      '2 calls would no longer be tagged vm-left',
      '2 calls would no longer get an SMS',
      '1 call would get a different SMS',
    ]);
  });
});
