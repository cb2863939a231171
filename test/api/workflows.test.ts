import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { expectConforms } from '../helpers/contract.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { rateLimitPoints: 100000, defaultPlanLimit: 50 } });
});
afterAll(async () => h?.close());

const wf = (agentId: string) => `/api/agent-builder/agents/${agentId}/campaign/workflow`;
const append = (agentId: string, outcome: string, body: unknown, headers?: Record<string, string>) =>
  h.api('POST', `${wf(agentId)}/outcomes/${encodeURIComponent(outcome)}/nodes`, { body, headers });

describe('workflow read and append (spec 4.12)', () => {
  it('reads an empty graph at version 0, then appends in order with derived ids, edges and positions', async () => {
    const { agentId, campaignId, locationId } = await createProjectAgentCampaign(h);
    const empty = await h.api('GET', wf(agentId));
    expect(empty.status).toBe(200);
    expectConforms(h.services, 'getWorkflow', 200, empty.body);
    expect(empty.body.data).toMatchObject({ agentId, campaignId, locationId, version: 0, nodes: [], edges: [], dispositionEntries: {}, warnings: [] });

    const r = await append(agentId, 'Voicemail', { nodes: [{ type: 'send-sms', config: { body: 'Hi {{contact.firstName}}' } }, { type: 'add-tag', config: { tags: ['vm-left'] } }] });
    expect(r.status).toBe(200);
    expectConforms(h.services, 'appendWorkflowNodes', 200, r.body);
    const w = r.body.workflow;
    expect(w.version).toBe(1);
    const [sms, tag] = w.nodes;
    expect(w.dispositionEntries).toEqual({ VOICEMAIL: sms.id });
    expect(w.edges).toEqual([expect.objectContaining({ source: sms.id, target: tag.id })]);
    expect(tag.position.y).toBeGreaterThan(sms.position.y);
    expect(r.body.warnings.map((x: { code: string }) => x.code)).toEqual(['SMS_WITHOUT_CALLER_ID']);

    const more = await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'add-note', config: { body: 'left vm' } }], expectedVersion: 1 });
    expect(more.body.workflow.version).toBe(2);
    expect(more.body.workflow.edges.at(-1)).toMatchObject({ source: tag.id });
    const byQuery = await h.api('GET', `${wf(agentId)}?locationId=${locationId}&campaignId=${campaignId}`);
    expect(byQuery.body.data.version).toBe(2);
    expect((await h.api('GET', `${wf(agentId)}?locationId=${locationId}`)).status).toBe(400);
  });

  it('accepts the outcome raw, in any case, or as the dashboard label; 400 when the agent can never emit it', async () => {
    const { agentId } = await createProjectAgentCampaign(h, { capabilityIds: ['add_tag'] });
    const spellings: [string, string][] = [
      ['voicemail', 'VOICEMAIL'], ['Voicemail', 'VOICEMAIL'], ['VOICEMAIL', 'VOICEMAIL'], ['voiceMail', 'VOICEMAIL'],
      ['CALLBACK', 'CALLBACK'], ['callback', 'CALLBACK'], ['Call Back', 'CALLBACK'], ['callBack', 'CALLBACK'], ['call_back', 'CALLBACK'],
      ['No Action', 'NO_ACTION'], ['noAction', 'NO_ACTION'], ['no_action', 'NO_ACTION'],
    ];
    const chain = (g: { edges: { source: string; target: string }[]; dispositionEntries: Record<string, string> }, key: string) => {
      const ids: string[] = [];
      for (let id: string | undefined = g.dispositionEntries[key]; id; id = g.edges.find((e) => e.source === id)?.target) ids.push(id);
      return ids;
    };
    let version = 0;
    const expected: Record<string, string[]> = {};
    for (const [outcome, key] of spellings) {
      const r = await append(agentId, outcome, { nodes: [{ type: 'add-tag', config: { tags: [`t-${outcome}`] } }] });
      expect(r.status, outcome).toBe(200);
      const added = r.body.workflow.nodes.find((n: { config: { tags?: string[] } }) => n.config.tags?.[0] === `t-${outcome}`);
      (expected[key] ??= []).push(added.id);
      // What is stored, not only what the answer says: one more version, the step at the end of
      // that outcome's chain, under the raw key and no other.
      const stored = (await h.api('GET', wf(agentId))).body.data;
      expect(stored.version, outcome).toBe(++version);
      expect(Object.keys(stored.dispositionEntries).sort(), outcome).toEqual(Object.keys(expected).sort());
      expect(chain(stored, key), outcome).toEqual(expected[key]);
    }
    const versions = (await h.api('GET', `${wf(agentId)}/versions`)).body.data.map((v: { summary: string }) => v.summary);
    expect(versions).toEqual(spellings.map(([, key]) => `appended 1 node to ${key}`).reverse());

    const before = (await h.api('GET', wf(agentId))).body.data;
    const gated = await append(agentId, 'SUCCESS', { nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] });
    expect(gated.status).toBe(400);
    expect(gated.body).toMatchObject({ success: false, error: 'VALIDATION' });
    expect(gated.body.message).toContain('SUCCESS');
    for (const outcome of ['WHATEVER', 'voice mail box', 'SUCCESSFUL']) {
      const unknown = await append(agentId, outcome, { nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] });
      expect(unknown.status, outcome).toBe(400);
    }
    // the refusals stored nothing
    expect((await h.api('GET', wf(agentId))).body.data).toEqual(before);
  });

  it('refuses removed types, stand-ins and bad configs with a message naming node and field', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    const removed = await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'post-webhook', config: { url: 'https://hooks.acme.io' } }] });
    expect(removed.status).toBe(400);
    expect(removed.body.message).toMatch(/post-webhook.*removed/);
    const standIn = await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'send-sms', config: { body: 'REPLACE-WITH-MESSAGE' } }] });
    expect(standIn.status).toBe(400);
    expect(standIn.body.message).toMatch(/config\.body/);
    const docHost = await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'send-email', config: { subject: 'Hi', body: 'Book at https://example.com/book' } }] });
    expect(docHost.status).toBe(400);
    const bad = await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'add-tag', config: { tags: 'vm' } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/tags/);
    // Spec 4.12: PUT is the only operation that saves an unconfigured draft.
    const draftByAppend = await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'send-sms', config: {} }] });
    expect(draftByAppend.status).toBe(400);
    expect(draftByAppend.body.message).toMatch(/PUT/);
    expect((await h.api('GET', wf(agentId))).body.data.version).toBe(0);
    const draft = await h.api('PUT', wf(agentId), { body: { nodes: [{ id: 'd1', type: 'send-sms', config: {}, position: { x: 0, y: 0 } }], edges: [], dispositionEntries: { VOICEMAIL: 'd1' }, expectedVersion: 0 } });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.data.warnings.map((x: { code: string }) => x.code)).toContain('DRAFT_NODE_SKIPPED');
    expect(draft.body.data.version).toBe(1);
  });

  it('a router expands into a switch and a chain per case; appending after a branch is refused, pointing to PUT', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    const r = await append(agentId, 'CALLBACK', {
      nodes: [
        { type: 'add-note', config: { body: 'asked for a callback' } },
        {
          type: 'switch',
          config: {
            cases: [{ label: 'Has time', match: 'all', conditions: [{ field: 'call.fields.callback_time', op: 'exists' }], nodes: [{ type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' } }] }],
            default: { nodes: [{ type: 'add-tag', config: { tags: ['callback-unscheduled'] } }] },
          },
        },
      ],
    });
    expect(r.status).toBe(200);
    const sw = r.body.workflow.nodes.find((n: { type: string }) => n.type === 'switch');
    const handles = r.body.workflow.edges.filter((e: { source: string }) => e.source === sw.id).map((e: { sourceHandle: string }) => e.sourceHandle).sort();
    expect(handles).toEqual(['case-1', 'default']);
    const after = await append(agentId, 'CALLBACK', { nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] });
    expect(after.status).toBe(409);
    expect(after.body.message).toMatch(/PUT/);
    const digest = await h.api('GET', `${wf(agentId)}/digest`);
    expect(digest.status).toBe(200);
    expect(digest.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(digest.text).toMatch(/Call Back: .*callback_time/);
    expect(digest.text).toMatch(/No Action: nothing/);
  });

  it('expectedVersion: a stale write is 409 and stores nothing; Idempotency-Key replays an append', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'add-tag', config: { tags: ['a'] } }] });
    const stale = await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'add-tag', config: { tags: ['b'] } }], expectedVersion: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, error: 'CONFLICT' });
    const headers = { 'Idempotency-Key': `append-${agentId}` };
    const body = { nodes: [{ type: 'add-tag', config: { tags: ['c'] } }] };
    const first = await append(agentId, 'VOICEMAIL', body, headers);
    const replay = await append(agentId, 'VOICEMAIL', body, headers);
    expect(replay.body).toEqual(first.body);
    expect((await h.api('GET', wf(agentId))).body.data.nodes).toHaveLength(2);
  });
});

describe('PATCH, DELETE, PUT, switch outcome, versions', () => {
  it('PATCH merges config without changing the graph; DELETE re-links; PUT builds an if; versions list and restore', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    const a = (await append(agentId, 'VOICEMAIL', { nodes: [{ type: 'send-sms', config: { body: 'one' } }, { type: 'add-tag', config: { tags: ['x'] } }, { type: 'add-note', config: { body: 'n' } }] })).body.workflow;
    const [sms, tag, note] = a.nodes;
    const patched = await h.api('PATCH', wf(agentId), { body: { nodes: [{ id: sms.id, config: { body: 'two' } }], expectedVersion: 1 } });
    expect(patched.status).toBe(200);
    expectConforms(h.services, 'patchWorkflow', 200, patched.body);
    expect(patched.body.data.nodes[0].config.body).toBe('two');
    expect(patched.body.data.edges).toEqual(a.edges);
    // what was answered is what is stored
    expect((await h.api('GET', wf(agentId))).body.data).toEqual(patched.body.data);

    const deleted = await h.api('DELETE', `${wf(agentId)}/nodes/${tag.id}?expectedVersion=2`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.edges).toEqual([expect.objectContaining({ source: sms.id, target: note.id })]);
    expect((await h.api('GET', wf(agentId))).body.data).toEqual(deleted.body.data);
    expect((await h.api('DELETE', `${wf(agentId)}/nodes/nope`)).status).toBe(404);
    expect((await h.api('DELETE', `${wf(agentId)}/nodes/${note.id}?expectedVersion=2`)).status).toBe(409);
    expect((await h.api('GET', wf(agentId))).body.data).toEqual(deleted.body.data);

    const graph = deleted.body.data;
    const put = await h.api('PUT', wf(agentId), {
      body: {
        expectedVersion: 3,
        nodes: [...graph.nodes, { id: 'cond', type: 'if', config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 30 }] }, position: { x: 0, y: 400 } }, { id: 'long', type: 'add-tag', config: { tags: ['long-call'] }, position: { x: 0, y: 540 } }],
        edges: [...graph.edges, { id: 'e-if', source: note.id, target: 'cond' }, { id: 'e-true', source: 'cond', target: 'long', sourceHandle: 'true' }],
        dispositionEntries: graph.dispositionEntries,
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.version).toBe(4);
    expect(put.body.data.warnings.map((w: { code: string }) => w.code)).toContain('BRANCH_HANDLE_UNCONNECTED');

    const cycle = await h.api('PUT', wf(agentId), { body: { nodes: put.body.data.nodes, edges: [...put.body.data.edges, { id: 'back', source: 'long', target: sms.id }], dispositionEntries: graph.dispositionEntries, expectedVersion: 4 } });
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toMatch(/cycle/);
    const dangling = await h.api('PUT', wf(agentId), { body: { nodes: put.body.data.nodes, edges: [{ id: 'x', source: sms.id, target: 'ghost' }], dispositionEntries: graph.dispositionEntries, expectedVersion: 4 } });
    expect(dangling.status).toBe(400);

    const sw = await h.api('PUT', `${wf(agentId)}/outcomes/NO_ACTION/entry`, { body: { nodeId: 'long' } });
    expect(sw.status).toBe(200);
    expect(sw.body.data.dispositionEntries.NO_ACTION).toBe('long');

    const versions = await h.api('GET', `${wf(agentId)}/versions`);
    expectConforms(h.services, 'listWorkflowVersions', 200, versions.body);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([5, 4, 3, 2, 1]);
    for (const v of versions.body.data as { keyId: string | null; summary: string }[]) {
      expect(v.keyId).toMatch(/./);
      expect(v.summary).toMatch(/./);
    }
    const v1 = await h.api('GET', `${wf(agentId)}/versions/1`);
    expect(v1.body.data.nodes).toHaveLength(3);
    const restore = await h.api('PUT', wf(agentId), { body: { nodes: v1.body.data.nodes, edges: v1.body.data.edges, dispositionEntries: v1.body.data.dispositionEntries, expectedVersion: 5 } });
    expect(restore.body.data.version).toBe(6);
    expect((await h.api('GET', `${wf(agentId)}/versions/5`)).body.data.nodes).toHaveLength(4);
  });

  it('deprecated project-scoped routes behave identically and carry Deprecation, Sunset and Link', async () => {
    const { agentId, campaignId, locationId } = await createProjectAgentCampaign(h);
    const legacy = `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}/workflow`;
    const r = await h.api('POST', `${legacy}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] } });
    expect(r.status).toBe(200);
    expect(r.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(Date.parse(r.headers.get('sunset')!)).toBeGreaterThan(Number(r.headers.get('deprecation')!.slice(1)) * 1000);
    expect(r.headers.get('link')).toContain(`/api/agent-builder/agents/${agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`);
    expect(r.headers.get('link')).toContain('rel="deprecation"');
    const read = await h.api('GET', legacy);
    expect(read.body.data.nodes).toEqual((await h.api('GET', wf(agentId))).body.data.nodes);
  });

  it('workflows are tenant-scoped: another agency gets 404 and nothing is written', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    const r = await h.api('POST', `${wf(agentId)}/outcomes/VOICEMAIL/nodes`, { key: h.otherAgencyKey, body: { nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] } });
    expect(r.status).toBe(404);
    expect((await h.api('GET', wf(agentId))).body.data.version).toBe(0);
  });
});

describe('concurrency', () => {
  it('50 racing appends with expectedVersion: one winner per version, no lost node', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => append(agentId, 'VOICEMAIL', { nodes: [{ type: 'add-tag', config: { tags: [`t${i}`] } }], expectedVersion: 0 })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    const stored = (await h.api('GET', wf(agentId))).body.data;
    expect(stored.version).toBe(1);
    expect(stored.nodes).toHaveLength(1);
  });

  it('50 racing appends without expectedVersion: all land, versions contiguous, one chain', async () => {
    const { agentId } = await createProjectAgentCampaign(h);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => append(agentId, 'VOICEMAIL', { nodes: [{ type: 'add-tag', config: { tags: [`t${i}`] } }] })));
    expect(results).toHaveLength(50);
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect(results.map((r) => r.body.workflow.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const stored = (await h.api('GET', wf(agentId))).body.data;
    expect(stored.nodes).toHaveLength(50);
    // One linear chain from the entry through all 50 nodes, in the order the versions were written.
    const next = new Map(stored.edges.map((e: { source: string; target: string }) => [e.source, e.target]));
    const order: string[] = [];
    for (let cur: string | undefined = stored.dispositionEntries.VOICEMAIL; cur; cur = next.get(cur) as string | undefined) order.push(cur);
    expect(order).toHaveLength(50);
    const byVersion = results.sort((a, b) => a.body.workflow.version - b.body.workflow.version).map((r) => r.body.workflow.nodes.at(-1).config.tags[0]);
    expect(order.map((id) => stored.nodes.find((n: { id: string }) => n.id === id).config.tags[0])).toEqual(byVersion);
  });
});
