/**
 * Issue 16: every rule the validators enforce is in the OpenAPI document, and the server enforces
 * what the document says, with a message naming the field. Each case reads the rule from the
 * served document, then sends a request that breaks it and one that keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { rowsOf } from '../helpers/state.js';

let h: Harness;
let ctx: Awaited<ReturnType<typeof createProjectAgentCampaign>>;
let doc: { paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[]; requestBody?: { content: { 'application/json': { schema: Record<string, any> } } } }>> };
beforeAll(async () => {
  h = await createHarness();
  ctx = await createProjectAgentCampaign(h);
  doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
});
afterAll(async () => h?.close());

const param = (path: string, method: string, name: string) => doc.paths[path]![method]!.parameters!.find((p) => p.name === name)!;
const body = (path: string, method: string) => doc.paths[path]![method]!.requestBody!.content['application/json'].schema;

describe('the document states the rule, the server keeps it', () => {
  it('agentType: an enum on agent create and the list filter; another value is a 400 listing the valid types', async () => {
    expect(body('/api/agent-builder/agents', 'post').properties.agentType.enum).toEqual(['outreach', 'inbound', 'appointment']);
    expect(param('/api/agent-builder/agents', 'get', 'agentType').schema.enum).toEqual(['outreach', 'inbound', 'appointment']);
    const r = await h.api('GET', '/api/agent-builder/agents?agentType=robot');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('query.agentType robot is not valid; valid types: outreach, inbound, appointment');
  });

  it('dialing: the writable modes only, retired ones named as retired', async () => {
    const campaigns = `/api/agent-builder/projects/{locationId}/campaigns`;
    expect(body(campaigns, 'post').properties.dialing.enum).toEqual(['s2l', 's2l_pd', 'pd']);
    const r = await h.api('POST', `/api/agent-builder/projects/${ctx.locationId}/campaigns`, { body: { name: 'x', agentId: ctx.agentId, dialing: 'reactivation' } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('body.dialing "reactivation" is retired and can no longer be written. Valid values: s2l, s2l_pd, pd');
  });

  it('excludeReviewed is exactly "true" or "false"', async () => {
    expect(param('/api/call-history', 'get', 'excludeReviewed').schema.enum).toEqual(['true', 'false']);
    const r = await h.api('GET', '/api/call-history?excludeReviewed=1');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('query.excludeReviewed must be exactly "true" or "false", got "1"');
    expect((await h.api('GET', '/api/call-history?excludeReviewed=false')).status).toBe(200);
  });

  it('an outcome in any spelling is a documented pattern, on paths, queries and bodies', async () => {
    const pattern = new RegExp(param('/api/call-history', 'get', 'disposition').schema.pattern as string, 'u');
    for (const ok of ['VOICEMAIL', 'Call Back', 'no-action', 'callBack']) expect(pattern.test(ok)).toBe(true);
    expect(pattern.test('FAX')).toBe(false);
    expect(param('/api/agent-builder/agents/{agentId}/campaign/workflow/outcomes/{outcome}/nodes', 'post', 'outcome').schema.pattern).toBe(pattern.source);
    const r = await h.api('GET', '/api/call-history?disposition=FAX');
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^query\.disposition "FAX" is not a known outcome/);
    expect((await h.api('GET', '/api/call-history?disposition=call%20back')).status).toBe(200);
  });

  it('cadenceStep is a required query parameter of the pipeline list', async () => {
    expect(param('/api/power-dialer/pipeline/leads', 'get', 'cadenceStep').required).toBe(true);
    const r = await h.api('GET', `/api/power-dialer/pipeline/leads?locationId=${ctx.locationId}`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error: 'query.cadenceStep is required' });
  });

  it('calling windows: clock times as patterns, tz one of the documented IANA names', async () => {
    const window = body('/api/power-dialer/cadences', 'post').properties.steps.items.properties.callingWindow;
    const single = (window.anyOf ?? window.oneOf).find((s: { type?: string }) => s.type === 'object');
    expect(single.properties.tz.enum).toContain('America/Chicago');
    expect(single.properties.tz.enum).toContain('Asia/Kolkata');
    expect(single.properties.tz.enum).not.toContain('Mars/Olympus');
    const start = new RegExp(single.properties.start.pattern);
    const end = new RegExp(single.properties.end.pattern);
    expect(['9:00', '09:30', '23:59'].every((t) => start.test(t))).toBe(true);
    expect(['24:00', '25:00', '9:60', '٩:00'].some((t) => start.test(t))).toBe(false);
    expect(end.test('24:00')).toBe(true);
    const before = rowsOf(h.db, ['cadences']);
    for (const [win, field] of [[{ days: [1], start: '9:00', end: '17:00', tz: 'Mars/Olympus' }, 'tz'], [{ days: [1], start: '9:75', end: '17:00', tz: 'UTC' }, 'start']] as const) {
      const r = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'c', steps: [{ delayMinutes: 0, callingWindow: win }] } });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(`body.steps[0].callingWindow.${field}`);
    }
    expect(rowsOf(h.db, ['cadences'])).toEqual(before);
  });

  it('lead enrolment: exactly one of contactId and contact (oneOf)', async () => {
    expect(body('/api/power-dialer/leads', 'post').oneOf).toHaveLength(2);
    for (const sent of [{}, { contactId: 'ct_1', contact: { phone: '+15125550100' } }]) {
      const r = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId: ctx.campaignId, ...sent } });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('send exactly one of body.contactId and body.contact');
    }
  });

  it('project connect: crm_b needs its object and takes no credentials (if/then)', async () => {
    expect(body('/api/v2/projects', 'post').then.required).toEqual(['crm_b']);
    const before = rowsOf(h.db, ['projects']);
    const missing = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_b', locationId: 'loc_b_1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('body.crm_b is required');
    const creds = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_b', locationId: 'loc_b_1', crm_b: {}, credentials: { token: 'pit-x' } } });
    expect(creds.status).toBe(400);
    expect(creds.body.message).toBe('body.credentials: only crm_a (GoHighLevel) locations can be connected with credentials so far');
    expect(rowsOf(h.db, ['projects'])).toEqual(before);
  });

  it('API key creation: projectIds is refused for agency_admin and required for project_user (if/then)', async () => {
    const rules = body('/api/keys', 'post').allOf as { if: { properties: { role: { const: string } } }; then: Record<string, any> }[];
    const forRole = (role: string) => rules.find((r) => r.if.properties.role.const === role)!.then;
    expect(forRole('agency_admin').properties.projectIds.maxItems).toBe(0);
    expect(forRole('project_user')).toMatchObject({ required: ['projectIds'], properties: { projectIds: { minItems: 1 } } });
    const before = rowsOf(h.db, ['api_keys']);
    const admin = await h.api('POST', '/api/keys', { body: { name: 'x', role: 'agency_admin', scopes: ['calls:read'], projectIds: [ctx.projectId] } });
    expect(admin.status).toBe(400);
    expect(admin.body.message).toBe('body.projectIds: an agency_admin key reaches every project of the agency; send projectIds only for a project_user key');
    for (const projectIds of [undefined, []]) {
      const user = await h.api('POST', '/api/keys', { body: { name: 'x', role: 'project_user', scopes: ['calls:read'], ...(projectIds && { projectIds }) } });
      expect(user.status).toBe(400);
      expect(user.body.message).toMatch(/^body\.projectIds/);
    }
    expect(rowsOf(h.db, ['api_keys'])).toEqual(before);
    expect((await h.api('POST', '/api/keys', { body: { name: 'x', role: 'agency_admin', scopes: ['calls:read'], projectIds: [] } })).status).toBe(201);
  });

  it('a provider chosen before its credentials are set is a 409 CredentialsMissing, and nothing changes', async () => {
    const before = rowsOf(h.db, ['agencies']);
    for (const [sent, name] of [[{ voicePlatform: 'vapi' }, 'Vapi'], [{ smsCarrier: 'twilio' }, 'Twilio']] as const) {
      const r = await h.api('PATCH', '/api/agency', { body: sent });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ success: false, error: 'CONFLICT', code: 'CredentialsMissing', message: expect.stringContaining(`${name} credentials`) });
    }
    expect(rowsOf(h.db, ['agencies'])).toEqual(before);
  });
});
