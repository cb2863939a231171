import type { CadenceStep, CallingWindow } from '../../schemas/cadence.js';
import type { DialingMode, ZoneOptions } from '../cadence/index.js';

// Names shared by the lead cadence workflow, the worker and the server: written once, here.

/** The type the server starts (`leadCadenceRun`); `leadCadenceWorkflow` runs only leads started before it. */
export const LEAD_CADENCE_WORKFLOW = 'leadCadenceRun';
export const leadWorkflowId = (leadId: string) => `lead:${leadId}`;
export const CALL_ENDED_SIGNAL = 'callEnded';
export const STOP_SIGNAL = 'stop';
export const LEAD_STATE_QUERY = 'leadState';
/** The platform call id of a lead's n-th attempt: deterministic, so a retried placement is the same call. */
export const leadCallId = (leadId: string, attempt: number) => `${leadId}-${attempt}`;

/** A cadence's steps as the workflow needs them: a snapshot taken at enrolment. */
export interface CadenceSnapshot {
  /** null: the campaign names no cadence and the default one (one immediate attempt) applies */
  id: string | null;
  steps: CadenceStep[];
}

/** What the cadence workflow of one lead runs on: everything pinned when the lead was enrolled. */
export interface LeadCadenceInput {
  agencyId: string;
  leadId: string;
  campaignId: string;
  lead: { phone: string };
  dialing: DialingMode;
  cadence: CadenceSnapshot;
  /** the governing windows (`resolveWindows`: campaign, else project override, else agency default) */
  windows: CallingWindow[];
  zoneOpts: ZoneOptions;
  dropOutsideWindow: boolean;
  fromNumbers: string[];
  /** epoch ms of enrolment: step 0 of a cadence is timed from it */
  enrolledAt: number;
  /** an attempt whose end is not reported within this long counts as unanswered */
  callTimeoutSeconds: number;
  /**
   * Compresses cadence delays (`delayMinutes` without `at`) by this factor: 60 makes a cadence
   * minute last one second. 1 in production; larger for demos and tests.
   */
  timeScale: number;
  /** continue-as-new after this many attempts in one run (history stays small); default 25 */
  maxCallsPerRun?: number;
  /** set by continue-as-new: where the previous run left off */
  resume?: LeadResume;
}

/** The lead's next move: an attempt at a time, or the end of its cadence. `at` is epoch ms. */
export type LeadNext =
  | { kind: 'call'; step: number; at: number; status: 'calling' | 'scheduled' | 'waiting_for_window' | 'callback' }
  | { kind: 'done'; step: number; status: 'completed' | 'exhausted' | 'dropped'; reason?: string };

export interface LeadResume {
  next: LeadNext;
  /** attempts placed so far (numbers the call ids) */
  attempt: number;
}

/** The voice platform reported the end of one of the lead's calls (from the call.ended event). */
export interface CallEndedSignal {
  callId: string;
  /** the raw disposition (VOICEMAIL, SUCCESS, ...) */
  outcome: string;
  callerPreference?: string | null;
  /** recorded post-call fields, by key (`callback_time` is read) */
  fields?: Record<string, unknown>;
}

export type StopReason = 'excluded' | 'campaign_stopped' | 'project_stopped' | 'removed' | 'contact_deleted';

export interface StopSignal {
  reason: StopReason;
}

export interface LeadCadenceResult {
  /** the lead's final callStatus, `stopped` when a stop signal ended it, `removed` when its row had gone */
  status: 'completed' | 'exhausted' | 'dropped' | 'stopped' | 'removed';
  step: number;
  attempts: number;
  reason?: string;
}

/** The activities' inputs (engine/activities/lead-cadence.ts). */
export interface PlaceLeadCallInput {
  agencyId: string;
  leadId: string;
  callId: string;
  step: number;
  /** ISO time the attempt is made */
  at: string;
  from: string | null;
}

export interface MirrorLeadInput {
  agencyId: string;
  leadId: string;
  callStatus: 'scheduled' | 'waiting_for_window' | 'calling' | 'callback' | 'completed' | 'exhausted' | 'dropped';
  cadenceStep: number;
  nextCallTime?: string;
  callerPreference?: string;
}
