/**
 * The store's records: what the repositories (server/store/index.ts) read and write, the same on
 * every implementation of the port. Pure data; no SQL, no I/O.
 */
import type { Graph } from '../../engine/graph/types.js';
import type { LeadCallStatus, CadenceStep } from '../../schemas/cadence.js';
import { ROLES, SCOPES } from '../../schemas/api-key.js';
import type { DryRun } from '../../engine/replay/dry-run.js';

export { SCOPES };

/** Agency-wide settings. */
export interface AgencySettings {
  /** the SMS carrier of projects that do not choose one: the CRM's messaging, or Twilio */
  smsCarrier?: 'crm' | 'twilio';
  /** where the dialer places calls: the built-in sandbox, or Vapi (with the agency's Vapi credentials) */
  voicePlatform?: 'sandbox' | 'vapi';
  /** Vapi end-of-call reports: the analysis.structuredData key holding the outcome, and the agent's words -> our outcomes */
  vapiOutcomeField?: string;
  vapiOutcomeMap?: Record<string, string>;
  /** where failure alerts are POSTed (signed like our events) and emailed */
  alertWebhookUrl?: string;
  alertEmail?: string;
}

export interface Agency {
  id: string;
  name: string;
  planLimit: number;
  signingSecret: string;
  createdAt: string;
}

export interface PostCallFieldRecord {
  name: string;
  type: string;
  description?: string;
  platformManaged?: boolean;
}

export interface AgentRecord {
  id: string;
  agencyId: string;
  projectId: string;
  locationId: string;
  name: string;
  agentType: 'outreach' | 'inbound' | 'appointment';
  capabilities: string[];
  campaignId: string | null;
  postCallFields: PostCallFieldRecord[];
  voice?: string;
  prompt?: string;
  /** the Vapi assistant that speaks for this agent (agencies on Vapi) */
  vapiAssistantId?: string;
  createdAt: string;
  updatedAt: string;
}

export type AlertKind = 'run.failed' | 'project.disconnected';

export interface Alert {
  agencyId: string;
  id: string;
  kind: AlertKind;
  payload: Record<string, unknown>;
  createdAt: string;
  dispatchedAt: string | null;
  deliveredAt: string | null;
  emailedAt: string | null;
  attempts: number;
  lastError: string | null;
}

export type Role = (typeof ROLES)[number];

export type Scope = (typeof SCOPES)[number];

export interface ApiKey {
  id: string;
  agencyId: string;
  name: string;
  prefix: string;
  role: Role;
  scopes: Scope[];
  /** projects a project_user may reach; empty for agency_admin (all of the agency's) */
  projectIds: string[];
  createdAt: string;
  revokedAt: string | null;
  /** when the key stops working; null: never */
  expiresAt: string | null;
  /** the key that created this one over the API; null for the CLI and the seed */
  createdBy: string | null;
}

export interface CadenceRecord {
  id: string;
  agencyId: string;
  name: string;
  steps: CadenceStep[];
  createdAt: string;
  updatedAt: string;
}

export interface CallRecordDoc {
  id: string;
  callId: string;
  date: string;
  dateTime: string;
  leadName: string;
  phoneNumber: string;
  direction: string;
  status: string;
  duration: number;
  agent: string;
  callSummary: string;
  projectName: string;
  recordingUrl?: string;
  cost: number;
  agentType: string;
  campaignId: string;
  campaignName: string;
  disposition: { type: string; label: string; color: string };
  transcript: string;
  fields: { key: string; value: unknown }[];
  transcriptSource: string;
  contactId: string;
}

export interface StoredCall {
  doc: CallRecordDoc;
  projectId: string;
  agentId: string;
  reviewed: boolean;
  /** the time zone of the call's project (null: unset, or the project is deleted), read with the call */
  timezone: string | null;
}

export interface ListParams {
  agencyId: string;
  /** JSON array of project ids a project_user may see; null: all of the agency's */
  projects: string | null;
  excludeReviewed: 0 | 1;
  disposition: string | null;
  campaignId: string | null;
  from: string | null;
  to: string | null;
  cursorAt: string | null;
  cursorId: string | null;
  limit: number;
}

export interface CampaignRecord {
  id: string;
  agencyId: string;
  projectId: string;
  name: string;
  activeTags: string[];
  inactiveTags: string[];
  dialing: 's2l' | 's2l_pd' | 'pd' | 'reactivation' | null;
  agentType: string | null;
  agentId: string;
  fromNumbers: string[];
  active: boolean;
  callingWindow?: unknown;
  multipleTimezoneCheck?: boolean;
  dropOutsideWindow?: boolean;
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** A sealed credential row: the store never sees the secret in the clear (server/providers/credentials.ts seals it). */
export interface SealedCredential {
  agencyId: string;
  /** 'agency', or the id of the project it belongs to */
  owner: string;
  provider: string;
  sealed: string;
  keyId: string;
  /** what may be shown of it: the last characters of an id, never of a secret */
  hint: string;
  createdAt: string;
  updatedAt: string;
}

export interface ExecutionStep {
  seq: number;
  nodeId: string;
  nodeType: string;
  status: string;
  attempts: number;
  input: unknown;
  output: unknown;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface Execution {
  id: string;
  workflowId: string;
  campaignId: string;
  agentId: string;
  callId: string;
  outcome: string;
  graphVersion: number;
  status: string;
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
  /** `run`: a real post-call run; `test`: a test run on the sandbox */
  kind: 'run' | 'test';
  /** the failed run this one resumes, and the run that resumed this one (each at most one) */
  retryOf: string | null;
  retriedBy: string | null;
  steps: ExecutionStep[];
}

export type ReplayStatus = 'running' | 'done' | 'cancelled' | 'failed';

/** A what-if replay: a campaign's recent real calls dry-run through two graphs. */
export interface ReplayJob {
  id: string;
  agencyId: string;
  campaignId: string;
  agentId: string;
  /** the first graph's version (0: the empty workflow) */
  fromVersion: number;
  /** the second graph's version; null: a graph not saved (the editor's unsaved changes) */
  toVersion: number | null;
  fromGraph: Graph;
  toGraph: Graph;
  /** calls whose run started at or after this, newest first, at most `maxCalls` */
  since: string;
  maxCalls: number;
  status: ReplayStatus;
  /** how many calls it replays; null until they are listed */
  total: number | null;
  done: number;
  changed: number;
  error: string | null;
  keyId: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** One call replayed: its run, and the path and effects under each graph (null when it could not be replayed). */
export interface ReplayCallResult {
  seq: number;
  executionId: string;
  callId: string;
  outcome: string;
  /** when the call ended */
  at: string;
  leadName: string;
  before: DryRun | null;
  after: DryRun | null;
  changed: boolean;
  /** why the call could not be replayed (its run's input is no longer stored) */
  error: string | null;
  /** the stored input lacked the contact, so it was read from the CRM (once) */
  contactRead: boolean;
}

/** What a campaign's real runs did at one step over a window (step statistics on the canvas). */
export interface StepStats {
  nodeId: string;
  /** runs that reached the step */
  reached: number;
  succeeded: number;
  failed: number;
  /** skipped as a draft (or as a step type the run did not know) */
  skipped: number;
  /** branches evaluated */
  evaluated: number;
  /** durations of the finished action steps; null when none finished */
  p50Ms: number | null;
  p95Ms: number | null;
  lastError: { message: string; executionId: string; at: string } | null;
}

export interface LeadRecord {
  id: string;
  agencyId: string;
  projectId: string;
  campaignId: string;
  contactId: string;
  queueId: string;
  /** the cadence the lead follows (the campaign's `config.cadenceId` at enrolment); null: the default one-step cadence */
  cadenceId: string | null;
  cadenceStep: number;
  callStatus: LeadCallStatus;
  nextCallTime: string;
  timezone: string;
  firstName: string;
  fullName: string;
  email: string;
  phone: string;
  live: boolean;
  callerPreference: string;
  tags: string[];
  locationId: string;
  businessName: string;
  pipeline: string;
  campaignName: string;
  createdAt: string;
  updatedAt: string;
}

/** The contact-derived part of a lead, refreshed when the CRM reports a change. */
export type LeadContactFields = Pick<LeadRecord, 'firstName' | 'fullName' | 'email' | 'phone' | 'timezone' | 'tags' | 'pipeline'>;

/** What the cadence workflow mirrors onto the row at each state change. */
export interface LeadMirror {
  callStatus: LeadCallStatus;
  cadenceStep: number;
  /** unchanged when omitted (a finished lead keeps the last time that was due) */
  nextCallTime?: string;
  callerPreference?: string;
}

/**
 * One page of a lead list. `mode` picks the list: `pipeline` (spec 4.7: leads being worked at a
 * cadence step) or `parked` (spec 4.8: speed-to-lead leads waiting for the window).
 */
export interface LeadPageQuery {
  agencyId: string;
  mode: 'pipeline' | 'parked';
  /** required for `pipeline` */
  cadenceStep?: number;
  /** one project (a `locationId` filter) */
  projectId?: string;
  /** the projects a project_user key may see; undefined: all of the agency's */
  projectIds?: readonly string[];
  /** one or more campaigns (`campaignId` / `campaignIds`); an empty list matches nothing */
  campaignIds?: readonly string[];
  cadenceId?: string;
  /** lowercased substring of the lead's name, email or phone */
  search?: string;
  limit: number;
  offset: number;
}

export interface StockedNumber {
  phoneNumber: string;
  country: 'US' | 'CA';
  areaCode: number;
  tollFree: boolean;
}

/** How far a purchase at a real carrier got (migration 014 describes each state). */
export type PurchaseState = 'buying' | 'bought' | 'importing' | 'imported' | 'done';

export interface NumberPurchase {
  agencyId: string;
  key: string;
  /** canonical JSON of the request body */
  request: string;
  campaignId: string;
  /** the number being bought (chosen by the client or from Twilio's search) */
  phoneNumber: string;
  state: PurchaseState;
  twilioSid: string | null;
  vapiPhoneNumberId: string | null;
  /** requests that worked on this purchase */
  attempts: number;
  startedAt: string;
  updatedAt: string;
}

export interface OwnedNumber {
  phoneNumber: string;
  nickname: string;
  boundToAgent: boolean;
  boughtAt: string;
  vapiPhoneNumberId?: string;
  /** the IncomingPhoneNumber SID of a number bought at Twilio */
  twilioSid?: string;
}

export interface PlacedCall {
  agencyId: string;
  callId: string;
  platform: string;
  platformCallId: string | null;
  campaignId: string;
  contactId: string;
  leadId: string | null;
  placedAt: string;
}

/** The stored project: the spec's fields minus `campaigns`, which are read from their own table. */
export interface ProjectRecord {
  id: string;
  agencyId: string;
  crm: 'crm_a' | 'crm_b';
  locationId: string;
  companyId?: string;
  timezone: string | null;
  agencyName: string | null;
  active: boolean;
  status: 'live' | 'stopped' | 'disconnected';
  installed: boolean;
  callbacksHandledByHuman?: boolean;
  multipleTimezoneCheck?: boolean;
  callingWindowOverride?: unknown;
  knowledgeBase?: string;
  businessName: string | null;
  businessNameOverridden?: boolean;
  uninstalledAt?: string;
  crm_a?: Record<string, string | null> | null;
  crm_b?: { accountId: string; accountName?: string | null; accountTimezone?: string | null; subdomain?: string };
  /** which carrier sends the project's SMS; unset: the agency's default (`crm` unless set) */
  smsCarrier?: 'crm' | 'twilio';
  /** why the project is `disconnected` (the CRM's refusal), until a reconnect */
  disconnectedReason?: string;
  /** additional properties a client stored through update (spec 4.1 allows them) */
  extra?: Record<string, unknown>;
  deletedAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface StoredWorkflow {
  campaignId: string;
  version: number;
  graph: Graph;
  updatedAt: string;
}

export interface VersionSummary {
  version: number;
  createdAt: string;
  keyId: string | null;
  summary: string;
}

/** Whether a key is usable at `now`: not revoked, not expired. */
export const isActive = (k: ApiKey, now = Date.now()) => !k.revokedAt && (!k.expiresAt || Date.parse(k.expiresAt) > now);

/** Statuses of a lead the dialer still works; the others are final. */
export const LIVE_STATUSES: readonly LeadCallStatus[] = ['scheduled', 'waiting_for_window', 'calling', 'callback'];
export const isLive = (status: LeadCallStatus) => LIVE_STATUSES.includes(status);
