import { describe, expect, it } from 'vitest';
import { appendNodes } from '../../../../engine/graph/append.js';
import { businessDiff } from '../../../../engine/graph/business-diff.js';
import { patchNodes } from '../../../../engine/graph/patch.js';
import { deleteNode } from '../../../../engine/graph/relink.js';
import { layoutGraph } from '../../../../engine/graph/layout.js';
import type { Graph } from '../../../../engine/graph/types.js';
import { danaGraph, ifGraph } from './fixtures.js';

const texts = (a: Graph, b: Graph) => businessDiff(a, b).map((c) => c.text);
const idOf = (g: Graph, type: string) => g.nodes.find((n) => n.type === type)!.id;

describe('businessDiff', () => {
  it('says nothing for the same graph, or one only moved around', () => {
    const g = danaGraph();
    expect(businessDiff(g, g)).toEqual([]);
    expect(businessDiff(g, layoutGraph({ ...g, nodes: g.nodes.map((n) => ({ ...n, position: { x: n.position.x + 100, y: 7 } })) }))).toEqual([]);
  });

  it('a removed step: "Success no longer books an appointment"', () => {
    const g = danaGraph();
    expect(texts(g, deleteNode(g, idOf(g, 'book-appointment')))).toEqual(['Success no longer books an appointment']);
  });

  it('a changed text: "Voicemail: the SMS text changed from … to …"', () => {
    const g = danaGraph();
    const after = patchNodes(g, [{ id: idOf(g, 'send-sms'), config: { body: 'Sorry we missed you, call us back' } }] as never);
    expect(texts(g, after)).toEqual(['Voicemail: the SMS text changed from "Hi {{contact.firstName}}, this is {{custom_values.business_name}} — sorry we missed you! Reply here or call us back." to "Sorry we missed you, call us back"']);
  });

  it('an appended step names what it follows: "Success: new step add tag booked after add note"', () => {
    const g = danaGraph();
    const after = appendNodes(g, 'SUCCESS', [{ type: 'add-tag', config: { tags: ['booked'] } }]);
    expect(texts(g, after)).toEqual(['Success: new step add tag booked after add note']);
  });

  it('an outcome that starts or stops acting', () => {
    const g = danaGraph();
    const started = appendNodes(g, 'NO_ACTION', [{ type: 'add-tag', config: { tags: ['lost-lead'] } }]);
    expect(texts(g, started)).toEqual(['No Action now adds tag lost-lead']);
    const stopped = { ...g, dispositionEntries: { ...g.dispositionEntries, VOICEMAIL: undefined } } as unknown as Graph;
    delete (stopped.dispositionEntries as Record<string, string | undefined>).VOICEMAIL;
    expect(texts(g, stopped)).toEqual(['Voicemail no longer does anything (it sends an SMS, then adds tag vm-left before)']);
  });

  it('branches: a changed condition and steps per arm, in words', () => {
    const g = ifGraph();
    const after: Graph = {
      ...g,
      nodes: g.nodes.map((n) => (n.id === 'n1' ? { ...n, config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 30 }] } } : n.id === 'n3' ? { ...n, config: { tags: ['callback-later'] } } : n)),
    };
    expect(texts(g, after)).toEqual([
      'Call Back: the condition changed from call.fields.callback_time exists to call.duration is greater than 30',
      'Call Back: the tags added (if not (call.duration is greater than 30)) changed from callback-unscheduled to callback-later',
    ]);
  });

  it('reordered steps', () => {
    const g = danaGraph();
    const sms = idOf(g, 'send-sms');
    const tag = idOf(g, 'add-tag');
    const after: Graph = {
      ...g,
      edges: g.edges.filter((e) => !(e.source === sms && e.target === tag)).concat({ id: 'swap', source: tag, target: sms }),
      dispositionEntries: { ...g.dispositionEntries, VOICEMAIL: tag },
    };
    expect(texts(g, after)).toEqual(['Voicemail: the steps now run in the order add tag, then send SMS']);
  });
});
