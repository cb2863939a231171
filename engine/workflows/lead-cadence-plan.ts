import {
  CadenceError,
  callStatusFor,
  decideAfterCall,
  dialingPlan,
  nextCallTime,
  nextOpening,
  speedToLead,
  stepWindows,
  type CallFields,
} from '../cadence/index.js';
import type { LeadCadenceInput, LeadNext } from './lead-cadence-types.js';

// The lead cadence's decisions as pure functions of the pinned input and a time: the workflow
// calls them with Temporal's deterministic clock, the server with its own to write the lead's
// first state at enrolment. Nothing here reads a clock.

const MINUTE_MS = 60_000;

/** Data the arithmetic refuses (a zone that vanished from the tz database) ends the lead, never loops a workflow task. */
function guarded(step: number, plan: () => LeadNext): LeadNext {
  try {
    return plan();
  } catch (err) {
    if (err instanceof CadenceError) return { kind: 'done', step, status: 'dropped', reason: err.message };
    throw err;
  }
}

/** The lead's first move on enrolment at `now`, by the campaign's dialing mode (`dialingPlan`). */
export function firstMove(input: LeadCadenceInput, now: number): LeadNext {
  const plan = dialingPlan(input.dialing);
  return guarded(0, () => {
    if (plan.speedToLead) {
      const decision = speedToLead({ now: new Date(now), windows: input.windows, zoneOpts: input.zoneOpts, dropOutsideWindow: input.dropOutsideWindow });
      if (decision.kind === 'call_now') return { kind: 'call', step: 0, at: now, status: 'calling' };
      if (decision.kind === 'park') return { kind: 'call', step: 0, at: decision.until.getTime(), status: 'waiting_for_window' };
      // Dropped outside the window: s2l ends here; s2l_pd counts the drop as step 0 and goes on.
      if (plan.firstCadenceStep === null) return { kind: 'done', step: 0, status: callStatusFor(decision) as 'dropped' };
      return cadenceMove(input, plan.firstCadenceStep, now);
    }
    if (plan.firstCadenceStep === null) return { kind: 'done', step: 0, status: 'dropped', reason: 'the campaign has no dialing mode' };
    return cadenceMove(input, plan.firstCadenceStep, input.enrolledAt);
  });
}

/** Cadence step `step`, timed from `lastAttemptAt` (enrolment for step 0) and moved into its window. */
export function cadenceMove(input: LeadCadenceInput, step: number, lastAttemptAt: number): LeadNext {
  const last = Math.max(0, input.cadence.steps.length - 1);
  const spec = input.cadence.steps[step];
  if (!spec) return { kind: 'done', step: Math.min(step, last), status: 'exhausted' };
  return guarded(step, () => {
    if (input.timeScale > 1 && spec.at === undefined) {
      // Compressed time (demos, tests): the delay shrinks, the calling window does not.
      const due = lastAttemptAt + (spec.delayMinutes * MINUTE_MS) / input.timeScale;
      const opening = nextOpening(stepWindows(spec, input.windows), new Date(due), input.zoneOpts);
      if (!opening) throw new CadenceError('NO_OPENING', `no calling window opens after ${new Date(due).toISOString()}`);
      return { kind: 'call', step, at: opening.getTime(), status: 'scheduled' };
    }
    const next = nextCallTime({ cadence: input.cadence, step, lastAttemptAt: new Date(lastAttemptAt), windows: input.windows, zoneOpts: input.zoneOpts });
    if (!next) return { kind: 'done', step: Math.min(step, last), status: 'exhausted' };
    return { kind: 'call', step, at: next.at.getTime(), status: 'scheduled' };
  });
}

export interface CallEnd {
  outcome: string;
  /** when the attempt was placed: the next step is timed from it */
  placedAt: number;
  /** when the end was reported (or the wait for it timed out) */
  now: number;
  callerPreference?: string | null;
  fields?: CallFields | null;
}

/** After the call of step `step` ended: the next step, a callback (same step), or the end (`decideAfterCall`). */
export function moveAfterCall(input: LeadCadenceInput, step: number, end: CallEnd): LeadNext {
  const plan = dialingPlan(input.dialing);
  return guarded(step, () => {
    const decision = decideAfterCall(end.outcome, {
      cadence: plan.cadence ? input.cadence : null,
      step,
      now: new Date(end.now),
      callerPreference: end.callerPreference ?? null,
      fields: end.fields ?? null,
      windows: input.windows,
      zoneOpts: input.zoneOpts,
    });
    switch (decision.kind) {
      case 'stop':
        return { kind: 'done', step, status: callStatusFor(decision) as 'completed' | 'exhausted' };
      case 'callback':
        return { kind: 'call', step, at: decision.at.getTime(), status: 'callback' };
      case 'next':
        return cadenceMove(input, decision.step, end.placedAt);
    }
  });
}
