import type { LeadCallStatus } from '../../schemas/cadence.js';
import type { AfterCallDecision, SpeedToLeadDecision } from './schedule.js';

/** Campaign dispatch modes (spec 2.3); `reactivation` is retired but still dials like `pd`. */
export type DialingMode = 's2l' | 'pd' | 's2l_pd' | 'reactivation';

export interface DialingPlan {
  /**
   * An immediate speed-to-lead attempt on enrolment: call now, or park as
   * `waiting_for_window` (or drop, with `dropOutsideWindow`) — see `speedToLead`.
   */
  speedToLead: boolean;
  /** The lead follows the campaign's cadence. */
  cadence: boolean;
  /**
   * The cadence step scheduled first with `nextCallTime` (timed from enrolment, or from the
   * speed-to-lead attempt); null without a cadence. In `s2l_pd` the speed-to-lead attempt is
   * step 0, whether it was placed, parked or dropped, so the cadence continues at step 1: "call
   * now, again after 4 hours" makes one call now, not two.
   */
  firstCadenceStep: number | null;
}

const PLANS: Record<DialingMode, DialingPlan> = {
  s2l: { speedToLead: true, cadence: false, firstCadenceStep: null },
  pd: { speedToLead: false, cadence: true, firstCadenceStep: 0 },
  s2l_pd: { speedToLead: true, cadence: true, firstCadenceStep: 1 },
  reactivation: { speedToLead: false, cadence: true, firstCadenceStep: 0 },
};

const NO_DIALING: DialingPlan = { speedToLead: false, cadence: false, firstCadenceStep: null };

/** Which phases apply to a lead of a campaign with this `dialing`; null (no dispatch mode) dials nothing. */
export function dialingPlan(dialing: DialingMode | null | undefined): DialingPlan {
  return dialing ? { ...(PLANS[dialing] ?? NO_DIALING) } : { ...NO_DIALING };
}

/**
 * The lead's `callStatus` after a decision: `scheduled` for a cadence step waiting for its time,
 * `waiting_for_window` for a parked speed-to-lead lead, `callback` for an agreed callback,
 * `completed` when an outcome ended it, `exhausted` when the cadence ran out, `dropped` when
 * speed-to-lead dropped it outside the window. (`calling` is set while a call is in progress.)
 */
export function callStatusFor(decision: AfterCallDecision | SpeedToLeadDecision): LeadCallStatus {
  switch (decision.kind) {
    case 'call_now':
      return 'calling';
    case 'park':
      return 'waiting_for_window';
    case 'drop':
      return 'dropped';
    case 'next':
      return 'scheduled';
    case 'callback':
      return 'callback';
    case 'stop':
      return decision.reason === 'outcome' ? 'completed' : 'exhausted';
  }
}
