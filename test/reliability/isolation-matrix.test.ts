/**
 * Every keyed endpoint (taken from the route declarations in server/app.ts, so a new endpoint is
 * covered without editing this file) x {no key, revoked key, another agency's admin, a
 * project_user of another project, an admin key missing the scope}: the status spec 5/7 and
 * ARCHITECTURE.md prescribe, and none of the victim tenant's ids, names or tags in any body.
 *
 * Each request is one the victim's own admin could make successfully (a real id in every path
 * parameter, a valid body), so a refusal comes from authorisation, never from validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/app.js';
import type { RouteDef } from '../../server/http/route.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { SCOPES, type Scope } from '../../server/store/index.js';
import { startTwilioFake, type TwilioFake } from '../fakes/twilio-fake.js';
import { startVapiFake, type VapiFake } from '../fakes/vapi-fake.js';

let h: Harness;
let victim: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let ids: Record<string, string>;
let secrets: string[];
let snapshot: () => Promise<unknown>;
let victimContactId: string;
let probes = 0;

let twilio: TwilioFake;
let vapi: VapiFake;
const TWILIO = { accountSid: `AC${'1'.repeat(32)}`, authToken: 'matrix-auth-token-0001' };

beforeAll(async () => {
  // Operations that verify credentials with a vendor reach local fakes, never the internet.
  twilio = await startTwilioFake(TWILIO);
  vapi = await startVapiFake();
  h = await createHarness({ temporal: true, config: { defaultPlanLimit: 10, rateLimitPoints: 1_000_000, twilioBaseUrl: twilio.url, vapiBaseUrl: vapi.url } });
  victim = await createProjectAgentCampaign(h);
  const wf = `/api/agent-builder/agents/${victim.agentId}/campaign/workflow`;
  const appended = await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['victim-tag'] } }, { type: 'add-note', config: { body: 'victim note' } }] } });
  const number = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: victim.campaignId, areaCode: 512 } });
  const cadence = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'Victim cadence', steps: [{ delayMinutes: 0 }] } });
  // A lead needs an active campaign with an enrolment tag; its window never opens, so it waits.
  const patched = await h.api('PATCH', `/api/agent-builder/projects/${victim.locationId}/campaigns/${victim.campaignId}`, {
    body: { active: true, activeTags: ['victim-lead'], config: { cadenceId: cadence.body.data.id }, callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' } },
  });
  expect(patched.status, patched.text).toBe(200);
  const lead = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId: victim.campaignId, contact: { firstName: 'Victorio', phone: '+15125550177', tags: ['victim-lead'] } } });
  expect(lead.status, lead.text).toBe(200);
  const contact = await h.store.crm.createContact(h.agencyId, { locationId: victim.locationId, firstName: 'Victimina', phone: '+15125550199' });
  victimContactId = contact.id;
  const event = callEnded(victim.campaignId, { contactId: contact.id });
  await postCallEvent(h, event);
  await awaitRun(h, event.call.callId);
  const execution = (await h.store.executions.firstOfCall(h.agencyId, event.call.callId))!;
  ids = {
    project: victim.projectId,
    location: victim.locationId,
    agent: victim.agentId,
    campaign: victim.campaignId,
    node: appended.body.workflow.nodes[0].id,
    number: number.body.phoneNumber.phoneNumber,
    cadence: cadence.body.data.id,
    lead: lead.body.data._id,
    call: event.call.callId,
    execution: execution.id,
    key: (await h.store.apiKeys.create({ agencyId: h.agencyId, name: 'Victim key', role: 'agency_admin', scopes: ['calls:read'], projectIds: [] })).key.id,
  };
  secrets = [...Object.values(ids), contact.id, 'Victimina', 'Victorio', 'victim-tag', 'victim note', 'victim-lead', 'Victim cadence'];
  // What no foreign caller may change.
  snapshot = async () => ({
    project: await h.store.projects.get(h.agencyId, victim.projectId),
    agent: await h.store.agents.get(h.agencyId, victim.agentId),
    campaign: await h.store.campaigns.get(h.agencyId, victim.campaignId),
    workflow: await h.store.workflows.get(h.agencyId, victim.campaignId),
    cadence: await h.store.cadences.get(h.agencyId, ids.cadence!),
    lead: await h.store.leads.get(h.agencyId, ids.lead!),
    call: await h.store.calls.get(h.agencyId, ids.call!),
    execution: await h.store.executions.get(h.agencyId, ids.execution!),
    number: await h.store.phoneNumbers.get(h.agencyId, ids.number!),
    contact: await h.store.crm.getContact(h.agencyId, victim.locationId, victimContactId),
    leads: await h.store.leads.ofContact(h.agencyId, victim.locationId, victimContactId),
    effects: h.db.prepare('SELECT idempotency_key, result FROM port_effects WHERE agency_id = ? ORDER BY idempotency_key').all(h.agencyId),
    outbox: h.db.prepare('SELECT id, body FROM outbox WHERE agency_id = ? ORDER BY id').all(h.agencyId),
    executionCount: h.db.prepare('SELECT count(*) AS n FROM executions WHERE agency_id = ?').get(h.agencyId),
    victimKey: await h.store.apiKeys.get(h.agencyId, ids.key!),
  });
});
afterAll(async () => {
  await h?.close();
  await twilio?.close();
  await vapi?.close();
});

/** A concrete path naming the victim's resources (or, given another id set, another tenant's). */
function pathOf(route: RouteDef, ids_: Record<string, string> = ids): string {
  const ids = ids_;
  const byName: Record<string, string> = {
    locationId: ids.location!, campaignId: ids.campaign!, agentId: ids.agent!, outcome: 'VOICEMAIL', nodeId: ids.node!,
    callId: ids.call!, number: encodeURIComponent(ids.number!), executionId: ids.execution!, version: '1', leadId: ids.lead!, keyId: ids.key!,
    from: '0', to: '1', templateId: 'appointment-booking', replayId: 'rpl_matrix_probe',
  };
  return route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    if (name !== 'id') {
      if (!byName[name]) throw new Error(`isolation matrix: no victim value for path parameter :${name} of ${route.operationId}; add one to pathOf`);
      return byName[name]!;
    }
    if (route.path.startsWith('/api/v2/projects')) return ids.project!;
    if (route.path.startsWith('/api/power-dialer/cadences')) return ids.cadence!;
    return ids.agent!;
  });
}

/** A body the victim's own admin could send to this operation: valid, naming the victim's resources. */
function bodyOf(route: RouteDef, ids_: Record<string, string> = ids): unknown {
  const ids = ids_;
  const bodies: Record<string, () => unknown> = {
    connectProject: () => ({ crm: 'crm_a', locationId: `loc_probe_${++probes}` }),
    updateProject: () => ({ knowledgeBase: 'probe' }),
    createAgent: () => ({ name: 'Probe', agentType: 'outreach', locationId: ids.location, capabilityIds: [] }),
    updateAgent: () => ({ name: 'Probe' }),
    createCampaign: () => ({ name: 'Probe', agentId: ids.agent }),
    updateCampaign: () => ({ name: 'Probe' }),
    buyPhoneNumber: () => ({ campaignId: ids.campaign, areaCode: 512 }),
    assignPhoneNumber: () => ({ campaignId: ids.campaign }),
    markCallReviewed: () => ({ reviewed: true }),
    createCadence: () => ({ name: 'Probe cadence', steps: [{ delayMinutes: 0 }] }),
    updateCadence: () => ({ name: 'Probe' }),
    enrolLead: () => ({ campaignId: ids.campaign, contact: { firstName: 'Probe', phone: '+15125550166', tags: ['victim-lead'] } }),
    appendWorkflowNodes: () => ({ nodes: [{ type: 'add-tag', config: { tags: ['probe'] } }] }),
    replaceWorkflow: () => ({ nodes: [], edges: [], dispositionEntries: {}, expectedVersion: 0 }),
    patchWorkflow: () => ({ nodes: [{ id: ids.node, label: 'probe' }] }),
    switchWorkflowOutcome: () => ({ nodeId: ids.node }),
    reconnectProject: () => ({ credentials: { token: 'pit-matrix-probe-token' } }),
    updateAgency: () => ({ smsCarrier: 'crm' }),
    putTwilioCredentials: () => TWILIO,
    putVapiCredentials: () => ({ apiKey: vapi.apiKey }),
    rotateSigningSecret: () => ({ graceSeconds: 3600 }),
    registerPhoneNumber: () => ({ nickname: 'probe' }),
    startWorkflowTestRun: () => ({ outcome: 'VOICEMAIL' }),
    previewWorkflowImpact: () => ({ nodes: [], edges: [], dispositionEntries: {} }),
    startWorkflowReplay: () => ({ days: 1, limit: 1, graph: { nodes: [], edges: [], dispositionEntries: {} } }),
    applyWorkflowTemplate: () => ({}),
    retryFailedRuns: () => ({ executionIds: [ids.execution] }),
    createApiKey: () => ({ name: 'Probe key', role: 'project_user', scopes: ['calls:read'], projectIds: [ids.project] }),
  };
  if (!route.body) return undefined;
  const make = bodies[route.operationId.replace(/ProjectScoped$/, '')];
  if (!make) throw new Error(`isolation matrix: no sample body for ${route.operationId}; add a valid one to bodyOf`);
  return make();
}

/** Operations whose body names a victim resource even though the path does not. */
const bodyNamesVictim = new Set(['createAgent', 'buyPhoneNumber', 'enrolLead', 'createApiKey']);
const namesVictim = (r: RouteDef) => /:[A-Za-z]+/.test(r.path) || bodyNamesVictim.has(r.operationId);

const keyed = () => allRoutes(h.services).filter((r) => typeof r.access === 'object');
const access = (r: RouteDef) => r.access as { scope: Scope; roles: readonly string[] };

/**
 * The victim's ids and names must not appear, except those the caller itself sent (echoed in a 404
 * message). Whole tokens only: a short id such as the node's `n1` can occur inside a random id
 * (`cad_R_0rIP78n1-PsQ`), which is not a leak of it.
 */
function expectNoForeignData(text: string, what: string, sent = '', allowed: string[] = []) {
  const echoed = decodeURIComponent(sent);
  const occurs = (s: string) => new RegExp(`(?<![A-Za-z0-9_-])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_-])`).test(text);
  for (const s of secrets) if (!allowed.includes(s) && !echoed.includes(s)) expect(occurs(s), `${what} leaked ${s}: ${text.slice(0, 300)}`).toBe(false);
}

/** Query parameters an operation cannot do without. */
const queryOf = (r: RouteDef) => (r.operationId === 'listPipelineLeads' ? '?cadenceStep=0' : '');

async function call(r: RouteDef, key: string | null) {
  const path = pathOf(r) + queryOf(r);
  const body = bodyOf(r);
  const res = await h.api(r.method.toUpperCase(), path, { key, body });
  return { res, sent: path + JSON.stringify(body ?? '') };
}

describe('tenant isolation matrix', () => {
  it('covers every keyed endpoint, each with a victim path and a valid body', () => {
    expect(keyed().length).toBeGreaterThanOrEqual(50);
    for (const r of keyed()) {
      expect(() => pathOf(r)).not.toThrow();
      expect(() => bodyOf(r)).not.toThrow();
    }
  });

  it('no key and a revoked key: 401 Unauthorized everywhere', async () => {
    const { key, secret } = await h.store.apiKeys.create({ agencyId: h.agencyId, name: 'to revoke', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] });
    await h.store.apiKeys.revoke(h.agencyId, key.id);
    const before = await snapshot();
    for (const r of keyed()) {
      for (const k of [null, secret]) {
        const { res } = await call(r, k);
        expect(res.status, `${r.operationId} key=${k ? 'revoked' : 'none'}`).toBe(401);
        expect(res.body.success).toBe(false);
        expect(res.body.error).toBe('Unauthorized');
        expectNoForeignData(res.text, r.operationId);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("another agency's admin: 404 for every victim resource, its own data otherwise, never the victim's", async () => {
    const before = await snapshot();
    // Not 404, on purpose: a phone number is owned by one agency at a time, so another agency's
    // number cannot be registered (409), which says only that it is taken.
    const exceptions: Record<string, number> = { registerPhoneNumber: 409 };
    for (const r of keyed()) {
      const { res, sent } = await call(r, h.otherAgencyKey);
      const expected = exceptions[r.operationId] ?? (namesVictim(r) ? 404 : 200);
      expect(res.status, `${r.operationId} ${res.text.slice(0, 200)}`).toBe(expected);
      if (expected === 404) expect(res.body.success).toBe(false);
      expectNoForeignData(res.text, r.operationId, sent);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a project_user of another project: 403, never the data', async () => {
    const other = await createProjectAgentCampaign(h);
    const key = await h.key({ role: 'project_user', projectIds: [other.projectId] });
    // Not 403, on purpose:
    const exceptions: Record<string, { status: number; why: string }> = {
      getCallByCallId: { status: 404, why: 'spec 4.9: 404 when the call is not found or access is denied' },
      markCallReviewed: { status: 404, why: 'the call is addressed as in 4.9' },
      getLead: { status: 404, why: 'a lead is addressed by its own id, like a call' },
      getCadence: { status: 200, why: 'cadences belong to the agency, not to a project' },
    };
    const before = await snapshot();
    for (const r of keyed()) {
      const { res, sent } = await call(r, key);
      const exception = exceptions[r.operationId];
      const adminOnly = !access(r).roles.includes('project_user');
      const expected = adminOnly ? 403 : (exception?.status ?? (namesVictim(r) ? 403 : 200));
      expect(res.status, `${r.operationId} ${res.text.slice(0, 200)}`).toBe(expected);
      if (expected === 403) {
        expect(res.body.success).toBe(false);
        if (!r.path.startsWith('/api/power-dialer')) expect(res.body.error).toBe('Forbidden');
      }
      expectNoForeignData(res.text, r.operationId, sent, [ids.cadence!, 'Victim cadence']);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('an admin key missing the scope: 403 naming the scope, and nothing changes', async () => {
    const before = await snapshot();
    for (const r of keyed()) {
      const scope = access(r).scope;
      const key = await h.key({ scopes: SCOPES.filter((x) => x !== scope) });
      const { res } = await call(r, key);
      expect(res.status, r.operationId).toBe(403);
      expect(res.text).toContain(scope);
      expectNoForeignData(res.text, r.operationId);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("list filters naming the victim's project or campaign return nothing of it", async () => {
    const other = await createProjectAgentCampaign(h);
    const projectUser = await h.key({ role: 'project_user', projectIds: [other.projectId] });
    const filters: Record<string, string> = { locationId: ids.location!, campaignId: ids.campaign!, campaignIds: ids.campaign!, scheduleId: ids.cadence!, agentId: ids.agent! };
    const lists = keyed().filter((r) => r.method === 'get' && !/:[A-Za-z]+/.test(r.path) && r.query);
    let probed = 0;
    for (const r of lists) {
      const props = Object.keys((r.query as { properties?: object }).properties ?? {});
      for (const name of props.filter((p) => filters[p])) {
        const path = `${r.path}${queryOf(r) ? `${queryOf(r)}&` : '?'}${name}=${encodeURIComponent(filters[name]!)}`;
        for (const [who, key] of [['other agency', h.otherAgencyKey], ['project_user', projectUser]] as const) {
          const res = await h.api('GET', path, { key });
          probed++;
          expect(res.status, `${who} ${path}`).toBeLessThan(500);
          if (res.status === 200) expect(JSON.stringify(res.body.data ?? res.body), `${who} ${path}`).not.toMatch(/Victim|victim/);
          else expect([403, 404], `${who} ${path} -> ${res.status}`).toContain(res.status);
          // Spec 4.7: a project filter the caller has no access to is a 403.
          if (name === 'locationId' && r.path.startsWith('/api/power-dialer')) expect(res.status, `${who} ${path}`).toBe(403);
          expectNoForeignData(res.text, `${who} ${path}`, path, [ids.cadence!, 'Victim cadence']);
        }
      }
    }
    expect(probed).toBeGreaterThan(5);
  });

  it('another agency may connect the same CRM location without learning that it is connected elsewhere', async () => {
    const res = await h.api('POST', '/api/v2/projects', { key: h.otherAgencyKey, body: { crm: 'crm_a', locationId: ids.location } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.id).not.toBe(ids.project);
    expectNoForeignData(res.text, 'connectProject', ids.location!);
    expect((await h.store.projects.get(h.agencyId, victim.projectId))!.status).toBe('live');
  });
});

/**
 * Outside ids (call ids, CRM contact ids, Idempotency-Key values) are unique per agency only. An
 * agency that connects the victim's CRM location and sends the victim's own outside ids gets its
 * own resources, runs and replays — never the victim's, and the victim's stored state never moves.
 */
describe("tenant isolation matrix: another agency with the victim's outside ids", () => {
  let theirs: Record<string, string>;
  const victimKeys: Record<string, string> = {};
  /**
   * What both tenants hold: the CRM location, call id and contact id are the attacker's own too; the
   * attacker's campaign enrols the same tag (the sample enrolment body's) and node ids are per graph.
   */
  const shared = () => [ids.location!, ids.call!, victimContactId, 'victim-lead', ids.node!];

  beforeAll(async () => {
    // The victim used an Idempotency-Key on every create-style operation.
    for (const r of keyed().filter((x) => x.idempotent)) {
      const key = `victim-key-${r.operationId}`;
      const res = await h.api(r.method.toUpperCase(), pathOf(r) + queryOf(r), { body: bodyOf(r), headers: { 'Idempotency-Key': key } });
      expect([200, 202], `${r.operationId} ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
      victimKeys[r.operationId] = key;
    }
    // The attacker's own project on the victim's location, with an agent, a campaign enrolling the victim's tag, a cadence and a number.
    // (An earlier test may have connected it already: that project is the attacker's too.)
    const connected = await h.api('POST', '/api/v2/projects', { key: h.otherAgencyKey, body: { crm: 'crm_a', locationId: victim.locationId } });
    expect([200, 409]).toContain(connected.status);
    const agent = await h.api('POST', '/api/agent-builder/agents', { key: h.otherAgencyKey, body: { name: 'Attacker desk', agentType: 'outreach', locationId: victim.locationId, capabilityIds: [] } });
    expect(agent.status, agent.text).toBe(200);
    const mine = { projectId: (await h.store.projects.find(`${h.agencyId}_other`, victim.locationId))!.id, agentId: agent.body.data.id as string, campaignId: agent.body.data.campaignId as string };
    const cadence = await h.api('POST', '/api/power-dialer/cadences', { key: h.otherAgencyKey, body: { name: 'Attacker cadence', steps: [{ delayMinutes: 0 }] } });
    const patched = await h.api('PATCH', `/api/agent-builder/projects/${victim.locationId}/campaigns/${mine.campaignId}`, {
      key: h.otherAgencyKey,
      body: { active: true, activeTags: ['victim-lead'], config: { cadenceId: cadence.body.data.id }, callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' } },
    });
    expect(patched.status, patched.text).toBe(200);
    const appended = await h.api('POST', `/api/agent-builder/agents/${mine.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { key: h.otherAgencyKey, body: { nodes: [{ type: 'add-tag', config: { tags: ['attacker-tag'] } }] } });
    const number = await h.api('POST', '/api/agent-builder/phone-numbers', { key: h.otherAgencyKey, body: { campaignId: mine.campaignId, areaCode: 512 } });
    theirs = {
      project: mine.projectId, location: victim.locationId, agent: mine.agentId, campaign: mine.campaignId, node: appended.body.workflow.nodes[0].id,
      number: number.body.phoneNumber.phoneNumber, cadence: cadence.body.data.id, lead: 'none', call: ids.call!, execution: 'none',
    };
  });

  it("the victim's call id in a call event: the attacker's own call and run, the victim's untouched", async () => {
    const before = await snapshot();
    const other = `${h.agencyId}_other`;
    const event = callEnded(theirs.campaign!, { callId: ids.call, contactId: victimContactId, leadName: 'Attacker Lead' });
    const res = await postCallEvent(h, event, { agencyId: other });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.duplicate).toBe(false);
    expect(await awaitRun(h, ids.call!, other)).toMatchObject({ status: 'succeeded', steps: 1 });
    expectNoForeignData(res.text, 'receiveCallEvent', ids.call!, shared());
    // The attacker's contact of that id is its own (created from the event), tagged by its own chain.
    expect((await h.store.crm.getContact(other, victim.locationId, victimContactId))!.tags).toEqual(['attacker-tag']);
    // Call routes that take the call id answer the attacker's own record.
    for (const r of keyed().filter((x) => x.path.includes(':callId'))) {
      const { res: got, sent } = await call(r, h.otherAgencyKey);
      expect(got.status, `${r.operationId} ${got.text.slice(0, 200)}`).toBe(200);
      expectNoForeignData(got.text, r.operationId, sent, shared());
    }
    const mine = await h.api('GET', `/api/call-history/by-call-id/${ids.call}`, { key: h.otherAgencyKey });
    expect(mine.body.data).toMatchObject({ callId: ids.call, leadName: 'Attacker Lead', campaignId: theirs.campaign });
    expect(await snapshot()).toEqual(before);
  });

  it("the victim's contact id in a contact event and an enrolment: the attacker's own contact and lead", async () => {
    const before = await snapshot();
    const other = `${h.agencyId}_other`;
    const { postContactEvent } = await import('../helpers/power-dialer.js');
    const ev = await postContactEvent(h, { type: 'contact.updated', contact: { id: victimContactId, locationId: victim.locationId, firstName: 'Mallory', phone: '+15125550166', tags: ['victim-lead'] } }, { agencyId: other });
    expect(ev.status, ev.text).toBe(202);
    expect(ev.body.data.enrolled).toHaveLength(1);
    expectNoForeignData(ev.text, 'receiveContactEvent', victimContactId, shared());
    const byId = await h.api('POST', '/api/power-dialer/leads', { key: h.otherAgencyKey, body: { campaignId: theirs.campaign, contactId: victimContactId } });
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body, byId.text).toMatchObject({ data: { firstName: 'Mallory', campaignId: theirs.campaign }, created: false });
    expectNoForeignData(byId.text, 'enrolLead', victimContactId, shared());
    const deleted = await postContactEvent(h, { type: 'contact.deleted', contact: { id: victimContactId, locationId: victim.locationId } }, { agencyId: other });
    expect(deleted.status, deleted.text).toBe(202);
    expect(await snapshot()).toEqual(before);
  });

  it("the victim's Idempotency-Key on every create-style operation: the attacker's own write, never a replay of the victim's", async () => {
    const before = await snapshot();
    const ops = keyed().filter((x) => x.idempotent);
    expect(ops.length).toBeGreaterThanOrEqual(7);
    for (const r of ops) {
      const res = await h.api(r.method.toUpperCase(), pathOf(r, theirs) + queryOf(r), { key: h.otherAgencyKey, body: bodyOf(r, theirs), headers: { 'Idempotency-Key': victimKeys[r.operationId]! } });
      expect([200, 202], `${r.operationId} ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
      expect(res.headers.get('idempotent-replayed'), r.operationId).toBeNull();
      expectNoForeignData(res.text, r.operationId, pathOf(r, theirs) + JSON.stringify(bodyOf(r, theirs)), shared());
    }
    expect(await snapshot()).toEqual(before);
  });
});
