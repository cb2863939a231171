/**
 * Issue 15's conformance items, one `describe` per item, numbered as in the issue, each naming the
 * spec section it holds the product to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { expectConforms } from '../helpers/contract.js';
import { AGENT_TYPE_CATALOG, CAMPAIGN_SYSTEMS } from '../../server/catalog.js';
import { LEGACY_AGENT_TYPES as LEGACY_IDS } from '../../schemas/campaign.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';

let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
beforeAll(async () => {
  h = await createHarness({ temporal: true, config: { defaultPlanLimit: 50 } });
  ctx = await createProjectAgentCampaign(h);
});
afterAll(async () => h?.close());

const createAgent = (body: Record<string, unknown>) => h.api('POST', '/api/agent-builder/agents', { body: { name: 'Agent', locationId: ctx.locationId, ...body } });
const systemOf = (id: string) => CAMPAIGN_SYSTEMS.find((s) => s.id === id)!;

describe('1. capabilities on the campaign facet of an agent [2.11]', () => {
  it('create, get, list and update answer campaign.capabilities beside the top-level field', async () => {
    const created = await createAgent({ agentType: 'outreach', capabilityIds: ['live_transfer'] });
    expect(created.status).toBe(200);
    expectConforms(h.services, 'createAgent', 200, created.body);
    const facet = { id: created.body.data.campaignId, agentType: 'live_transfer', capabilities: ['live_transfer'] };
    expect(created.body.data.campaign).toEqual(facet);
    expect(created.body.data.capabilities).toEqual(['live_transfer']);
    const id = created.body.data.id;
    expect((await h.api('GET', `/api/agent-builder/agents/${id}`)).body.data.campaign).toEqual(facet);
    const listed = (await h.api('GET', `/api/agent-builder/agents?locationId=${ctx.locationId}`)).body.data.find((a: { id: string }) => a.id === id);
    expect(listed.campaign).toEqual(facet);
    const patched = await h.api('PATCH', `/api/agent-builder/agents/${id}`, { body: { capabilityIds: ['live_transfer', 'add_tag'] } });
    expect(patched.body.data.campaign.capabilities).toEqual(['live_transfer', 'add_tag']);
    expect(patched.body.data.capabilities).toEqual(['live_transfer', 'add_tag']);
  });
});

describe('2. Reminder agents resolve to their fixed template; systems agree with outcome gating [4.13, 4.3, 2.11]', () => {
  it('a Reminder agent created without capabilityIds gets its template\'s, and its campaign can use SUCCESS and RESCHEDULE', async () => {
    const r = await createAgent({ agentType: 'appointment' });
    expect(r.status).toBe(200);
    const template = AGENT_TYPE_CATALOG.find((t) => t.id === 'appointment')!.templates[0]!;
    expect(r.body.data.capabilities).toEqual(template.capabilityIds);
    expect(r.body.data.campaign.agentType).toBe('appointment_confirmation');
    expect(r.body.data.outcomes).toEqual(systemOf('appointment_confirmation').dispositions);
    for (const outcome of ['SUCCESS', 'RESCHEDULE']) {
      const append = await h.api('POST', `/api/agent-builder/agents/${r.body.data.id}/campaign/workflow/outcomes/${outcome}/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['confirmed'] } }] } });
      expect(append.status, append.text).toBe(200);
    }
  });

  it('other capabilities for a Reminder agent are refused, on create and on update', async () => {
    const r = await createAgent({ agentType: 'appointment', capabilityIds: ['live_transfer'] });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('body.capabilityIds');
    const ok = await createAgent({ agentType: 'appointment', capabilityIds: ['appointment_booking'] });
    expect(ok.status).toBe(200);
    const patch = await h.api('PATCH', `/api/agent-builder/agents/${ok.body.data.id}`, { body: { capabilityIds: [] } });
    expect(patch.status).toBe(400);
    expect((await h.store.agents.get(h.agencyId, ok.body.data.id))!.capabilities).toEqual(['appointment_booking']);
  });

  it("the document states the Reminder agent's fixed capabilities, as the catalog has them", async () => {
    const { CreateAgentBody } = await import('../../schemas/agent.js');
    const { fixedTemplateOf } = await import('../../server/catalog.js');
    const fixed = fixedTemplateOf('appointment')!;
    expect(CreateAgentBody.then.properties.capabilityIds.const).toEqual([...fixed.capabilityIds]);
    expect(CreateAgentBody.then.properties.capabilityIds['x-error']).toContain(`fixed template ${fixed.id}`);
    expect(AGENT_TYPE_CATALOG.filter((t) => 'template' in t).map((t) => t.id)).toEqual(['appointment']);
  });

  it('for every agent type and template, the agent emits exactly what its campaign system lists', async () => {
    const checked: string[] = [];
    for (const type of AGENT_TYPE_CATALOG) {
      for (const template of type.templates) {
        const r = await createAgent({ agentType: type.id, capabilityIds: [...template.capabilityIds] });
        expect(r.status, `${type.id}/${template.id}: ${r.text}`).toBe(200);
        const legacy = (await h.store.campaigns.get(h.agencyId, r.body.data.campaignId))!.agentType!;
        expect(legacy, `${type.id}/${template.id}`).toBe(template.id);
        expect(r.body.data.outcomes, `${type.id}/${template.id} emits what system ${legacy} lists`).toEqual(systemOf(legacy).dispositions);
        checked.push(`${type.id}/${template.id}`);
      }
    }
    expect(checked).toHaveLength(7);
    // The systems the API lists say the same.
    const systems = (await h.api('GET', '/api/v2/projects/systems')).body.data as { id: string; dispositions: string[] }[];
    for (const s of systems) expect(s.dispositions).toEqual(systemOf(s.id).dispositions);
  });
});

describe('9. dialing: confirmation reads as nothing, reactivation as stored [9]', () => {
  it('a stored confirmation campaign reads dialing null everywhere it is shown; reactivation reads back', async () => {
    const setDialing = (id: string, dialing: string) =>
      h.db.prepare("UPDATE campaigns SET doc = json_set(doc, '$.dialing', ?) WHERE id = ?").run(dialing, id);
    const a = await createProjectAgentCampaign(h);
    const reactivation = (await h.api('POST', `/api/agent-builder/projects/${a.locationId}/campaigns`, { body: { name: 'old list', agentId: a.agentId } })).body.data.id;
    setDialing(a.campaignId, 'confirmation');
    setDialing(reactivation, 'reactivation');
    const one = await h.api('GET', `/api/agent-builder/projects/${a.locationId}/campaigns/${a.campaignId}`);
    expect(one.status).toBe(200);
    expect(one.body.data.dialing).toBeNull();
    const list = (await h.api('GET', `/api/agent-builder/projects/${a.locationId}/campaigns`)).body.data;
    const project = (await h.api('GET', `/api/v2/projects/${a.projectId}`)).body.data;
    for (const campaigns of [list, project.campaigns]) {
      expect(campaigns.find((c: { id: string }) => c.id === a.campaignId).dialing).toBeNull();
      expect(campaigns.find((c: { id: string }) => c.id === reactivation).dialing).toBe('reactivation');
    }
    // An update of something else leaves the stored mode alone and still reads null.
    const renamed = await h.api('PATCH', `/api/agent-builder/projects/${a.locationId}/campaigns/${a.campaignId}`, { body: { name: 'renamed' } });
    expect(renamed.body.data).toMatchObject({ name: 'renamed', dialing: null });
  });
});

describe('3. a wrong method on a known path: 405 in the envelope with Allow [1, 7]', () => {
  // Also over every method and TRACE/CONNECT in test/reliability/bad-input.test.ts.
  it('DELETE on the project list is a 405 naming the allowed methods, in the body and the Allow header', async () => {
    const r = await h.api('DELETE', '/api/v2/projects');
    expect(r.status).toBe(405);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body).toEqual({ success: false, error: 'MethodNotAllowed', message: expect.stringContaining('allowed') });
    expect(r.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });
});

describe('4. Idempotency-Key: empty is a 400; the same JSON in another key order or spacing is the same request [4.12, 8]', () => {
  const append = () => `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/CALLBACK/nodes`;
  it('an empty key is refused, never treated as no key', async () => {
    const before = (await h.store.workflows.get(h.agencyId, ctx.campaignId)).version;
    const r = await h.api('POST', append(), { body: { nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] }, headers: { 'Idempotency-Key': '' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('Idempotency-Key');
    expect((await h.store.workflows.get(h.agencyId, ctx.campaignId)).version).toBe(before);
  });

  it('reordered keys and other whitespace replay the first response; another request with the key is 409', async () => {
    const key = `canon-${Date.now()}`;
    const first = await h.api('POST', append(), {
      rawBody: JSON.stringify({ nodes: [{ type: 'add-tag', config: { tags: ['callback'] } }] }),
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    });
    expect(first.status).toBe(200);
    const version = (await h.store.workflows.get(h.agencyId, ctx.campaignId)).version;
    const same = await h.api('POST', append(), {
      rawBody: '{\n  "nodes" : [ { "config": { "tags": [ "callback" ] },\t"type": "add-tag" } ]\n}\n',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
    });
    expect(same.status, same.text).toBe(200);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(same.body).toEqual(first.body);
    expect((await h.store.workflows.get(h.agencyId, ctx.campaignId)).version).toBe(version);
    const other = await h.api('POST', append(), { body: { nodes: [{ type: 'add-tag', config: { tags: ['other'] } }] }, headers: { 'Idempotency-Key': key } });
    expect(other.status).toBe(409);
  });
});

describe('5. buy and assign refuse a campaign of a deleted project [4.5, 4.6, 3.1]', () => {
  it('404 NotFound for both, and nothing is bought or assigned', async () => {
    const live = await createProjectAgentCampaign(h);
    const bought = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: live.campaignId, areaCode: 212 } });
    expect(bought.status).toBe(200);
    const number = bought.body.phoneNumber.phoneNumber as string;
    const gone = await createProjectAgentCampaign(h);
    expect((await h.api('DELETE', `/api/v2/projects/${gone.projectId}`)).status).toBe(200);
    const owned = (await h.store.phoneNumbers.list(h.agencyId)).length;
    const buy = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: gone.campaignId, areaCode: 212 } });
    expect(buy.status).toBe(404);
    expect(buy.body).toMatchObject({ success: false, error: 'NotFound' });
    expect(await h.store.phoneNumbers.list(h.agencyId)).toHaveLength(owned);
    const assign = await h.api('POST', `/api/agent-builder/phone-numbers/${encodeURIComponent(number)}/assign`, { body: { campaignId: gone.campaignId } });
    expect(assign.status).toBe(404);
    expect(assign.body).toMatchObject({ success: false, error: 'NotFound' });
    expect((await h.store.campaigns.get(h.agencyId, gone.campaignId))!.fromNumbers).toEqual([]);
  });
});

describe('6. project update: a spec field is updated or refused by name, never a 200 that changes nothing [4.1]', () => {
  const put = (id: string, body?: unknown) => h.api('PUT', `/api/v2/projects/${id}`, body === undefined ? {} : { body });
  it('timezone and companyId are updated; a time zone that is not one is a 400 naming it', async () => {
    const { projectId } = await createProjectAgentCampaign(h);
    const r = await put(projectId, { timezone: 'America/New_York', companyId: 'co_42' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ timezone: 'America/New_York', companyId: 'co_42' });
    expect((await h.api('GET', `/api/v2/projects/${projectId}`)).body.data).toMatchObject({ timezone: 'America/New_York', companyId: 'co_42' });
    const bad = await put(projectId, { timezone: 'Mars/Olympus_Mons' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('body.timezone');
    expect((await h.store.projects.get(h.agencyId, projectId))!.timezone).toBe('America/New_York');
  });

  it('a field the server owns, sent with another value, is a 400 naming it; sent back unchanged it is accepted', async () => {
    const { projectId } = await createProjectAgentCampaign(h);
    for (const [field, value] of [['status', 'disconnected'], ['id', 'prj_hijack'], ['locationId', 'loc_other'], ['installed', false], ['crm', 'crm_b'], ['agencyId', 'someone_else'], ['createdAt', '2020-01-01T00:00:00.000Z']] as const) {
      const r = await put(projectId, { [field]: value });
      expect(r.status, `${field}: ${r.text}`).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: 'VALIDATION' });
      expect(r.body.message).toContain(`body.${field}`);
    }
    const stored = (await h.store.projects.get(h.agencyId, projectId))!;
    expect(stored).toMatchObject({ status: 'live', installed: true, crm: 'crm_a' });
    // The whole project as read, sent back with one change: the change is made, the rest matches.
    const current = (await h.api('GET', `/api/v2/projects/${projectId}`)).body.data;
    const roundTrip = await put(projectId, { ...current, knowledgeBase: 'hours: 9-5' });
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body.data.knowledgeBase).toBe('hours: 9-5');
  });

  it('a request with no body is a 400', async () => {
    const { projectId } = await createProjectAgentCampaign(h);
    const r = await put(projectId);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('body');
  });
});

describe('7. a bare host of a reserved documentation domain is a stand-in [2.10]', () => {
  it('an append whose SMS names www.example.com/book is refused, naming the field; a real host is stored', async () => {
    const url = `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`;
    for (const text of ['Book at www.example.com/book', 'Portal: clinic.example', 'Login at portal.test', 'See app.invalid']) {
      const r = await h.api('POST', url, { body: { nodes: [{ type: 'send-sms', config: { body: text } }] } });
      expect(r.status, text).toBe(400);
      expect(r.body.message).toContain('config.body');
      expect(r.body.message).toContain('stand-in');
    }
    const ok = await h.api('POST', url, { body: { nodes: [{ type: 'send-sms', config: { body: 'Book at brightsmile.dental/book' } }] } });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('8. clearing an outcome the agent can no longer emit [4.12]', () => {
  it('nodeId null clears the entry; pointing it at a node is still refused', async () => {
    const a = await createProjectAgentCampaign(h, { capabilityIds: ['appointment_booking'] });
    const wf = `/api/agent-builder/agents/${a.agentId}/campaign/workflow`;
    const appended = await h.api('POST', `${wf}/outcomes/SUCCESS/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['booked'] } }] } });
    expect(appended.status).toBe(200);
    const nodeId = appended.body.workflow.dispositionEntries.SUCCESS;
    expect((await h.api('PATCH', `/api/agent-builder/agents/${a.agentId}`, { body: { capabilityIds: ['add_tag'] } })).status).toBe(200);
    const point = await h.api('PUT', `${wf}/outcomes/SUCCESS/entry`, { body: { nodeId } });
    expect(point.status).toBe(400);
    const cleared = await h.api('PUT', `${wf}/outcomes/SUCCESS/entry`, { body: { nodeId: null, expectedVersion: appended.body.workflow.version } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data.dispositionEntries).not.toHaveProperty('SUCCESS');
    expect((await h.store.workflows.get(h.agencyId, a.campaignId)).graph.dispositionEntries).not.toHaveProperty('SUCCESS');
  });
});

describe('10. call records: agentType in one vocabulary, date in the project time zone, units documented [2.6]', () => {
  it('a campaign without a legacy agentType still records the legacy id; the date is the local calendar date', async () => {
    const a = await createProjectAgentCampaign(h, { timezone: 'Pacific/Auckland', capabilityIds: ['live_transfer'] });
    const plain = (await h.api('POST', `/api/agent-builder/projects/${a.locationId}/campaigns`, { body: { name: 'no template', agentId: a.agentId } })).body.data;
    expect(plain.agentType).toBeNull();
    const event = callEnded(plain.id);
    event.call.dateTime = '2026-03-10T20:30:00.000Z'; // 09:30 on 11 March in Auckland (UTC+13)
    expect((await postCallEvent(h, event)).status).toBe(202);
    await awaitRun(h, event.call.callId);
    const r = await h.api('GET', `/api/call-history/by-call-id/${event.call.callId}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ agentType: 'live_transfer', date: '2026-03-11', dateTime: '2026-03-10T20:30:00.000Z' });
    expect(LEGACY_IDS).toContain(r.body.data.agentType);
  });

  it('a record stored with an Agents-module type reads back in the legacy vocabulary, in lists too', async () => {
    const a = await createProjectAgentCampaign(h, { timezone: 'America/Chicago', capabilityIds: ['add_tag'] });
    const event = callEnded(a.campaignId);
    event.call.dateTime = '2026-03-11T03:00:00.000Z'; // 22:00 on 10 March in Chicago
    expect((await postCallEvent(h, event)).status).toBe(202);
    await awaitRun(h, event.call.callId);
    h.db.prepare("UPDATE calls SET doc = json_set(doc, '$.agentType', 'outreach', '$.date', '2026-03-11') WHERE call_id = ?").run(event.call.callId);
    const one = (await h.api('GET', `/api/call-history/by-call-id/${event.call.callId}`)).body.data;
    expect(one).toMatchObject({ agentType: 'add_tag', date: '2026-03-10' });
    const listed = (await h.api('GET', `/api/call-history?campaignId=${a.campaignId}`)).body.data.calls;
    expect(listed[0]).toMatchObject({ callId: event.call.callId, agentType: 'add_tag', date: '2026-03-10' });
  });

  it('the OpenAPI document states the units of duration and cost', async () => {
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    const op = doc.paths['/api/call-history/by-call-id/{callId}'].get;
    const schema = op.responses['200'].content['application/json'].schema.properties.data;
    expect(schema.properties.duration.description).toMatch(/seconds/);
    expect(schema.properties.cost.description).toMatch(/US dollars/);
    expect(schema.properties.date.description).toMatch(/time zone/);
  });
});

describe('11. the power-dialer 403 says the caller has no access to the project [7]', () => {
  it('a key without the scope, or of the wrong role, gets the short body saying so, with the reason after it', async () => {
    const noScope = await h.key({ scopes: ['projects:read'] });
    const r = await h.api('GET', '/api/power-dialer/pipeline/leads?cadenceStep=0', { key: noScope });
    expect(r.status).toBe(403);
    expect(Object.keys(r.body).sort()).toEqual(['error', 'success']);
    expect(r.body.error).toMatch(/^You do not have access to this project/);
    expect(r.body.error).toContain('power_dialer:read');
    const user = await h.key({ role: 'project_user', scopes: ['power_dialer:read', 'power_dialer:write'], projectIds: [ctx.projectId] });
    const w = await h.api('POST', '/api/power-dialer/cadences', { key: user, body: { name: 'x', steps: [{ delayMinutes: 0 }] } });
    expect(w.status).toBe(403);
    expect(w.body.error).toMatch(/^You do not have access to this project/);
    // A project filter the caller cannot reach: exactly the sentence.
    const other = await h.api('GET', '/api/power-dialer/pipeline/leads?cadenceStep=0&locationId=loc_nowhere', { key: user });
    expect(other.body).toEqual({ success: false, error: 'You do not have access to this project' });
  });
});

describe('12. every 409 carries a code that tells its cause [7]', () => {
  it('stale expectedVersion, a reused Idempotency-Key, appending after a branch, the plan limit', async () => {
    const a = await createProjectAgentCampaign(h);
    const wf = `/api/agent-builder/agents/${a.agentId}/campaign/workflow`;
    const tag = (t: string) => ({ nodes: [{ type: 'add-tag', config: { tags: [t] } }] });
    expect((await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { ...tag('a'), expectedVersion: 0 } })).status).toBe(200);
    const stale = await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { ...tag('b'), expectedVersion: 0 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, error: 'CONFLICT', code: 'StaleVersion' });

    const headers = { 'Idempotency-Key': `reuse-${Date.now()}` };
    expect((await h.api('POST', `${wf}/outcomes/CALLBACK/nodes`, { body: tag('c'), headers })).status).toBe(200);
    const reused = await h.api('POST', `${wf}/outcomes/CALLBACK/nodes`, { body: tag('d'), headers });
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ error: 'CONFLICT', code: 'IdempotencyKeyReused' });

    const router = { nodes: [{ type: 'switch', config: { cases: [{ label: 'yes', match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 10 }], nodes: [{ type: 'add-tag', config: { tags: ['long'] } }] }] } }] };
    expect((await h.api('POST', `${wf}/outcomes/NO_ACTION/nodes`, { body: router })).status).toBe(200);
    const branch = await h.api('POST', `${wf}/outcomes/NO_ACTION/nodes`, { body: tag('after') });
    expect(branch.status).toBe(409);
    expect(branch.body).toMatchObject({ error: 'CONFLICT', code: 'ChainEndsInBranch' });

    const agencyId = `${h.agencyId}_cap1`;
    await h.store.agencies.ensure(agencyId, 'One-slot agency', 1);
    const key = await h.key({ agencyId });
    expect((await h.api('POST', '/api/v2/projects', { key, body: { crm: 'crm_a', locationId: 'cap_a' } })).status).toBe(200);
    const cap = await h.api('POST', '/api/v2/projects', { key, body: { crm: 'crm_a', locationId: 'cap_b' } });
    expect(cap.status).toBe(409);
    expect(cap.body).toMatchObject({ error: 'CONFLICT', code: 'SubAccountCapReached' });
    const codes = new Set([stale.body.code, reused.body.code, branch.body.code, cap.body.code]);
    expect(codes.size).toBe(4);
  });
});

describe('13. PUT .../workflow requires expectedVersion [4.12]', () => {
  it('without it: 400 naming it, nothing stored; with it: stored', async () => {
    const a = await createProjectAgentCampaign(h);
    const wf = `/api/agent-builder/agents/${a.agentId}/campaign/workflow`;
    const graph = { nodes: [{ id: 'n1', type: 'add-tag', config: { tags: ['x'] }, position: { x: 0, y: 0 } }], edges: [], dispositionEntries: { VOICEMAIL: 'n1' } };
    const missing = await h.api('PUT', wf, { body: graph });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('expectedVersion');
    expect((await h.store.workflows.get(h.agencyId, a.campaignId)).version).toBe(0);
    const ok = await h.api('PUT', wf, { body: { ...graph, expectedVersion: 0 } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.version).toBe(1);
  });
});

describe('14. the Link rel="deprecation" target is served [4.12, RFC 9745]', () => {
  it('a page lists every deprecated route with its replacement and sunset date, at the anchor the Link names', async () => {
    const a = await createProjectAgentCampaign(h);
    const r = await h.api('GET', `/api/agent-builder/projects/${a.locationId}/campaigns/${a.campaignId}/workflow`);
    expect(r.status).toBe(200);
    const target = /<([^>]+)>;\s*rel="deprecation"/.exec(r.headers.get('link')!)![1]!;
    const url = new URL(target, h.url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(`id="${url.hash.slice(1)}"`);
    const deprecated = (await import('../../server/app.js')).allRoutes(h.services).filter((d) => d.deprecated);
    expect(deprecated.length).toBeGreaterThan(0);
    for (const d of deprecated) {
      const path = d.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect(html, path).toContain(`${d.method.toUpperCase()} ${path}`);
      expect(html).toContain(d.deprecated!.replacedBy(path).replaceAll('&', '&amp;'));
    }
    expect(html).toContain('2027-07-01');
    expect(html).toContain('2026-07-01');
  });
});
