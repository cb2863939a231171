/**
 * Row shapes and their mappers to records, where both dialects store a table alike (the same
 * columns, JSON as text): one definition each, used by the SQLite and the Postgres repositories.
 */
import type { CadenceStep } from '../../schemas/cadence.js';
import type { Agency, Alert, AlertKind, CadenceRecord, NumberPurchase, PlacedCall, PurchaseState, ReplayJob, ReplayStatus, SealedCredential } from './records.js';

/** JSON columns: one place that parses, so a corrupt row fails loudly with its table and column named. */
export function parseJson<T>(text: string | null, where: string): T {
  if (text === null) return null as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`corrupt JSON in ${where}`);
  }
}

export interface AlertRow {
  agency_id: string;
  id: string;
  kind: string;
  payload: string;
  created_at: string;
  dispatched_at: string | null;
  delivered_at: string | null;
  emailed_at: string | null;
  attempts: number;
  last_error: string | null;
}

export const alertFromRow = (r: AlertRow): Alert => ({
  agencyId: r.agency_id, id: r.id, kind: r.kind as AlertKind, payload: parseJson(r.payload, 'alerts.payload'), createdAt: r.created_at,
  dispatchedAt: r.dispatched_at, deliveredAt: r.delivered_at, emailedAt: r.emailed_at, attempts: r.attempts, lastError: r.last_error,
});

export interface NumberPurchaseRow {
  agency_id: string;
  purchase_key: string;
  request: string;
  campaign_id: string;
  phone_number: string;
  state: PurchaseState;
  twilio_sid: string | null;
  vapi_phone_number_id: string | null;
  attempts: number;
  started_at: string;
  updated_at: string;
}

export const numberPurchaseFromRow = (r: NumberPurchaseRow | undefined): NumberPurchase | undefined =>
  r && {
    agencyId: r.agency_id,
    key: r.purchase_key,
    request: r.request,
    campaignId: r.campaign_id,
    phoneNumber: r.phone_number,
    state: r.state,
    twilioSid: r.twilio_sid,
    vapiPhoneNumberId: r.vapi_phone_number_id,
    attempts: r.attempts,
    startedAt: r.started_at,
    updatedAt: r.updated_at,
  };

export interface PlacedCallRow {
  agency_id: string;
  call_id: string;
  platform: string;
  platform_call_id: string | null;
  campaign_id: string;
  contact_id: string;
  lead_id: string | null;
  placed_at: string;
}

export const placedCallFromRow = (r: PlacedCallRow): PlacedCall => ({
  agencyId: r.agency_id, callId: r.call_id, platform: r.platform, platformCallId: r.platform_call_id,
  campaignId: r.campaign_id, contactId: r.contact_id, leadId: r.lead_id, placedAt: r.placed_at,
});

export interface CredentialRow {
  agency_id: string;
  owner: string;
  provider: string;
  sealed: string;
  key_id: string;
  hint: string;
  created_at: string;
  updated_at: string;
}

export const credentialFromRow = (r: CredentialRow): SealedCredential => ({
  agencyId: r.agency_id,
  owner: r.owner,
  provider: r.provider,
  sealed: r.sealed,
  keyId: r.key_id,
  hint: r.hint,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface CadenceRow {
  id: string;
  agency_id: string;
  name: string;
  steps: string;
  created_at: string;
  updated_at: string;
}

export const cadenceFromRow = (r: CadenceRow): CadenceRecord => ({
  id: r.id,
  agencyId: r.agency_id,
  name: r.name,
  steps: parseJson<CadenceStep[]>(r.steps, 'cadences.steps'),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface AgencyRow {
  id: string;
  name: string;
  plan_limit: number;
  signing_secret: string;
  created_at: string;
}

export const agencyFromRow = (r: AgencyRow): Agency => ({
  id: r.id,
  name: r.name,
  planLimit: r.plan_limit,
  signingSecret: r.signing_secret,
  createdAt: r.created_at,
});

export interface ReplayJobRow {
  agency_id: string;
  id: string;
  campaign_id: string;
  agent_id: string;
  from_version: number;
  to_version: number | null;
  from_graph: string;
  to_graph: string;
  since: string;
  max_calls: number;
  status: string;
  total: number | null;
  done: number;
  changed: number;
  error: string | null;
  key_id: string | null;
  created_at: string;
  finished_at: string | null;
}

export const replayJobFromRow = (r: ReplayJobRow): ReplayJob => ({
  id: r.id,
  agencyId: r.agency_id,
  campaignId: r.campaign_id,
  agentId: r.agent_id,
  fromVersion: r.from_version,
  toVersion: r.to_version,
  fromGraph: parseJson(r.from_graph, 'replay_jobs.from_graph'),
  toGraph: parseJson(r.to_graph, 'replay_jobs.to_graph'),
  since: r.since,
  maxCalls: r.max_calls,
  status: r.status as ReplayStatus,
  total: r.total,
  done: r.done,
  changed: r.changed,
  error: r.error,
  keyId: r.key_id,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});
