import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { LeadCadenceActivities } from '../activities/lead-cadence.js';
import { chooseCallerId } from '../cadence/index.js';
import { firstMove, moveAfterCall } from './lead-cadence-plan.js';
import {
  CALL_ENDED_SIGNAL,
  LEAD_STATE_QUERY,
  STOP_SIGNAL,
  leadCallId,
  type CallEndedSignal,
  type LeadCadenceInput,
  type LeadCadenceResult,
  type LeadNext,
  type StopSignal,
} from './lead-cadence-types.js';

export const callEndedSignal = defineSignal<[CallEndedSignal]>(CALL_ENDED_SIGNAL);
export const stopSignal = defineSignal<[StopSignal]>(STOP_SIGNAL);
export const leadStateQuery = defineQuery<{ next: LeadNext; attempt: number; callId: string | null }>(LEAD_STATE_QUERY);

const dial = proxyActivities<LeadCadenceActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

// Mirroring the state onto the lead row is cheap, local and idempotent: a local activity.
const record = proxyLocalActivities<LeadCadenceActivities>({ startToCloseTimeout: '10 seconds' });

/** Whether mirroring `b` would write what mirroring `a` wrote: the same status, step and next call time. */
const sameRowState = (a: LeadNext, b: LeadNext) => a.status === b.status && a.step === b.step && (a.kind === 'call' ? a.at : null) === (b.kind === 'call' ? b.at : null);

/** Continue-as-new well before Temporal's 51,200-event cap; one attempt costs about 15 events. */
const HISTORY_LIMIT = 2000;
const DEFAULT_MAX_CALLS_PER_RUN = 25;

/**
 * Lead cadences as the server starts them now (LEAD_CADENCE_WORKFLOW). The same cadence as
 * `leadCadenceWorkflow`, except that a fresh run does not mirror its first state when the row
 * already holds it: enrolment stored this input's first move at `enrolledAt`, and mirroring it
 * again cost a local activity per lead (bench/README.md, `cadence.enrol`). A new workflow type
 * rather than a `patched` call, which would record a marker and have the server upsert a search
 * attribute on every lead (as for `postCallRun`), and rather than a flag in the input, so that a
 * worker from before it, still running during a rolling deploy, cannot take such a run.
 */
export async function leadCadenceRun(input: LeadCadenceInput): Promise<LeadCadenceResult> {
  return runCadence(input, { firstStateFromEnrolment: true });
}

/** Lead cadences started before `leadCadenceRun` existed, still in flight or replayed (lead-v1 histories): every state mirrored. */
export async function leadCadenceWorkflow(input: LeadCadenceInput): Promise<LeadCadenceResult> {
  return runCadence(input, { firstStateFromEnrolment: false });
}

/**
 * One lead of a power-dialer queue (`lead:<leadId>`): sleeps on durable timers until each attempt
 * is due, places the call through the voice platform, waits for the call's end (a signal from the
 * call.ended event, or a timeout), and moves to the next step, a callback, or the end, by the
 * outcome. A `stop` signal (exclusion tag, campaign or project stopped, removal) ends it at once.
 * Every state change is mirrored onto the lead row, which the lead lists read.
 */
async function runCadence(input: LeadCadenceInput, changes: { firstStateFromEnrolment: boolean }): Promise<LeadCadenceResult> {
  let stopped: StopSignal | null = null;
  let ended: CallEndedSignal | null = null;
  let callId: string | null = null;
  let next: LeadNext = input.resume?.next ?? firstMove(input, Date.now());
  let attempt = input.resume?.attempt ?? 0;
  let callsThisRun = 0;
  /** what the contact asked for on the last call, written with the next mirror */
  let callerPreference: string | undefined;

  setHandler(stopSignal, (s) => {
    stopped ??= s;
  });
  setHandler(callEndedSignal, (e) => {
    // Only the end of the call in progress counts: a late or repeated event of an earlier call changes nothing.
    if (callId !== null && e.callId === callId) ended ??= e;
  });
  setHandler(leadStateQuery, () => ({ next, attempt, callId }));

  const stoppedResult = (step: number): LeadCadenceResult => ({ status: 'stopped', step, attempts: attempt, reason: stopped?.reason ?? 'removed' });
  const mirror = (n: LeadNext) =>
    record.mirrorLead({
      agencyId: input.agencyId,
      leadId: input.leadId,
      callStatus: n.status,
      cadenceStep: n.step,
      ...(n.kind === 'call' && { nextCallTime: new Date(n.at).toISOString() }),
      ...(callerPreference !== undefined && { callerPreference }),
    });
  // A fresh run starts where enrolment left the row, which holds this input's first move at
  // `enrolledAt`: when ours is the same, there is nothing to mirror.
  let rowCurrent = changes.firstStateFromEnrolment && input.resume === undefined && sameRowState(firstMove(input, input.enrolledAt), next);

  for (;;) {
    if (stopped) return stoppedResult(next.step);
    if (rowCurrent) rowCurrent = false;
    else await mirror(next);
    if (next.kind === 'done') return { status: next.status, step: next.step, attempts: attempt, ...(next.reason && { reason: next.reason }) };
    const wait = next.at - Date.now();
    if (wait > 0 && (await condition(() => stopped !== null, wait))) return stoppedResult(next.step);
    if (stopped) return stoppedResult(next.step);

    attempt += 1;
    callId = leadCallId(input.leadId, attempt);
    ended = null;
    const placedAt = Date.now();
    let placed = true;
    let failure: string | null = null;
    try {
      ({ placed } = await dial.placeLeadCall({
        agencyId: input.agencyId,
        leadId: input.leadId,
        callId,
        step: next.step,
        at: new Date(placedAt).toISOString(),
        from: chooseCallerId(input.fromNumbers, input.lead.phone),
      }));
    } catch (err) {
      // The platform refused the call after every retry: an attempt without an answer.
      if (!(err instanceof ActivityFailure)) throw err;
      failure = 'FAILED';
    }
    if (!placed) return { status: 'removed', step: next.step, attempts: attempt - 1 };

    if (failure === null) await condition(() => ended !== null || stopped !== null, input.callTimeoutSeconds * 1000);
    if (stopped) return stoppedResult(next.step);
    // `ended` is assigned by the signal handler while `condition` waits.
    const end = ended as CallEndedSignal | null;
    if (end?.callerPreference) callerPreference = end.callerPreference;
    next = moveAfterCall(input, next.step, {
      outcome: failure ?? end?.outcome ?? 'NO_ANSWER',
      placedAt,
      now: Date.now(),
      callerPreference: end?.callerPreference ?? null,
      fields: end?.fields ?? null,
    });
    callId = null;

    callsThisRun += 1;
    const info = workflowInfo();
    if (next.kind === 'call' && (info.historyLength > HISTORY_LIMIT || info.continueAsNewSuggested || callsThisRun >= (input.maxCallsPerRun ?? DEFAULT_MAX_CALLS_PER_RUN))) {
      if (stopped) return stoppedResult(next.step);
      await continueAsNew<typeof leadCadenceRun>({ ...input, resume: { next, attempt } });
    }
  }
}
