import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { callEnded, postCallEvent } from '../helpers/events.js';
import { dialerCampaign, fakeVoice, leadHistory, postContactEvent, startedInput, waitFor, type PlacedCall } from '../helpers/power-dialer.js';
import { LEAD_CADENCE_WORKFLOW, LEAD_STATE_QUERY, leadWorkflowId, type LeadCadenceResult, type LeadNext } from '../../engine/workflows/lead-cadence-types.js';

// The power dialer on the run's real Temporal server: durable timers, the voice platform port,
// call.ended events through the real HTTP endpoint signalling the lead's workflow. The voice
// platform is a fake the test drives: it records each call, the test posts the call's end.
// CADENCE_TIME_SCALE 60: a cadence minute lasts a second.
//
// Time: nothing here reads the test's clock to judge the product. When an attempt was made and
// when a timer fires come from the workflow's own history (`leadHistory`); waits longer than a
// cadence's scaled seconds (a window that opens in two hours, a callback in an hour) are not
// waited out: the test checks the workflow's plan and its timer, then restarts the workflow from
// the state it reports with that move due now (`dueNow`).

let h: Harness;
const voice = fakeVoice();
beforeAll(async () => {
  h = await createHarness({ temporal: true, voice: voice.platform, config: { cadenceTimeScale: 60 } });
});
afterAll(async () => h?.close());

const handleOf = (leadId: string) => h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId));
const result = (leadId: string) => handleOf(leadId).result() as Promise<LeadCadenceResult>;
const lead = async (leadId: string) => (await h.store.leads.get(h.agencyId, leadId))!;
const stateOf = (leadId: string) => handleOf(leadId).query<{ next: LeadNext; attempt: number; callId: string | null }>(LEAD_STATE_QUERY);

/** The platform reports the end of a call through the signed events endpoint, as a real one would. */
async function end(call: PlacedCall, disposition: string, fields: { key: string; value: unknown }[] = []) {
  const event = callEnded(call.campaignId, { callId: call.callId, disposition, contactId: call.contactId, phoneNumber: call.to, fields });
  const r = await postCallEvent(h, { ...event, call: { ...event.call, leadId: call.leadId } });
  expect(r.status, r.text).toBe(202);
}

/** The lead row once the workflow has mirrored the state `match` describes. */
const rowWhen = (leadId: string, what: string, match: (l: Awaited<ReturnType<typeof lead>>) => boolean) =>
  waitFor(what, async () => {
    const l = await h.store.leads.get(h.agencyId, leadId);
    return l && match(l) ? l : undefined;
  });

/**
 * The durable timer the workflow set after its `attempts`-th attempt that is due at `at`. Matched by
 * its due time, not counted: the wait for a call's end sets a timer only when the end is not already
 * in (an end that reaches the workflow with the call's placement needs no wait, and the SDK drops a
 * timer started and cancelled in one task), so how many timers precede it depends on timing.
 */
const timerDueAt = (leadId: string, attempts: number, at: number) =>
  waitFor(`a timer due at ${new Date(at).toISOString()} after attempt ${attempts} of ${leadId}`, async () =>
    (await leadHistory(h, leadId)).timers.find((t) => t.afterAttempts === attempts && t.dueFrom <= at && t.dueTo >= at),
  );

/**
 * Controlled time: the lead's workflow is restarted, under the same id (call.ended events still
 * reach it), from the state it reports itself (next move, attempts so far), with the next move due
 * now instead of at its time. What happens once that time comes is then observed without waiting.
 */
async function dueNow(leadId: string) {
  const state = await stateOf(leadId);
  expect(state.next.kind).toBe('call');
  const input = await startedInput(h, leadId);
  await handleOf(leadId).terminate('the test moves the clock to the lead\'s next move');
  await h.temporal!.client.workflow.start(LEAD_CADENCE_WORKFLOW, {
    workflowId: leadWorkflowId(leadId),
    taskQueue: h.services.config.taskQueue,
    args: [{ ...input, resume: { next: { ...state.next, at: Date.now() } as LeadNext, attempt: state.attempt } }],
  });
}

describe('lead cadence workflow', () => {
  it('runs a lead through a three-step cadence: VOICEMAIL advances, SUCCESS stops', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 2 }, { delayMinutes: 2 }], fromNumbers: ['+13125550100', '+15125550101'] });
    const leadId = (await postContactEvent(h, c.event({ phone: '+15125550111' }))).body.data.enrolled[0] as string;

    const first = await voice.call(leadId, 1);
    expect(first).toMatchObject({ campaignId: c.campaignId, to: '+15125550111', from: '+15125550101' });
    expect((await lead(leadId))).toMatchObject({ callStatus: 'calling', cadenceStep: 0 });
    await end(first, 'VOICEMAIL');
    const waiting = await rowWhen(leadId, 'step 1 scheduled', (l) => l.callStatus === 'scheduled' && l.cadenceStep === 1);
    // Step 1 is due 2 cadence minutes (2 s at scale 60) after the first attempt, by the workflow's clock.
    const [attempt1] = (await leadHistory(h, leadId)).attempts;
    expect(attempt1).toMatchObject({ step: 0, callId: first.callId });
    expect(Date.parse(waiting.nextCallTime)).toBe(Date.parse(attempt1!.at) + (2 * 60_000) / 60);
    expect((await h.api('GET', `/api/power-dialer/pipeline/leads?cadenceStep=1&campaignId=${c.campaignId}`)).body.data.leads.map((l: { _id: string }) => l._id)).toEqual([leadId]);

    const second = await voice.call(leadId, 2);
    const { attempts, timers } = await leadHistory(h, leadId);
    expect(attempts[1]).toMatchObject({ step: 1, callId: second.callId });
    // The workflow slept on a durable timer due then, and placed the attempt no earlier.
    const delay = timers.filter((t) => t.afterAttempts === 1).at(-1)!;
    expect(delay.dueFrom).toBeLessThanOrEqual(Date.parse(waiting.nextCallTime));
    expect(delay.dueTo).toBeGreaterThanOrEqual(Date.parse(waiting.nextCallTime));
    expect(Date.parse(attempts[1]!.at)).toBeGreaterThanOrEqual(Date.parse(waiting.nextCallTime));
    await end(second, 'VOICEMAIL');
    const third = await voice.call(leadId, 3);
    expect((await lead(leadId))).toMatchObject({ callStatus: 'calling', cadenceStep: 2 });
    await end(third, 'SUCCESS');

    expect(await result(leadId)).toEqual({ status: 'completed', step: 2, attempts: 3 });
    expect((await lead(leadId))).toMatchObject({ callStatus: 'completed', cadenceStep: 2, live: false });
    expect(voice.callsOf(leadId)).toHaveLength(3);
    // Each call went through call history and its post-call run as well.
    expect((await h.store.calls.get(h.agencyId, third.callId))!.doc.disposition.type).toBe('success');
  });

  it('a fresh lead starts from the state enrolment stored: its first step writes nothing and runs no local activity', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 600 }, { delayMinutes: 600 }] });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    const stored = await lead(leadId);
    expect(stored).toMatchObject({ callStatus: 'scheduled', cadenceStep: 0, live: true });
    const input = await startedInput(h, leadId);
    // Step 0 is due 600 cadence minutes (600 s at scale 60) after enrolment: the row says so, and
    // the workflow sleeps on a timer due then.
    expect(Date.parse(stored.nextCallTime)).toBe(input.enrolledAt + 600_000);
    await timerDueAt(leadId, 0, input.enrolledAt + 600_000);
    expect(await stateOf(leadId)).toMatchObject({ next: { kind: 'call', step: 0, status: 'scheduled', at: input.enrolledAt + 600_000 }, attempt: 0 });

    // No marker at all: neither a local activity's nor a patch's (a new type, `leadCadenceRun`, asks no `patched`).
    const history = (await handleOf(leadId).fetchHistory()).events!;
    expect(history[0]!.workflowExecutionStartedEventAttributes!.workflowType!.name).toBe('leadCadenceRun');
    expect(history.filter((e) => e.markerRecordedEventAttributes)).toEqual([]);
    expect((await lead(leadId))).toEqual(stored);
    await handleOf(leadId).terminate('the test is done with it');
  });

  it('VOICEMAIL on every step exhausts the cadence; an unanswered call (no event) counts as no answer', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 1 }, { delayMinutes: 1 }] });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    await end(await voice.call(leadId, 1), 'VOICEMAIL');
    await end(await voice.call(leadId, 2), 'NO_ACTION');
    await end(await voice.call(leadId, 3), 'VOICEMAIL');
    expect(await result(leadId)).toEqual({ status: 'exhausted', step: 2, attempts: 3 });
    expect((await lead(leadId))).toMatchObject({ callStatus: 'exhausted', cadenceStep: 2, live: false });
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
    expect(await h.store.leads.get(h.agencyId, leadId)).toBeUndefined();
  });

  it('CALLBACK with a callback time calls back then, on the same step', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 600 }] });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    // An hour ahead: far enough that no load makes it a past time (which would mean "no callback").
    const callbackAt = DateTime.now().plus({ hours: 1 }).startOf('second').toUTC().toISO({ suppressMilliseconds: false })!;
    await end(await voice.call(leadId, 1), 'CALLBACK', [{ key: 'callback_time', value: callbackAt }]);
    const waiting = await rowWhen(leadId, 'callback', (l) => l.callStatus === 'callback');
    expect(waiting).toMatchObject({ cadenceStep: 0, nextCallTime: new Date(callbackAt).toISOString() });
    // The workflow's plan: call again at that time, on the same step; and a timer due then.
    expect(await stateOf(leadId)).toMatchObject({ next: { kind: 'call', step: 0, at: Date.parse(callbackAt), status: 'callback' }, attempt: 1 });
    await timerDueAt(leadId, 1, Date.parse(callbackAt));
    expect(voice.callsOf(leadId)).toHaveLength(1);

    // The hour passes: the call back is attempt 2, still step 0; its SUCCESS completes the lead.
    await dueNow(leadId);
    const again = await voice.call(leadId, 2);
    expect(again.callId).toBe(`${leadId}-2`);
    expect((await leadHistory(h, leadId)).attempts).toMatchObject([{ step: 0, callId: again.callId }]);
    await end(again, 'SUCCESS');
    expect(await result(leadId)).toEqual({ status: 'completed', step: 0, attempts: 2 });
  });

  it('continues as new between attempts and keeps its place', async () => {
    const c = await dialerCampaign(h, { dialing: 'pd', steps: [{ delayMinutes: 600 }] });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    // The input the server started the lead with, restarted with one attempt per run and three immediate steps.
    const handle = h.temporal!.client.workflow.getHandle(leadWorkflowId(leadId));
    const input = await startedInput(h, leadId);
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
    // A window that opens two hours from now (on the same local day), for half an hour: far from
    // any boundary, whatever the load. It is not waited for (see dueNow).
    let opens = DateTime.now().setZone(zone).startOf('minute').plus({ hours: 2 });
    if (opens.hour >= 23) opens = opens.startOf('day').plus({ days: 1, hours: 1 });
    const closes = opens.plus({ minutes: 30 });
    const callingWindow = { days: [opens.weekday], start: opens.toFormat('H:mm'), end: closes.toFormat('H:mm'), tz: zone };
    const c = await dialerCampaign(h, { dialing: 's2l', callingWindow });
    const dropping = await dialerCampaign(h, { dialing: 's2l', callingWindow, dropOutsideWindow: true, activeTags: [c.activeTag] });

    const ack = await postContactEvent(h, c.event());
    expect(ack.body.data.enrolled).toHaveLength(2);
    const leadId = (await h.store.leads.ofContact(h.agencyId, c.locationId, ack.body.data.contactId)).find((l) => l.campaignId === c.campaignId)!.id;
    const dropped = (await h.store.leads.ofContact(h.agencyId, c.locationId, ack.body.data.contactId)).find((l) => l.campaignId === dropping.campaignId)!.id;

    expect((await lead(leadId))).toMatchObject({ callStatus: 'waiting_for_window', cadenceStep: 0, nextCallTime: new Date(opens.toMillis()).toISOString() });
    const parked = await h.api('GET', `/api/power-dialer/pipeline/s2l-parked?campaignId=${c.campaignId}`);
    expect(parked.body.data.leads).toEqual([expect.objectContaining({ _id: leadId, callStatus: 'waiting_for_window' })]);
    expect(await result(dropped)).toEqual({ status: 'dropped', step: 0, attempts: 0 });
    expect((await lead(dropped))).toMatchObject({ callStatus: 'dropped', live: false });
    // The workflow's plan: step 0 at the opening, no attempt yet, asleep on a timer due exactly then.
    expect(await stateOf(leadId)).toMatchObject({ next: { kind: 'call', step: 0, at: opens.toMillis(), status: 'waiting_for_window' }, attempt: 0 });
    await timerDueAt(leadId, 0, opens.toMillis());
    expect(voice.callsOf(leadId)).toHaveLength(0);

    // The window opens: one attempt at step 0; the lead leaves the parked list.
    await dueNow(leadId);
    const call = await voice.call(leadId, 1);
    expect((await leadHistory(h, leadId)).attempts).toMatchObject([{ step: 0, callId: call.callId }]);
    expect((await h.api('GET', `/api/power-dialer/pipeline/s2l-parked?campaignId=${c.campaignId}`)).body.data.total).toBe(0);
    await end(call, 'VOICEMAIL');
    // s2l alone is one attempt.
    expect(await result(leadId)).toEqual({ status: 'exhausted', step: 0, attempts: 1 });
    expect(voice.callsOf(dropped)).toHaveLength(0);
  });

  it('s2l inside the window calls at once', async () => {
    const c = await dialerCampaign(h, { dialing: 's2l', callingWindow: { days: [1, 2, 3, 4, 5, 6, 7], start: '0:00', end: '0:00', tz: 'UTC' } });
    const leadId = (await postContactEvent(h, c.event())).body.data.enrolled[0] as string;
    const call = await voice.call(leadId, 1);
    // At once: the workflow placed the attempt without setting any timer first.
    const { attempts, timers } = await leadHistory(h, leadId);
    expect(attempts).toMatchObject([{ step: 0, callId: call.callId }]);
    expect(timers.filter((t) => t.afterAttempts === 0)).toEqual([]);
    await end(call, 'SUCCESS');
    expect(await result(leadId)).toEqual({ status: 'completed', step: 0, attempts: 1 });
  });
});
