/**
 * The editor's pure model (editor/src/model): what an edit does to the graph, which request a save
 * sends, where the layout puts steps, what a conflict shows, which path a run took.
 */
import { describe, expect, it } from 'vitest';
import { diffGraphs } from '../../editor/src/model/diff.js';
import { graphFromWorkflow, pinnedOf } from '../../editor/src/model/flow.js';
import { addNode, connect, copyNodes, deleteNode, EditRefusal, paste } from '../../editor/src/model/graph-ops.js';
import { isServerPlaced, layoutWorkflow, offGrid } from '../../editor/src/model/layout.js';
import { patchFor, planSave, recordOp, type PendingOp } from '../../editor/src/model/pending.js';
import { runView } from '../../editor/src/model/run.js';
import { insertAt, tokenGroups } from '../../editor/src/model/tokens.js';
import { checkConfig } from '../../editor/src/model/validation.js';
import { nodeNamedIn } from '../../editor/src/store/editor-store.js';
import type { Graph, GraphNode } from '../../editor/src/model/types.js';

const node = (id: string, type: GraphNode['type'] = 'add-tag', config: Record<string, unknown> = { tags: [id] }, position = { x: 0, y: 0 }): GraphNode => ({ id, type, config, position });
const chain: Graph = {
  nodes: [node('n1'), node('n2'), node('n3')],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n3' },
  ],
  dispositionEntries: { VOICEMAIL: 'n1' },
};

describe('graph edits', () => {
  it('adding at the end of a lane is what the append endpoint would store', () => {
    const r = addNode(chain, { kind: 'lane', lane: 'VOICEMAIL' }, { type: 'send-sms', config: {} });
    expect(r.nodeId).toBe('n4');
    expect(r.appendedTo).toBe('VOICEMAIL');
    expect(r.graph.edges.at(-1)).toEqual({ id: 'e3', source: 'n3', target: 'n4' });
    const empty = addNode(chain, { kind: 'lane', lane: 'SUCCESS' }, { type: 'add-tag', config: {} });
    expect(empty.graph.dispositionEntries.SUCCESS).toBe('n4');
    expect(addNode(chain, { kind: 'lane', lane: 'SUCCESS' }, { type: 'if', config: {} }).appendedTo).toBeUndefined();
  });

  it('inserting on an edge splices the step in, a branch continuing on "true"', () => {
    const r = addNode(chain, { kind: 'edge', edgeId: 'e1' }, { type: 'if', config: {} });
    expect(r.appendedTo).toBeUndefined();
    expect(r.graph.edges).toEqual([
      { id: 'e2', source: 'n2', target: 'n3' },
      { id: 'e1', source: 'n1', target: 'n4' },
      { id: 'e3', source: 'n4', target: 'n2', sourceHandle: 'true' },
    ]);
  });

  it('deleting re-links the chain like DELETE does, and refuses a branch with two chains', () => {
    expect(deleteNode(chain, 'n2').edges).toEqual([{ id: 'e1', source: 'n1', target: 'n3' }]);
    expect(deleteNode(chain, 'n1').dispositionEntries).toEqual({ VOICEMAIL: 'n2' });
    const branched: Graph = {
      nodes: [node('n1', 'if', {}), node('n2'), node('n3')],
      edges: [
        { id: 'e1', source: 'n1', target: 'n2', sourceHandle: 'true' },
        { id: 'e2', source: 'n1', target: 'n3', sourceHandle: 'false' },
      ],
      dispositionEntries: { CALLBACK: 'n1' },
    };
    expect(() => deleteNode(branched, 'n1')).toThrow(EditRefusal);
  });

  it('connecting replaces what the handle pointed at and refuses a loop', () => {
    expect(connect(chain, 'n1', undefined, 'n3').edges.find((e) => e.source === 'n1')).toEqual({ id: 'e1', source: 'n1', target: 'n3' });
    expect(() => connect(chain, 'n3', undefined, 'n1')).toThrow(/loop/);
  });

  it('pasting a copied chain after a step gives fresh ids and splices it in', () => {
    const clip = copyNodes(chain, new Set(['n2', 'n3']))!;
    const r = paste(chain, clip, 'n1');
    expect(r.ids).toEqual(['n4', 'n5']);
    const next = (id: string) => r.graph.edges.find((e) => e.source === id)?.target;
    expect([next('n1'), next('n4'), next('n5')]).toEqual(['n4', 'n5', 'n2']);
  });
});

describe('what Save sends', () => {
  const withSms = addNode(chain, { kind: 'lane', lane: 'VOICEMAIL' }, { type: 'send-sms', config: { body: 'Hi' } }).graph;

  it('one append, one delete, or merges become POST, DELETE, PATCH; anything else a PUT', () => {
    expect(planSave([{ kind: 'append', lane: 'VOICEMAIL', nodeIds: ['n4'] }], withSms, chain)).toEqual({ kind: 'append', lane: 'VOICEMAIL', nodes: [{ type: 'send-sms', config: { body: 'Hi' } }] });
    expect(planSave([{ kind: 'delete', nodeId: 'n2' }], deleteNode(chain, 'n2'), chain)).toEqual({ kind: 'delete', nodeId: 'n2' });
    const edited = { ...chain, nodes: chain.nodes.map((n) => (n.id === 'n2' ? { ...n, label: 'Tag', config: { tags: ['x'] } } : n)) };
    expect(planSave([{ kind: 'patch', nodeIds: ['n2'] }], edited, chain)).toEqual({ kind: 'patch', nodes: [{ id: 'n2', label: 'Tag', config: { tags: ['x'] } }] });
    expect(planSave([{ kind: 'graph', what: 'move' }], chain, chain).kind).toBe('put');
    expect(planSave([], chain, chain)).toEqual({ kind: 'none' });
  });

  it('a merge that would empty a step into a draft goes as PUT (PATCH refuses that)', () => {
    const drafted = { ...chain, nodes: chain.nodes.map((n) => (n.id === 'n2' ? { ...n, config: {} } : n)) };
    expect(planSave([{ kind: 'patch', nodeIds: ['n2'] }], drafted, chain).kind).toBe('put');
  });

  it('folds edits that stay one request: settings of a step being added, deleting it again', () => {
    let ops: PendingOp[] = recordOp([], { kind: 'append', lane: 'VOICEMAIL', nodeIds: ['n4'] });
    ops = recordOp(ops, { kind: 'patch', nodeIds: ['n4'] });
    ops = recordOp(ops, { kind: 'append', lane: 'VOICEMAIL', nodeIds: ['n5'] });
    expect(ops).toEqual([{ kind: 'append', lane: 'VOICEMAIL', nodeIds: ['n4', 'n5'] }]);
    expect(recordOp(ops, { kind: 'delete', nodeId: 'n5' })).toEqual([{ kind: 'append', lane: 'VOICEMAIL', nodeIds: ['n4'] }]);
    expect(recordOp([{ kind: 'append', lane: 'VOICEMAIL', nodeIds: ['n4'] }], { kind: 'delete', nodeId: 'n4' })).toEqual([]);
  });

  it('a PATCH sends changed keys and removes keys with null', () => {
    expect(patchFor(node('n1', 'send-sms', { body: 'a', fromNumber: '+15125550100' }), node('n1', 'send-sms', { body: 'b' }))).toEqual({ id: 'n1', config: { body: 'b', fromNumber: null } });
    expect(patchFor(node('n1'), node('n1'))).toBeNull();
  });
});

describe('layout', () => {
  it('tells positions the server chose (its grid, absolute or after a moved step) from chosen ones', () => {
    expect(isServerPlaced({ x: 320, y: 280 })).toBe(true);
    expect(isServerPlaced({ x: 80, y: 140 })).toBe(true);
    expect(isServerPlaced({ x: 333, y: 281 })).toBe(false);
    expect(isServerPlaced({ x: 333, y: 421 }, { x: 333, y: 281 })).toBe(true);
    const p = offGrid({ x: 320, y: 280 });
    expect(isServerPlaced(p)).toBe(false);
    const g = graphFromWorkflow({ nodes: [node('n1', 'add-tag', { tags: ['a'] }, { x: 17, y: 5 }), node('n2', 'add-tag', { tags: ['b'] }, { x: 17, y: 145 })], edges: [{ id: 'e1', source: 'n1', target: 'n2' }], dispositionEntries: { VOICEMAIL: 'n1' } });
    expect([...pinnedOf(g)]).toEqual(['n1']);
  });

  it('lays lanes out left to right, keeps pinned steps, and moves what hangs below them', async () => {
    const input = {
      lanes: [
        { id: 'VOICEMAIL', entry: 'n1' },
        { id: 'SUCCESS', entry: 'n4' },
      ],
      nodes: [
        { id: 'n1', position: { x: 1000, y: 1000 }, pinned: true },
        { id: 'n2', position: { x: 0, y: 0 }, pinned: false },
        { id: 'n3', position: { x: 0, y: 0 }, pinned: false },
        { id: 'n4', position: { x: 0, y: 0 }, pinned: false },
      ],
      edges: [
        { source: 'n1', target: 'n2', order: 0 },
        { source: 'n2', target: 'n3', order: 0 },
      ],
    };
    const r = await layoutWorkflow(input);
    expect(r.positions.n1).toEqual({ x: 1000, y: 1000 });
    expect(r.positions.n2!.x).toBe(1000);
    expect(r.positions.n2!.y).toBeGreaterThan(1000);
    expect(r.positions.n3!.y).toBeGreaterThan(r.positions.n2!.y);
    expect(r.positions.n4!.y).toBeLessThan(1000);
    expect(r.lanes.VOICEMAIL!.y).toBeLessThan(1000);
    expect(r.laneOf).toEqual({ n1: 'VOICEMAIL', n2: 'VOICEMAIL', n3: 'VOICEMAIL', n4: 'SUCCESS' });
  });

  it('puts a branch\'s "true" chain left of its "false" chain', async () => {
    const r = await layoutWorkflow({
      lanes: [{ id: 'CALLBACK', entry: 'n1' }],
      nodes: ['n1', 'n2', 'n3'].map((id) => ({ id, position: { x: 0, y: 0 }, pinned: false })),
      edges: [
        { source: 'n1', target: 'n3', order: 1 },
        { source: 'n1', target: 'n2', order: 0 },
      ],
    });
    expect(r.positions.n2!.x).toBeLessThan(r.positions.n3!.x);
  });

  it('its shortcuts for trees (ranking, ordering) give exactly the layout plain dagre gives', async () => {
    // Deterministic pseudo-random graphs: chains with branches of 2-4 children, merges, steps
    // no lane reaches, pinned steps, a few measured sizes.
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let k = 0; k < 40; k++) {
      const n = 2 + Math.floor(rnd() * (k < 35 ? 60 : 400));
      const ids = Array.from({ length: n }, (_, i) => `n${i + 1}`);
      const edges: { source: string; target: string; order: number }[] = [];
      const entries: string[] = ['n1'];
      for (let i = 1; i < n; i++) {
        if (rnd() < 0.08) {
          if (rnd() < 0.6 && entries.length < 4) entries.push(ids[i]!);
          continue;
        }
        edges.push({ source: ids[Math.floor(rnd() * i)]!, target: ids[i]!, order: Math.floor(rnd() * 3) });
        if (k % 3 === 0 && rnd() < 0.04) edges.push({ source: ids[Math.floor(rnd() * i)]!, target: ids[i]!, order: 1 });
      }
      const input = {
        lanes: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION'].map((id, i) => ({ id, entry: entries[i] ?? null })),
        nodes: ids.map((id) => ({ id, position: { x: Math.round(rnd() * 900), y: Math.round(rnd() * 900) }, pinned: rnd() < 0.1, ...(rnd() < 0.1 && { width: 260, height: 90 }) })),
        edges: edges.sort(() => rnd() - 0.5),
      };
      expect(await layoutWorkflow(structuredClone(input))).toEqual(await layoutWorkflow(structuredClone(input), 'ORPHANS', { plainDagre: true }));
    }
  });

  it('lays out trees (model/tree-layout.ts) exactly as plain dagre does: 100 random lanes up to 1,000 steps', async () => {
    // Trees grown at random: chains, routers with 2-6 handles, a branch's children in random handle
    // order, mixed step sizes (odd and fractional widths too), some numeric step ids (graphlib
    // orders those keys differently), and now and then a merge or an unconnected step (dagre's path).
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const sizes = [{}, {}, {}, { width: 260, height: 90 }, { width: 241, height: 77 }, { width: 199.5, height: 60.25 }];
    let trees = 0;
    for (let k = 0; k < 100; k++) {
      const n = 1 + Math.floor(rnd() * (k % 20 === 0 ? 1000 : k % 4 === 0 ? 300 : 60));
      const ids = Array.from({ length: n }, (_, i) => (k % 5 === 1 ? `${i * 7 + 1}` : `s${i + 1}`));
      const edges: { source: string; target: string; order: number }[] = [];
      const open: { id: string; handles: number; used: number }[] = [{ id: ids[0]!, handles: 1, used: 0 }];
      const entries = [ids[0]!];
      for (let i = 1; i < n; i++) {
        if (rnd() < 0.01 && entries.length < 4) {
          entries.push(ids[i]!);
        } else if (rnd() < 0.005) {
          // unconnected
        } else {
          const free = open.filter((o) => o.used < o.handles);
          const from = free.length && rnd() < 0.97 ? free[Math.floor(rnd() * Math.min(free.length, 3)) + Math.max(0, free.length - 3)]! : open[Math.floor(rnd() * open.length)]!;
          edges.push({ source: from.id, target: ids[i]!, order: rnd() < 0.5 ? from.used : Math.floor(rnd() * 6) });
          from.used++;
          if (k % 7 === 3 && rnd() < 0.01) edges.push({ source: ids[Math.floor(rnd() * i)]!, target: ids[i]!, order: 0 });
        }
        open.push({ id: ids[i]!, handles: rnd() < 0.15 ? 2 + Math.floor(rnd() * 5) : 1, used: 0 });
      }
      const input = {
        lanes: ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION'].map((id, i) => ({ id, entry: entries[i] ?? null })),
        nodes: ids.map((id) => ({ id, position: { x: 0, y: 0 }, pinned: rnd() < 0.03, ...sizes[Math.floor(rnd() * sizes.length)]! })),
        edges: edges.sort(() => rnd() - 0.5),
      };
      if (new Set(edges.map((e) => `${e.source}>${e.target}`)).size === new Set(edges.map((e) => e.target)).size) trees++; // no merges: every lane a tree
      expect(await layoutWorkflow(structuredClone(input))).toEqual(await layoutWorkflow(structuredClone(input), 'ORPHANS', { plainDagre: true }));
    }
    expect(trees).toBeGreaterThan(50);
  }, 120_000);
});

describe('conflicts, runs, tokens, validation', () => {
  it('a conflict diff names added, removed and changed steps; re-linking after a removal is not a re-wire', () => {
    const theirs = addNode(deleteNode(chain, 'n2'), { kind: 'lane', lane: 'SUCCESS' }, { type: 'add-note', config: { body: 'x' } }).graph;
    const d = diffGraphs(chain, theirs);
    expect(d.added.map((n) => n.id)).toEqual(['n4']);
    expect(d.removed.map((n) => n.id)).toEqual(['n2']);
    expect(d.rewired).toBe(false);
    expect(diffGraphs(chain, connect(chain, 'n1', undefined, 'n3')).rewired).toBe(true);
  });

  it('a run lights up the steps it visited and the edges between them', () => {
    const v = runView(
      {
        id: 'x', workflowId: 'w', campaignId: 'c', agentId: 'a', callId: 'call', outcome: 'VOICEMAIL', graphVersion: 1, status: 'succeeded', startedAt: '',
        steps: [
          { seq: 1, nodeId: 'n1', nodeType: 'add-tag', status: 'succeeded', attempts: 1, startedAt: '' },
          { seq: 2, nodeId: 'n2', nodeType: 'add-tag', status: 'failed', attempts: 3, startedAt: '' },
        ],
      },
      chain,
    );
    expect(v.statusByNode).toEqual({ n1: 'succeeded', n2: 'failed' });
    expect(v.edgeIds).toEqual({ 'entry:VOICEMAIL': true, e1: true });
  });

  it('finds the step a server message names', () => {
    expect(nodeNamedIn('nodes[2] (n3).config.body: must not be empty', ['n1', 'n3'])).toBe('n3');
    expect(nodeNamedIn('expectedVersion 1 is stale', ['n1'])).toBeNull();
  });

  it('offers contact, custom value and call tokens, and inserts at the caret', () => {
    const groups = tokenGroups({ postCallFields: [{ name: 'callback_time', type: 'datetime' }] }, [{ id: 'cv', name: 'Business name', fieldKey: '{{custom_values.business_name}}', placeholder: 'custom_values.business_name', value: 'X' }], [
      { id: 'cf', name: 'Callback', fieldKey: 'contact.callback_time', placeholder: '{{contact.callback_time}}', dataType: 'TEXT' },
    ]);
    const all = groups.flatMap((g) => g.tokens.map((t) => t.token));
    expect(all).toEqual(expect.arrayContaining(['{{contact.firstName}}', '{{contact.callback_time}}', '{{custom_values.business_name}}', '{{call.fields.callback_time}}']));
    expect(insertAt('Hi !', '{{contact.firstName}}', 3, 3)).toEqual({ text: 'Hi {{contact.firstName}}!', caret: 24 });
  });

  it('checks a form with the same JSON Schema as the server, drafts pass, stand-ins do not', () => {
    expect(checkConfig('send-sms', {})).toEqual([]);
    expect(checkConfig('send-sms', { body: 'Hi' })).toEqual([]);
    expect(checkConfig('send-sms', { body: '' })).toEqual([{ path: 'body', message: 'must not be empty' }]);
    expect(checkConfig('send-sms', { body: 'x', fromNumber: '123' }).map((e) => e.path)).toEqual(['fromNumber']);
    expect(checkConfig('add-tag', { tags: ['REPLACE-WITH-TAG'] })[0]!.message).toContain('unreplaced stand-in');
    expect(checkConfig('if', { match: 'all', conditions: [{ field: 'call.duration', op: 'gt' }] }).length).toBeGreaterThan(0);
  });
});
