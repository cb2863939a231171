/**
 * The pure model behind the editor's workflow tools (editor/src/model): the test-run form's
 * request, what a step did in one line, which saves need an impact preview, and when one is shown.
 */
import { describe, expect, it } from 'vitest';
import type { ImpactReport } from '../../editor/src/api/types.js';
import { meetsAnything, runChanges } from '../../editor/src/model/impact.js';
import { runView, slotText, stepHeadline } from '../../editor/src/model/run.js';
import { initialTestRunForm, sampleFieldsOf, sampleSlot, testRunBody } from '../../editor/src/model/test-run.js';
import type { Graph, GraphNode } from '../../editor/src/model/types.js';

const FIELDS = [
  { name: 'appointment_time', type: 'datetime' },
  { name: 'confirmed', type: 'boolean' },
  { name: 'attempts', type: 'number' },
] as const;
const NOW = new Date('2031-03-03T22:10:00Z');

describe('the test-run form', () => {
  it('starts from the first outcome and a sample value per field type', () => {
    const form = initialTestRunForm(['SUCCESS', 'VOICEMAIL'], FIELDS as never, NOW);
    expect(form.outcome).toBe('SUCCESS');
    expect(form.fields).toEqual({ appointment_time: '2031-03-04T15:00:00Z', confirmed: true, attempts: '1' });
    expect(sampleSlot(NOW)).toBe('2031-03-04T15:00:00Z');
  });

  it('asks the outcome and the summary once, not again as fields', () => {
    const platform = [{ name: 'call_outcome', type: 'enum' }, { name: 'call_summary', type: 'text' }, { name: 'callback_time', type: 'datetime' }] as const;
    expect(sampleFieldsOf(platform).map((f) => f.name)).toEqual(['callback_time']);
  });

  it('sends typed values, and the sample contact or the existing one by id', () => {
    const form = initialTestRunForm(['SUCCESS'], FIELDS as never, NOW);
    const sample = testRunBody({ ...form, contact: { ...form.contact, firstName: ' Zoe ' }, contactFields: 'plan=gold\n' }, FIELDS as never);
    expect(sample.body).toEqual({
      outcome: 'SUCCESS',
      fields: { appointment_time: '2031-03-04T15:00:00Z', confirmed: true, attempts: 1 },
      callSummary: 'A test call.',
      contact: { firstName: 'Zoe', fields: { plan: 'gold' } },
    });
    const existing = testRunBody({ ...form, contactMode: 'existing', contactId: 'ct_1', contact: { ...form.contact, firstName: 'ignored' } }, FIELDS as never);
    expect(existing.body?.contact).toEqual({ id: 'ct_1' });
  });

  it('refuses values of the wrong type and an empty contact id, per input', () => {
    const form = initialTestRunForm(['SUCCESS'], FIELDS as never, NOW);
    const r = testRunBody({ ...form, fields: { ...form.fields, attempts: 'three', appointment_time: 'soon' }, contactMode: 'existing' }, FIELDS as never);
    expect(r.body).toBeUndefined();
    expect(Object.keys(r.errors).sort()).toEqual(['appointment_time', 'attempts', 'contactId']);
    expect(testRunBody({ ...form, contactFields: 'no equals sign' }, FIELDS as never).errors.contactFields).toMatch(/key=value/);
  });
});

describe('what a step did, in one line', () => {
  const step = (nodeType: string, input: unknown, output: unknown = null) => ({ seq: 1, nodeId: 'n1', nodeType, status: 'succeeded' as const, attempts: 1, startedAt: '', input, output });

  it('the SMS as sent, the slot booked (UTC), the tags, the branch taken', () => {
    expect(stepHeadline(step('send-sms', { body: 'Hi {{contact.firstName}}' }, { body: 'Hi Zoe' }))).toBe('SMS: Hi Zoe');
    expect(stepHeadline(step('book-appointment', { calendarId: 'cal_main' }, { startsAt: '2031-03-04T15:00:00.000Z', endsAt: '2031-03-04T15:45:00.000Z' }))).toBe(
      'Books 2031-03-04 15:00–15:45 UTC on calendar cal_main',
    );
    expect(slotText('2031-03-04T23:30:00Z', '2031-03-05T00:30:00Z')).toBe('2031-03-04 23:30 – 2031-03-05 00:30 UTC');
    expect(stepHeadline(step('add-tag', { tags: ['a', 'b'] }))).toBe('Adds tag a, b');
    expect(stepHeadline(step('if', {}, { handle: 'true' }))).toBe('Took the “true” branch');
    // A booking still running has no slot yet.
    expect(stepHeadline({ ...step('book-appointment', { calendarId: 'cal_main' }), status: 'running' })).toBeNull();
  });

  it('a run view carries each step’s line for the canvas', () => {
    const g: Graph = { nodes: [{ id: 'n1', type: 'send-sms', config: { body: 'x' }, position: { x: 0, y: 0 } }], edges: [], dispositionEntries: { VOICEMAIL: 'n1' } };
    const v = runView(
      { id: 'x', workflowId: 'w', campaignId: 'c', agentId: 'a', callId: 'call', outcome: 'VOICEMAIL', graphVersion: 1, status: 'succeeded', startedAt: '', kind: 'test', steps: [step('send-sms', { body: 'Hi Zoe' })] },
      g,
    );
    expect(v.textByNode).toEqual({ n1: 'SMS: Hi Zoe' });
  });
});

describe('which saves show their impact first', () => {
  const n = (id: string, config: Record<string, unknown>, extra: Partial<GraphNode> = {}): GraphNode => ({ id, type: 'add-tag', config, position: { x: 0, y: 0 }, ...extra });
  const base: Graph = { nodes: [n('n1', { tags: ['a'] })], edges: [], dispositionEntries: { VOICEMAIL: 'n1' } };

  it('moves, names and draft steps change nothing that runs', () => {
    expect(runChanges(base, { ...base, nodes: [n('n1', { tags: ['a'] }, { position: { x: 40, y: 90 }, label: 'Tag it' })] })).toEqual([]);
    const withDraft: Graph = { nodes: [...base.nodes, n('n2', {})], edges: [{ id: 'e1', source: 'n1', target: 'n2' }], dispositionEntries: base.dispositionEntries };
    expect(runChanges(base, withDraft)).toEqual([]);
  });

  it('a changed setting does, per outcome', () => {
    const changes = runChanges(base, { ...base, nodes: [n('n1', { tags: ['b'] })] });
    expect(changes.map((c) => c.outcome)).toEqual(['VOICEMAIL']);
  });

  it('asks only when the change meets a recent call, a run in flight or a waiting lead', () => {
    const report = (over: Partial<ImpactReport>): ImpactReport => ({
      currentVersion: 1,
      runsInFlight: { total: 0, byVersion: [], note: '' },
      outcomes: [{ outcome: 'VOICEMAIL', label: 'Voicemail', changed: true, changes: ['x'], callsLast7Days: 0 }],
      cadence: null,
      ...over,
    });
    expect(meetsAnything(report({}))).toBe(false);
    expect(meetsAnything(report({ outcomes: [{ outcome: 'VOICEMAIL', label: 'Voicemail', changed: true, changes: ['x'], callsLast7Days: 2 }] }))).toBe(true);
    expect(meetsAnything(report({ outcomes: [{ outcome: 'VOICEMAIL', label: 'Voicemail', changed: false, changes: [], callsLast7Days: 2 }] }))).toBe(false);
    expect(meetsAnything(report({ runsInFlight: { total: 1, byVersion: [{ version: 1, runs: 1 }], note: '' } }))).toBe(true);
    expect(meetsAnything(report({ cadence: { cadenceId: 'c', name: 'c', steps: [{ step: 0, leads: 1 }] } }))).toBe(true);
  });
});
