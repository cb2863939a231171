/**
 * Workflow tools through the API: business diffs between versions, the impact of a change before
 * it is saved, starter templates (each valid and without warnings), and the failed-runs view.
 */
import { WORKFLOW_TEMPLATE_IDS } from '../../schemas/workflow-tools.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { awaitRun, callEnded, postCallEvent } from '../helpers/events.js';
import { WORKFLOW_TEMPLATES } from '../../server/workflow-templates.js';
import { CAMPAIGN_SYSTEMS } from '../../server/catalog.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ temporal: true, config: { defaultPlanLimit: 50 } });
});
afterAll(async () => h?.close());

const ALL = ['appointment_booking', 'live_transfer', 'add_tag'];

describe('business diff between versions', () => {
  it('lists the changes per outcome in words, derived from the stored graphs', async () => {
    const c = await createProjectAgentCampaign(h);
    const wf = `/api/agent-builder/agents/${c.agentId}/campaign/workflow`;
    await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'send-sms', config: { body: 'Sorry we missed you' } }, { type: 'add-tag', config: { tags: ['vm-left'] } }] } });
    await h.api('POST', `${wf}/outcomes/CALLBACK/nodes`, { body: { nodes: [{ type: 'book-appointment', config: { durationMinutes: 30 } }] } });
    const v2 = (await h.api('GET', wf)).body.data;
    const sms = v2.nodes.find((n: { type: string }) => n.type === 'send-sms').id;
    const book = v2.nodes.find((n: { type: string }) => n.type === 'book-appointment').id;
    await h.api('PATCH', wf, { body: { nodes: [{ id: sms, config: { body: 'Hi {{contact.firstName}}, call us back' } }] } });
    await h.api('DELETE', `${wf}/nodes/${book}`);
    await h.api('POST', `${wf}/outcomes/NO_ACTION/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['lost-lead'] } }] } });

    const diff = await h.api('GET', `${wf}/versions/2/diff/5`);
    expect(diff.status, diff.text).toBe(200);
    expect(diff.body.data.changes.map((x: { text: string }) => x.text)).toEqual([
      'Voicemail: the SMS text changed from "Sorry we missed you" to "Hi {{contact.firstName}}, call us back"',
      'Call Back no longer does anything (it books an appointment before)',
      'No Action now adds tag lost-lead',
    ]);
    expect(diff.body.data.changes.map((x: { label: string }) => x.label)).toEqual(['Voicemail', 'Call Back', 'No Action']);
    // Version 0 is the empty workflow; a version that does not exist is a 404.
    expect((await h.api('GET', `${wf}/versions/0/diff/1`)).body.data.changes).toEqual([{ outcome: 'VOICEMAIL', label: 'Voicemail', kind: 'started', text: 'Voicemail now sends an SMS, then adds tag vm-left' }]);
    expect((await h.api('GET', `${wf}/versions/2/diff/99`)).status).toBe(404);
  });
});

describe('impact preview', () => {
  it('before saving: which outcomes change, their calls of the last 7 days, runs in flight, leads per cadence step; nothing stored', async () => {
    const c = await createProjectAgentCampaign(h);
    const wf = `/api/agent-builder/agents/${c.agentId}/campaign/workflow`;
    await h.api('POST', `${wf}/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['vm-left'] } }] } });
    await h.api('POST', `${wf}/outcomes/SUCCESS/nodes`, { body: { nodes: [{ type: 'add-note', config: { body: 'booked' } }] } });
    // Three voicemails and a success ended on this campaign.
    for (const d of ['VOICEMAIL', 'VOICEMAIL', 'VOICEMAIL', 'SUCCESS']) {
      const e = callEnded(c.campaignId, { disposition: d });
      await postCallEvent(h, e);
      await awaitRun(h, e.call.callId);
    }
    const cadence = await h.api('POST', '/api/power-dialer/cadences', { body: { name: 'Two tries', steps: [{ delayMinutes: 0 }, { delayMinutes: 60 }] } });
    await h.api('PATCH', `/api/agent-builder/projects/${c.locationId}/campaigns/${c.campaignId}`, {
      body: { active: true, activeTags: ['impact-lead'], config: { cadenceId: cadence.body.data.id }, callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' } },
    });
    for (const phone of ['+15125550161', '+15125550162']) {
      expect((await h.api('POST', '/api/power-dialer/leads', { body: { campaignId: c.campaignId, contact: { firstName: 'Ima', phone, tags: ['impact-lead'] } } })).status).toBe(200);
    }
    const current = (await h.api('GET', wf)).body.data;
    const proposed = {
      nodes: current.nodes.map((n: { type: string; config: object }) => (n.type === 'add-tag' ? { ...n, config: { tags: ['voicemail-left'] } } : n)),
      edges: current.edges,
      dispositionEntries: current.dispositionEntries,
    };
    const impact = await h.api('POST', `${wf}/impact`, { body: proposed });
    expect(impact.status, impact.text).toBe(200);
    const byOutcome = Object.fromEntries(impact.body.data.outcomes.map((o: { outcome: string }) => [o.outcome, o]));
    expect(byOutcome.VOICEMAIL).toEqual({ outcome: 'VOICEMAIL', label: 'Voicemail', changed: true, changes: ['Voicemail: the tags added changed from vm-left to voicemail-left'], callsLast7Days: 3 });
    expect(byOutcome.SUCCESS).toMatchObject({ changed: false, changes: [], callsLast7Days: 1 });
    expect(byOutcome.CALLBACK).toMatchObject({ changed: false, callsLast7Days: 0 });
    expect(impact.body.data.runsInFlight).toEqual({ total: 0, byVersion: [], note: 'no run is in flight' });
    expect(impact.body.data.cadence).toEqual({ cadenceId: cadence.body.data.id, name: 'Two tries', steps: [{ step: 0, leads: 2 }, { step: 1, leads: 0 }] });
    expect(impact.body.data.currentVersion).toBe(current.version);
    // Nothing was stored.
    expect((await h.api('GET', wf)).body.data.version).toBe(current.version);
    // A graph that would not validate is refused, naming the problem.
    const bad = await h.api('POST', `${wf}/impact`, { body: { ...proposed, dispositionEntries: { VOICEMAIL: 'n_missing' } } });
    expect(bad.status).toBe(400);
  });
});

describe('starter templates', () => {
  it('one per campaign system, listed by the API', async () => {
    const list = await h.api('GET', '/api/agent-builder/workflow-templates');
    expect(list.status).toBe(200);
    expect(new Set(list.body.data.map((t: { system: string }) => t.system))).toEqual(new Set(CAMPAIGN_SYSTEMS.map((s) => s.id)));
    const booking = await h.api('GET', '/api/agent-builder/workflow-templates?system=appointment_booking');
    expect(booking.body.data.map((t: { id: string }) => t.id)).toEqual(['appointment-booking']);
    // The document's enum of workflowTemplateId names exactly the templates there are.
    expect(list.body.data.map((t: { id: string }) => t.id).sort()).toEqual([...WORKFLOW_TEMPLATE_IDS].sort());
    const unknown = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'x', agentType: 'outreach', locationId: 'anywhere', workflowTemplateId: 'no-such' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('body.workflowTemplateId "no-such" is not a template; GET /api/agent-builder/workflow-templates lists them');
  });

  it.each(WORKFLOW_TEMPLATES.map((t) => [t.id, t]))('%s: valid, no warnings, acts only on outcomes its system emits', async (_id, template) => {
    const system = CAMPAIGN_SYSTEMS.find((s) => s.id === template.system)!;
    expect(Object.keys(template.chains).every((o) => (system.dispositions as readonly string[]).includes(o)), `${template.id} acts on outcomes ${Object.keys(template.chains).join(', ')} beyond ${system.dispositions.join(', ')}`).toBe(true);
    const c = await createProjectAgentCampaign(h, { capabilityIds: ALL });
    // A campaign ready to act: a caller ID and a calendar, so no warning is about the campaign.
    await h.api('PATCH', `/api/agent-builder/projects/${c.locationId}/campaigns/${c.campaignId}`, { body: { config: { calendarId: 'cal_main' } } });
    await h.store.campaigns.save({ ...(await h.store.campaigns.get(h.agencyId, c.campaignId))!, fromNumbers: ['+15125550100'] });
    const applied = await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/templates/${template.id}`, { body: { expectedVersion: 0 } });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.data.warnings).toEqual([]);
    expect(Object.keys(applied.body.data.dispositionEntries).sort()).toEqual(Object.keys(template.chains).sort());
    expect(applied.body.data.version).toBe(1);
  });

  it('an agent created from a template starts with it, on the outcomes it can emit', async () => {
    const c = await createProjectAgentCampaign(h);
    const agent = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'Booker', agentType: 'outreach', locationId: c.locationId, capabilityIds: ['add_tag'], workflowTemplateId: 'appointment-booking' } });
    expect(agent.status, agent.text).toBe(200);
    const wf = (await h.api('GET', `/api/agent-builder/agents/${agent.body.data.id}/campaign/workflow`)).body.data;
    // add_tag alone cannot end in SUCCESS or RESCHEDULE: those chains are left out.
    expect(Object.keys(wf.dispositionEntries).sort()).toEqual(['CALLBACK', 'NO_ACTION', 'VOICEMAIL']);
    const unknown = await h.api('POST', '/api/agent-builder/agents', { body: { name: 'X', agentType: 'outreach', locationId: c.locationId, workflowTemplateId: 'nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('body.workflowTemplateId');
  });
});

describe('failed runs across campaigns', () => {
  it('lists failed runs not yet retried, with a link, and retries them in bulk, one result each', async () => {
    const runs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const c = await createProjectAgentCampaign(h);
      // No calendar anywhere: the booking fails for good.
      await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/outcomes/SUCCESS/nodes`, { body: { nodes: [{ type: 'book-appointment', config: { durationMinutes: 30 } }] } });
      const e = callEnded(c.campaignId, { disposition: 'SUCCESS', fields: [{ key: 'appointment_time', value: '2031-01-01T15:00:00Z' }] });
      await postCallEvent(h, e);
      expect(await awaitRun(h, e.call.callId)).toMatchObject({ status: 'failed' });
      runs.push((await h.store.executions.firstOfCall(h.agencyId, e.call.callId))!.id);
    }
    const list = await h.api('GET', '/api/agent-builder/failed-runs');
    expect(list.status).toBe(200);
    const listed = list.body.data.filter((r: { id: string }) => runs.includes(r.id));
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({ status: 'failed', campaignName: expect.any(String), link: expect.stringContaining(`run=${listed[0].id}`) });
    const retried = await h.api('POST', '/api/agent-builder/failed-runs/retry', { body: { executionIds: [...runs, 'exe_nope'] } });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.data.map((r: { status: number }) => r.status)).toEqual([202, 202, 404]);
    // Retried runs leave the view; retrying them again is reported, not done.
    expect((await h.api('GET', '/api/agent-builder/failed-runs')).body.data.filter((r: { id: string }) => runs.includes(r.id))).toEqual([]);
    const again = await h.api('POST', '/api/agent-builder/failed-runs/retry', { body: { executionIds: runs } });
    expect(again.body.data.map((r: { status: number; code: string }) => [r.status, r.code])).toEqual([[409, 'AlreadyRetried'], [409, 'AlreadyRetried']]);
    // Another agency sees none of them.
    expect((await h.api('GET', '/api/agent-builder/failed-runs', { key: h.otherAgencyKey })).body.data).toEqual([]);
  });
});
