import { appendNodes } from '../../../../engine/graph/append.js';
import { emptyGraph } from '../../../../engine/graph/empty.js';
import type { Graph, GraphNode } from '../../../../engine/graph/types.js';
import { GraphRefusal } from '../../../../engine/graph/errors.js';
import { expect } from 'vitest';

/** Dana's workflow (USER-JOURNEYS.md 1.4), built through append. */
export function danaGraph(): Graph {
  let g = emptyGraph();
  g = appendNodes(g, 'VOICEMAIL', [
    { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, this is {{custom_values.business_name}} — sorry we missed you! Reply here or call us back.' } },
    { type: 'add-tag', config: { tags: ['vm-left'] } },
  ]);
  g = appendNodes(g, 'SUCCESS', [
    { type: 'move-stage', config: { pipelineId: 'patients', stageId: 'booked' } },
    { type: 'book-appointment', config: { startField: 'appointment_time', durationMinutes: 30 } },
    { type: 'add-note', config: { body: 'Summary: {{call.callSummary}}' } },
  ]);
  return g;
}

/** A small hand-written graph with an `if` on CALLBACK (as PUT would store it). */
export function ifGraph(): Graph {
  const pos = { x: 0, y: 0 };
  return {
    nodes: [
      { id: 'n1', type: 'if', config: { match: 'all', conditions: [{ field: 'call.fields.callback_time', op: 'exists' }] }, position: pos },
      { id: 'n2', type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' }, position: pos },
      { id: 'n3', type: 'add-tag', config: { tags: ['callback-unscheduled'] }, position: pos },
    ],
    edges: [
      { id: 'e1', source: 'n1', target: 'n2', sourceHandle: 'true' },
      { id: 'e2', source: 'n1', target: 'n3', sourceHandle: 'false' },
    ],
    dispositionEntries: { CALLBACK: 'n1' },
  };
}

export const node = (id: string, type: string, config: Record<string, unknown> = {}, extra: Partial<GraphNode> = {}): GraphNode =>
  ({ id, type, config, position: { x: 0, y: 0 }, ...extra }) as GraphNode;

/** Runs `fn`, expects a GraphRefusal and returns it. */
export function refusal(fn: () => unknown): GraphRefusal {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GraphRefusal);
    return err as GraphRefusal;
  }
  throw new Error('expected a GraphRefusal, but the call succeeded');
}

export const deepFreeze = <T>(v: T): T => {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
};
