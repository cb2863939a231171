import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { dialerCampaign, firstStepTaken, startedInput } from '../helpers/power-dialer.js';
import { LEAD_CADENCE_WORKFLOW, leadWorkflowId } from '../../engine/workflows/lead-cadence-types.js';

// As `npm start` runs it (API and worker in one process, sharing one connection), an enrolment
// asks the server for an eager start: the lead's first workflow task comes back in the start's
// response to this process's worker, not through a task-queue poll.

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ temporal: true, sharedConnection: true });
});
afterAll(async () => h?.close());

describe('enrolment in the all-in-one process', () => {
  it("starts the lead's workflow eagerly, once; the workflow takes its first step and sleeps until it", async () => {
    const { locationId, campaignId, activeTag } = await dialerCampaign(h, { steps: [{ delayMinutes: 600 }] });
    const contact = await h.store.crm.createContact(h.agencyId, { locationId, firstName: 'Eve', phone: '+15125550161', tags: [activeTag] });
    const before = { ...h.temporal!.stats };

    const r = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: contact.id } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.created).toBe(true);
    expect(h.temporal!.stats).toEqual({ started: before.started + 1, eagerlyStarted: before.eagerlyStarted + 1 });

    const leadId: string = r.body.data._id;
    const history = await firstStepTaken(h, leadWorkflowId(leadId));
    expect(history[0]!.workflowExecutionStartedEventAttributes!.workflowType!.name).toBe(LEAD_CADENCE_WORKFLOW);
    // One workflow task, run by this process's worker: its first step ends on the timer of step 0.
    expect(history.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(1);
    const timer = history.find((e) => e.timerStartedEventAttributes)!.timerStartedEventAttributes!;
    expect(Number(timer.startToFireTimeout!.seconds)).toBeGreaterThan(599 * 60);
    expect(await h.store.leads.get(h.agencyId, leadId)).toMatchObject({ callStatus: 'scheduled', cadenceStep: 0, live: true });

    // The same contact again: the lead as it is, and no second start.
    const again = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: contact.id } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, data: { _id: leadId } });
    expect(h.temporal!.stats.started).toBe(before.started + 1);
  });

  it('after a burst of plain starts has been worked off, enrolments still start eagerly', async () => {
    const { locationId, campaignId, activeTag } = await dialerCampaign(h, { steps: [{ delayMinutes: 600 }] });
    const enrol = async (i: number) => {
      const contact = await h.store.crm.createContact(h.agencyId, { locationId, firstName: `Burst${i}`, phone: `+1512556${String(i).padStart(4, '0')}`, tags: [activeTag] });
      const r = await h.api('POST', '/api/power-dialer/leads', { body: { campaignId, contactId: contact.id } });
      expect(r.status, r.text).toBe(200);
      return r.body.data._id as string;
    };
    const firstStep = (workflowId: string) => firstStepTaken(h, workflowId, 60_000);
    const input = await startedInput(h, await enrol(0));

    // A backlog on the task queue (plain starts, as a burst of timers firing would make one) grows
    // the worker's autoscaled pollers, and each poll holds a workflow-task slot while it waits.
    const burst = Array.from({ length: 150 }, (_, i) => `burst:${Date.now()}:${i}`);
    for (let i = 0; i < burst.length; i += 25) {
      await Promise.all(burst.slice(i, i + 25).map((workflowId, j) => h.temporal!.client.workflow.start(LEAD_CADENCE_WORKFLOW, { workflowId, taskQueue: h.taskQueue, args: [{ ...input, leadId: `burst_${i + j}` }] })));
    }
    for (const workflowId of burst) await firstStep(workflowId);

    const before = { ...h.temporal!.stats };
    const leads: string[] = [];
    for (let i = 1; i <= 20; i++) leads.push(await enrol(i));
    // The pollers stop short of the slots, so every start found one free.
    expect(h.temporal!.stats).toEqual({ started: before.started + 20, eagerlyStarted: before.eagerlyStarted + 20 });
    for (const id of leads) await firstStep(leadWorkflowId(id));
  });
});
