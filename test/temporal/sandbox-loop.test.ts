/**
 * The product as `npm start` wires it (server/compose.ts), settings included: a lead enrolled over
 * the API is called by the sandbox voice platform, which reports each call's end to the API's own
 * signed events endpoint; each report runs the post-call chain (through the sandbox carrier, with
 * its configured latency) and moves the lead's cadence on — VOICEMAIL, then SUCCESS, as scripted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { dialerCampaign, postContactEvent, waitFor } from '../helpers/power-dialer.js';
import { leadWorkflowId, type LeadCadenceResult } from '../../engine/workflows/lead-cadence-types.js';

let h: Harness;
const LATENCY_MS = 400;
beforeAll(async () => {
  h = await createHarness({
    temporal: true,
    config: { sandboxCallSeconds: 1, sandboxOutcomes: ['VOICEMAIL', 'SUCCESS'], sandboxCarrierLatencyMs: LATENCY_MS, cadenceTimeScale: 60 },
  });
});
afterAll(async () => h?.close());

describe('the default wiring: sandbox voice platform and carrier', () => {
  it('calls, reports, runs each chain, and moves the cadence to its end', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 1 }], fromNumbers: ['+15125550100'] });
    await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'send-sms', config: { body: 'Sorry we missed you, {{contact.firstName}}' } }] } });
    await h.api('POST', `/api/agent-builder/agents/${c.agentId}/campaign/workflow/outcomes/SUCCESS/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: ['booked'] } }] } });
    const enrolled = await postContactEvent(h, c.event({ phone: '+15125550177', firstName: 'Sandy' }));
    const leadId = enrolled.body.data.enrolled[0] as string;
    const contactId = enrolled.body.data.contactId as string;

    const result = (await h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId)).result()) as LeadCadenceResult;
    expect(result).toEqual({ status: 'completed', step: 1, attempts: 2 });

    // Two calls, reported by the sandbox platform with its scripted outcomes, each with its run.
    const runs = await waitFor('both post-call runs finished', () => {
      const rows = h.db.prepare("SELECT outcome, status, id FROM executions WHERE agency_id = ? AND campaign_id = ? ORDER BY started_at").all(h.agencyId, c.campaignId) as { outcome: string; status: string; id: string }[];
      return rows.length === 2 && rows.every((r) => r.status !== 'running') ? rows : undefined;
    });
    expect(runs.map((r) => [r.outcome, r.status])).toEqual([['VOICEMAIL', 'succeeded'], ['SUCCESS', 'succeeded']]);
    expect(h.db.prepare('SELECT recipient, sender, body FROM outbox WHERE agency_id = ? AND contact_id = ?').all(h.agencyId, contactId)).toEqual([
      { recipient: '+15125550177', sender: '+15125550100', body: 'Sorry we missed you, Sandy' },
    ]);
    expect((await h.store.crm.getContact(h.agencyId, c.locationId, contactId))!.tags).toContain('booked');
    // The carrier's configured latency was in the send (the step's own recorded times).
    const sms = (await h.store.executions.get(h.agencyId, runs[0]!.id))!.steps[0]!;
    expect(Date.parse(sms.finishedAt!) - Date.parse(sms.startedAt)).toBeGreaterThanOrEqual(LATENCY_MS);
    expect(await h.store.leads.get(h.agencyId, leadId)).toMatchObject({ callStatus: 'completed', live: false });
  });
});
