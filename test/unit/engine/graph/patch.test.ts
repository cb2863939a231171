import { describe, expect, it } from 'vitest';
import { patchNodes } from '../../../../engine/graph/patch.js';
import type { Graph } from '../../../../engine/graph/types.js';
import { danaGraph, deepFreeze, ifGraph, node, refusal } from './fixtures.js';

const find = (g: Graph, id: string) => g.nodes.find((n) => n.id === id)!;

describe('patchNodes', () => {
  it('merges config keys shallowly and replaces arrays, leaving the wiring alone', () => {
    const before = deepFreeze(danaGraph());
    const g = patchNodes(before, [
      { id: 'n1', config: { body: 'New text for {{contact.firstName}}' } },
      { id: 'n2', config: { tags: ['vm-left-2'] }, label: 'Tag it' },
    ]);
    expect(find(g, 'n1').config).toEqual({ body: 'New text for {{contact.firstName}}' });
    expect(find(g, 'n2')).toMatchObject({ label: 'Tag it', config: { tags: ['vm-left-2'] } });
    expect(g.edges).toEqual(before.edges);
    expect(g.dispositionEntries).toEqual(before.dispositionEntries);
    expect(find(before, 'n2').config).toEqual({ tags: ['vm-left'] });
  });
  it('adds and removes (null) optional keys; removes a label with null', () => {
    let g = patchNodes(danaGraph(), [{ id: 'n1', config: { fromNumber: '+15125550100' }, label: 'SMS' }]);
    expect(find(g, 'n1').config).toMatchObject({ fromNumber: '+15125550100' });
    g = patchNodes(g, [{ id: 'n1', config: { fromNumber: null }, label: null }]);
    expect(find(g, 'n1').config).not.toHaveProperty('fromNumber');
    expect(find(g, 'n1')).not.toHaveProperty('label');
  });
  it('refuses an unknown id with NOT_FOUND', () => {
    const r = refusal(() => patchNodes(danaGraph(), [{ id: 'n1', label: 'x' }, { id: 'nope', label: 'y' }]));
    expect(r.code).toBe('NOT_FOUND');
    expect(r.message).toBe('nodes[1].id: node "nope" is not in this workflow');
  });
  it('refuses a merged config that breaks the schema or carries a stand-in, naming the request field', () => {
    let r = refusal(() => patchNodes(danaGraph(), [{ id: 'n2', config: { tags: [] } }]));
    expect(r.message).toBe('nodes[0].config.tags: must NOT have fewer than 1 items in node n2 (add-tag)');
    r = refusal(() => patchNodes(danaGraph(), [{ id: 'n2', label: 'ok' }, { id: 'n1', config: { body: 'CHANGE-ME please' } }]));
    expect(r.message).toBe('nodes[1].config.body: unreplaced stand-in "CHANGE-ME please" (contains CHANGE-ME) in node n1 (send-sms)');
    r = refusal(() => patchNodes(danaGraph(), [{ id: 'n1', config: { body: null, fromNumber: '+15125550100' } }]));
    expect(r.message).toBe('nodes[0].config.body: is required in node n1 (send-sms)');
    r = refusal(() => patchNodes(danaGraph(), [{ id: 'n1', config: { colour: 'red' } }]));
    expect(r.message).toContain('nodes[0].config.colour: is not a setting here');
  });
  it('refuses turning a configured node into a draft, and the same node twice', () => {
    expect(refusal(() => patchNodes(danaGraph(), [{ id: 'n2', config: { tags: null } }])).message).toBe(
      'nodes[0].config: the merge would leave node n2 (add-tag) with no settings; an unconfigured draft can only be saved by replacing the graph (PUT)',
    );
    expect(refusal(() => patchNodes(danaGraph(), [{ id: 'n2', label: 'a' }, { id: 'n2', label: 'b' }])).message).toBe(
      'nodes[1].id: node n2 is already patched by nodes[0]; send one patch per node',
    );
  });
  it('configures a draft only with a complete config', () => {
    const draft: Graph = { nodes: [node('d', 'send-email')], edges: [], dispositionEntries: { VOICEMAIL: 'd' } };
    expect(refusal(() => patchNodes(draft, [{ id: 'd', config: { subject: 'Hi' } }])).message).toBe('nodes[0].config.body: is required in node d (send-email)');
    expect(find(patchNodes(draft, [{ id: 'd', config: { subject: 'Hi', body: 'There' } }]), 'd').config).toEqual({ subject: 'Hi', body: 'There' });
    expect(find(patchNodes(draft, [{ id: 'd', label: 'later' }]), 'd')).toMatchObject({ label: 'later', config: {} });
  });
  it('re-validates the whole graph: dropping a connected switch case is refused', () => {
    const g: Graph = {
      nodes: [
        node('s', 'switch', { cases: [{ id: 'hot', label: 'Hot', match: 'all', conditions: [{ field: 'a', op: 'exists' }] }] }),
        node('t', 'add-tag', { tags: ['hot'] }),
      ],
      edges: [{ id: 'e1', source: 's', target: 't', sourceHandle: 'hot' }],
      dispositionEntries: { VOICEMAIL: 's' },
    };
    const r = refusal(() => patchNodes(g, [{ id: 's', config: { cases: [{ id: 'warm', label: 'Warm', match: 'all', conditions: [{ field: 'a', op: 'exists' }] }] } }]));
    expect(r.message).toContain('edges[0].sourceHandle: "hot" is not a handle out of node s (switch)');
    expect(patchNodes(ifGraph(), [{ id: 'n1', config: { match: 'any' } }]).nodes[0]!.config).toMatchObject({ match: 'any' });
  });
});
