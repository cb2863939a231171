import { DateTime } from 'luxon';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { callEnded, postCallEvent } from '../helpers/events.js';
import { dialerCampaign, fakeVoice, postContactEvent, waitFor, type PlacedCall } from '../helpers/power-dialer.js';
import { LEAD_CADENCE_WORKFLOW, leadWorkflowId, type LeadCadenceInput, type LeadCadenceResult } from '../../engine/workflows/lead-cadence-types.js';

// The power dialer on the run's real Temporal server: durable timers, the voice platform port,
// call.ended events through the real HTTP endpoint signalling the lead's workflow. The voice
// platform is a fake the test drives: it records each call, the test posts the call's end.
// CADENCE_TIME_SCALE 60: a cadence minute lasts a second.

let h: Harness;
const voice = fakeVoice();
beforeAll(async () => {
  h = await createHarness({ temporal: true, voice: voice.platform, config: { cadenceTimeScale: 60 } });
});
afterAll(async () => h?.close());

const result = (leadId: string) => h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId)).result() as Promise<LeadCadenceResult>;
const lead = (leadId: string) => h.repos.leads.get(h.agencyId, leadId)!;

/** The platform reports the end of a call through the signed events endpoint, as a real one would. */
async function end(call: PlacedCall, disposition: string, fields: { key: string; value: unknown }[] = []) {
  const event = callEnded(call.campaignId, { callId: call.callId, disposition, contactId: call.contactId, phoneNumber: call.to, fields });
  const r = await postCallEvent(h, { ...event, call: { ...event.call, leadId: call.leadId } });
  expect(r.status, r.text).toBe(202);
}

/** The lead row once the workflow has mirrored the state `match` describes. */
const rowWhen = (leadId: string, what: string, match: (l: ReturnType<typeof lead>) => boolean) =>
  waitFor(what, () => {
    const l = h.repos.leads.get(h.agencyId, leadId);
    return l && match(l) ? l : undefined;
  });

describe('lead cadence workflow', () => {
  it('runs a lead through a three-step cadence: VOICEMAIL advances, SUCCESS stops', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 2 }, { delayMinutes: 2 }], fromNumbers: ['+13125550100', '+15125550101'] });
    const leadId = (await postContactEvent(h, c.event({ phone: '+15125550111' }))).body.data.enrolled[0] as string;

    const first = await voice.call(leadId, 1);
    expect(first).toMatchObject({ campaignId: c.campaignId, to: '+15125550111', from: '+15125550101' });
    expect(lead(leadId)).toMatchObject({ callStatus: 'calling', cadenceStep: 0 });
    await end(first, 'VOICEMAIL');
    const waiting = await rowWhen(leadId, 'step 1 scheduled', (l) => l.callStatus === 'scheduled' && l.cadenceStep === 1);
    // 2 cadence minutes = 2 s after the first attempt.
    expect(Date.parse(waiting.nextCallTime) - first.placedAt).toBeGreaterThanOrEqual(1500);
    expect((await h.api('GET', `/api/power-dialer/pipeline/leads?cadenceStep=1&campaignId=${c.campaignId}`)).body.data.leads.map((l: { _id: string }) => l._id)).toEqual([leadId]);

    const second = await voice.call(leadId, 2);
    expect(second.placedAt).toBeGreaterThanOrEqual(Date.parse(waiting.nextCallTime) - 100);
    await end(second, 'VOICEMAIL');
    const third = await voice.call(leadId, 3);
    expect(lead(leadId)).toMatchObject({ callStatus: 'calling', cadenceStep: 2 });
    await end(third, 'SUCCESS');

    expect(await result(leadId)).toEqual({ status: 'completed', step: 2, attempts: 3 });
    expect(lead(leadId)).toMatchObject({ callStatus: 'completed', cadenceStep: 2, live: false });
    expect(voice.callsOf(leadId)).toHaveLength(3);
    // Each call went through call history and its post-call run as well.
    expect(h.repos.calls.get(h.agencyId, third.callId)!.doc.disposition.type).toBe('success');
  });

  it('VOICEMAIL on every step exhausts the cadence; an unanswered call (no event) counts as no answer', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 1 }, { delayMinutes: 1 }] });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    await end(await voice.call(leadId, 1), 'VOICEMAIL');
    await end(await voice.call(leadId, 2), 'NO_ACTION');
    await end(await voice.call(leadId, 3), 'VOICEMAIL');
    expect(await result(leadId)).toEqual({ status: 'exhausted', step: 2, attempts: 3 });
    expect(lead(leadId)).toMatchObject({ callStatus: 'exhausted', cadenceStep: 2, live: false });
  });

  it('an exclusion tag mid-cadence stops the lead: no further call', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 20 }] });
    const event = c.event();
    const leadId = (await postContactEvent(h, event)).body.data.enrolled[0] as string;
    await end(await voice.call(leadId, 1), 'VOICEMAIL');
    await rowWhen(leadId, 'step 1 scheduled', (l) => l.callStatus === 'scheduled' && l.cadenceStep === 1);
    const out = await postContactEvent(h, { ...event, contact: { ...event.contact, tags: [c.activeTag, 'do-not-call'] } });
    expect(out.body.data.removed).toEqual([leadId]);
    expect(await result(leadId)).toEqual({ status: 'stopped', step: 1, attempts: 1, reason: 'excluded' });
    expect(voice.callsOf(leadId)).toHaveLength(1);
    expect(h.repos.leads.get(h.agencyId, leadId)).toBeUndefined();
  });

  it('CALLBACK with a callback time calls back then, on the same step', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 600 }] });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    const callbackAt = new Date(Date.now() + 3000).toISOString();
    await end(await voice.call(leadId, 1), 'CALLBACK', [{ key: 'callback_time', value: callbackAt }]);
    const waiting = await rowWhen(leadId, 'callback', (l) => l.callStatus === 'callback');
    expect(waiting).toMatchObject({ cadenceStep: 0, nextCallTime: callbackAt });
    const again = await voice.call(leadId, 2);
    expect(again.placedAt).toBeGreaterThanOrEqual(Date.parse(callbackAt) - 50);
    await end(again, 'SUCCESS');
    expect(await result(leadId)).toEqual({ status: 'completed', step: 0, attempts: 2 });
  });

  it('continues as new between attempts and keeps its place', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 600 }] });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    // The input the server started the lead with, restarted with one attempt per run and three immediate steps.
    const handle = h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId));
    const started0 = (await handle.fetchHistory()).events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    const input = defaultPayloadConverter.fromPayload(started0) as LeadCadenceInput;
    await handle.terminate('restarted by the test with maxCallsPerRun 1');
    // Same workflow id: call.ended events signal `lead:<leadId>`.
    const id = leadWorkflowId(leadId);
    const started = await h.temporal!.client.workflow.start(LEAD_CADENCE_WORKFLOW, {
      workflowId: id,
      taskQueue: h.services.config.taskQueue,
      args: [{ ...input, cadence: { id: null, steps: [{ delayMinutes: 0 }, { delayMinutes: 0 }, { delayMinutes: 0 }] }, maxCallsPerRun: 1 }],
    });
    await end(await voice.call(leadId, 1), 'VOICEMAIL');
    await end(await voice.call(leadId, 2), 'VOICEMAIL');
    await end(await voice.call(leadId, 3), 'SUCCESS');
    // The attempt count (and so the call ids) carried over from run to run.
    expect(await started.result()).toEqual({ status: 'completed', step: 2, attempts: 3 });
    expect(voice.callsOf(leadId).map((x) => x.callId)).toEqual([`${leadId}-1`, `${leadId}-2`, `${leadId}-3`]);
    const described = await h.temporal!.client.workflow.getHandle(id).describe();
    expect(described.runId).not.toBe(started.firstExecutionRunId);
  });
});

describe('calling windows', () => {
  it('s2l outside the window parks the lead as waiting_for_window; it dials when the window opens', async () => {
    const zone = 'America/Chicago';
    // The next whole minute at least 3 s away, in the zone; the window runs an hour from there.
    let opens = DateTime.now().setZone(zone).startOf('minute').plus({ minutes: 1 });
    if (opens.toMillis() - Date.now() < 3000) opens = opens.plus({ minutes: 1 });
    const closes = opens.plus({ hours: 1 });
    const callingWindow = { days: [opens.weekday], start: opens.toFormat('H:mm'), end: closes.toFormat('H:mm'), tz: zone };
    const c = await dialerCampaign(h, { dialing: 's2l', callingWindow });
    const dropping = await dialerCampaign(h, { dialing: 's2l', callingWindow, dropOutsideWindow: true, activeTags: [c.activeTag] });

    const ack = await postContactEvent(h, c.event());
    expect(ack.body.data.enrolled).toHaveLength(2);
    const leadId = h.repos.leads.ofContact(h.agencyId, c.locationId, ack.body.data.contactId).find((l) => l.campaignId === c.campaignId)!.id;
    const dropped = h.repos.leads.ofContact(h.agencyId, c.locationId, ack.body.data.contactId).find((l) => l.campaignId === dropping.campaignId)!.id;

    expect(lead(leadId)).toMatchObject({ callStatus: 'waiting_for_window', cadenceStep: 0, nextCallTime: new Date(opens.toMillis()).toISOString() });
    const parked = await h.api('GET', `/api/power-dialer/pipeline/s2l-parked?campaignId=${c.campaignId}`);
    expect(parked.body.data.leads).toEqual([expect.objectContaining({ _id: leadId, callStatus: 'waiting_for_window' })]);
    expect(await result(dropped)).toEqual({ status: 'dropped', step: 0, attempts: 0 });
    expect(lead(dropped)).toMatchObject({ callStatus: 'dropped', live: false });

    const call = await voice.call(leadId, 1, 70_000);
    expect(call.placedAt).toBeGreaterThanOrEqual(opens.toMillis());
    expect((await h.api('GET', `/api/power-dialer/pipeline/s2l-parked?campaignId=${c.campaignId}`)).body.data.total).toBe(0);
    await end(call, 'VOICEMAIL');
    // s2l alone is one attempt.
    expect(await result(leadId)).toEqual({ status: 'exhausted', step: 0, attempts: 1 });
    expect(voice.callsOf(dropped)).toHaveLength(0);
  }, 120_000);

  it('s2l inside the window calls at once', async () => {
    const c = await dialerCampaign(h, { dialing: 's2l', callingWindow: { days: [1, 2, 3, 4, 5, 6, 7], start: '0:00', end: '0:00', tz: 'UTC' } });
    const before = Date.now();
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    const call = await voice.call(leadId, 1);
    expect(call.placedAt - before).toBeLessThan(5000);
    await end(call, 'SUCCESS');
    expect(await result(leadId)).toEqual({ status: 'completed', step: 0, attempts: 1 });
  });
});
