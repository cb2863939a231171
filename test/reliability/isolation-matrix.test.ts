/**
 * Every endpoint (taken from the route declarations, so a new endpoint is covered without editing
 * this file) x {no key, revoked key, another agency's admin, a project_user of another project,
 * an admin key missing the scope}: the status the spec and ARCHITECTURE.md prescribe, and none of
 * the first tenant's data in any body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../server/app.js';
import type { RouteDef } from '../../server/http/route.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import type { Scope } from '../../server/store/api-keys.js';

let h: Harness;
let victim: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let ids: Record<string, string>;
let secrets: string[];

beforeAll(async () => {
  h = await createHarness({ temporal: true, config: { defaultPlanLimit: 10, rateLimitPoints: 1_000_000 } });
  victim = await createProjectAgentCampaign(h);
  const wf = `/api/agent-builder/agents/${victim.agentId}/campaign/workflow`;
  const appended = await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['victim-tag'] } }] } });
  const number = await h.api('POST', '/api/agent-builder/phone-numbers', { body: { campaignId: victim.campaignId, areaCode: 512 } });
  const cadence = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'Victim cadence', steps: [{ delayMinutes: 0 }] } });
  const contact = h.repos.crm.createContact(h.agencyId, { locationId: victim.locationId, firstName: 'Victimina', phone: '+15125550199' });
  const event = callEnded(victim.campaignId, { contactId: contact.id });
  await postCallEvent(h, event);
  await awaitRun(h, event.call.callId);
  const execution = h.repos.executions.byWorkflowId(h.agencyId, `post-call:${event.call.callId}`)!;
  ids = {
    project: victim.projectId,
    location: victim.locationId,
    agent: victim.agentId,
    campaign: victim.campaignId,
    node: appended.body.workflow.nodes[0].id,
    number: number.body.phoneNumber.phoneNumber,
    cadence: cadence.body.data.id,
    call: event.call.callId,
    execution: execution.id,
  };
  secrets = [...Object.values(ids), 'Victimina', 'victim-tag', 'Victim cadence'];
});
afterAll(async () => h?.close());

/** A concrete path naming the victim's resources. */
function pathOf(route: RouteDef): string {
  const byName: Record<string, string> = {
    locationId: ids.location!, campaignId: ids.campaign!, agentId: ids.agent!, outcome: 'VOICEMAIL', nodeId: ids.node!,
    callId: ids.call!, number: encodeURIComponent(ids.number!), executionId: ids.execution!, version: '1', leadId: 'lead_x',
  };
  return route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    if (name !== 'id') return byName[name] ?? 'x';
    if (route.path.startsWith('/api/v2/projects')) return ids.project!;
    if (route.path.startsWith('/api/power-dialer/cadences')) return ids.cadence!;
    return ids.agent!;
  });
}

const keyed = () => allRoutes(h.services).filter((r) => typeof r.access === 'object');
const bodyFor = (r: RouteDef) => (['post', 'put', 'patch'].includes(r.method) ? { campaignId: ids.campaign, nodes: [{ type: 'add-tag', config: { tags: ['x'] } }] } : undefined);

/** The victim's ids and names must not appear, except the ones the caller itself sent (echoed in a 404 message). */
function expectNoForeignData(text: string, what: string, sent = '', allowed: string[] = []) {
  for (const s of secrets) if (!allowed.includes(s)) if (!decodeURIComponent(sent).includes(s)) expect(text.includes(s), `${what} leaked ${s}`).toBe(false);
}

describe('tenant isolation matrix', () => {
  it('covers every keyed endpoint', () => {
    expect(keyed().length).toBeGreaterThanOrEqual(40);
  });

  it('no key and a revoked key: 401 everywhere', async () => {
    const revoked = h.key({});
    h.repos.apiKeys.revoke(h.agencyId, h.repos.apiKeys.list(h.agencyId).at(-1)!.id);
    for (const r of keyed()) {
      for (const key of [null, revoked]) {
        const res = await h.api(r.method.toUpperCase(), pathOf(r), { key, body: bodyFor(r) });
        expect(res.status, `${r.operationId} key=${key ? 'revoked' : 'none'}`).toBe(401);
        expect(res.body.error).toBe('Unauthorized');
        expectNoForeignData(res.text, r.operationId);
      }
    }
  });

  it("another agency's admin: never a success on the victim's resources, never its data", async () => {
    for (const r of keyed()) {
      const path = pathOf(r);
      const res = await h.api(r.method.toUpperCase(), path, { key: h.otherAgencyKey, body: bodyFor(r) });
      expect(res.status, r.operationId).toBeLessThan(500);
      const namesResource = /:[A-Za-z]+/.test(r.path) && !r.path.endsWith('/outcomes/:outcome/entry');
      if (namesResource) expect([400, 404], `${r.operationId} ${path} -> ${res.status}`).toContain(res.status);
      expectNoForeignData(res.text, r.operationId, path + JSON.stringify(bodyFor(r) ?? ''));
    }
  });

  it('a project_user of another project: 403 (or 404 where the spec says so), never the data', async () => {
    const other = await createProjectAgentCampaign(h);
    const key = h.key({ role: 'project_user', projectIds: [other.projectId] });
    for (const r of keyed()) {
      const path = pathOf(r);
      const res = await h.api(r.method.toUpperCase(), path, { key, body: bodyFor(r) });
      expect(res.status, r.operationId).toBeLessThan(500);
      const agencyLevel = r.path.startsWith('/api/power-dialer/cadences');
      if (/:[A-Za-z]+/.test(r.path) && !agencyLevel) expect([400, 403, 404], `${r.operationId} -> ${res.status}`).toContain(res.status);
      // Cadences belong to the agency, not to a project: a project_user of the agency may read them.
      expectNoForeignData(res.text, r.operationId, path + JSON.stringify(bodyFor(r) ?? ''), [ids.cadence!, 'Victim cadence']);
    }
  });

  it('an admin key missing the scope: 403 naming the scope', async () => {
    for (const r of keyed()) {
      const scope = (r.access as { scope: Scope }).scope;
      const key = h.key({ scopes: scope === 'calls:read' ? ['crm:read'] : ['calls:read'] });
      const res = await h.api(r.method.toUpperCase(), pathOf(r), { key, body: bodyFor(r) });
      expect(res.status, r.operationId).toBe(403);
      expect(res.text).toContain(scope);
      expectNoForeignData(res.text, r.operationId);
    }
  });
});
