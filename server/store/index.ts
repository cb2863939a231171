/**
 * The store's port: one written-out interface per aggregate, every method asynchronous, and
 * `withTransaction`, the only way to write atomically. The domain (server/domain) and the adapters
 * program against this file alone; server/store/sqlite is the embedded implementation (one file,
 * prepared statements, synchronous inside), and another store implements the same interfaces its
 * own way.
 *
 * Transactions: `withTransaction(async (tx) => ...)` runs `fn` with repositories bound to one
 * transaction (IMMEDIATE on SQLite: it holds the write lock from its start, so the reads inside it
 * see what the writes inside it will be checked against). Inside it, use `tx` only; the store that
 * opened it refuses to be used from inside its own transaction (it would not be part of it). A
 * `withTransaction` on `tx` joins the open transaction. Keep outside I/O (a vendor, Temporal) out
 * of a transaction: it holds the writer for its whole duration.
 *
 * Concurrency: SQLite has one writer, so a transaction's reads stay true until it commits. On a
 * store with concurrent writers (Postgres, READ COMMITTED) they do not by themselves: a
 * read-modify-write reads its row with `{ forUpdate: true }`, a count that decides a write takes
 * its agency's lock first (`agencies.lockForUpdate`), and the repositories' own compound steps
 * (a graph write, an idempotency claim, a booking, a contact found or created by phone) are
 * atomic on every implementation.
 */
import type { Contact, CustomField, CustomValue, EffectJournal, CalendarInfo, Pipeline } from '../../engine/ports.js';
import type { Graph } from '../../engine/graph/types.js';
import type { PostCallInput } from '../../engine/workflows/post-call-types.js';
import type {
  Agency,
  AgencySettings,
  AgentRecord,
  Alert,
  AlertKind,
  ApiKey,
  CadenceRecord,
  CallRecordDoc,
  CampaignRecord,
  Execution,
  LeadContactFields,
  LeadMirror,
  LeadPageQuery,
  LeadRecord,
  ListParams,
  NumberPurchase,
  OwnedNumber,
  PlacedCall,
  ProjectRecord,
  PurchaseState,
  ReplayCallResult,
  ReplayJob,
  Role,
  Scope,
  SealedCredential,
  StockedNumber,
  StoredCall,
  StepStats,
  StoredWorkflow,
  VersionSummary,
} from './records.js';

export * from './records.js';

/** A write that lost a race the caller can act on: a stale version, a taken unique value. */
export class StoreConflict extends Error {
  constructor(
    readonly reason: 'StaleVersion',
    message: string,
  ) {
    super(message);
    this.name = 'StoreConflict';
  }
}

/**
 * How a read inside a transaction holds what it read. `forUpdate`: the row is locked until the
 * transaction ends, so a read-modify-write never loses a concurrent one (Postgres: SELECT ... FOR
 * UPDATE; SQLite: nothing to do, its IMMEDIATE transactions already hold the one writer). Outside
 * a transaction it changes nothing.
 */
export interface ReadOptions {
  forUpdate?: boolean;
}

export interface AgenciesRepository {
  get(id: string): Promise<Agency | undefined>;
  /**
   * Inside a transaction: holds the agency's row until it ends, so whatever it counts and then
   * writes for the agency (live projects against the plan, its settings) is not counted by another
   * transaction meanwhile. SQLite: nothing to do (one writer).
   */
  lockForUpdate(id: string): Promise<void>;
  settings(id: string): Promise<AgencySettings>;
  saveSettings(id: string, next: AgencySettings): Promise<void>;
  /** the secrets a signed delivery may be signed with now: the current one, and during a rotation's grace period the one it replaced */
  verificationSecrets(id: string, now?: number): Promise<string[]>;
  /** the current signing secret, the first time it is asked for; null once it was shown */
  revealSigningSecret(id: string): Promise<string | null>;
  /** a new signing secret; the old one verifies for `graceSeconds` more */
  rotateSigningSecret(id: string, graceSeconds: number): Promise<{ secret: string; previousValidUntil: string }>;
  /** creates the agency if it does not exist; returns it either way (safe when processes race to create it) */
  ensure(id: string, name: string, planLimit: number): Promise<Agency>;
  /** creates the agency unless it exists: undefined when it existed, or another transaction created it first */
  create(id: string, name: string, planLimit: number): Promise<Agency | undefined>;
}

export interface ApiKeysRepository {
  /** the key record and its secret; the secret exists nowhere else afterwards */
  create(input: { agencyId: string; name: string; role: Role; scopes: Scope[]; projectIds: string[]; expiresAt?: string | null; createdBy?: string | null }): Promise<{ key: ApiKey; secret: string }>;
  /** the active key for a presented secret */
  authenticate(secret: string): Promise<ApiKey | undefined>;
  get(agencyId: string, id: string): Promise<ApiKey | undefined>;
  list(agencyId: string): Promise<ApiKey[]>;
  revoke(agencyId: string, id: string): Promise<boolean>;
  /** how many presented secrets were looked up in the store (the rest came from a cache) */
  lookups(): Promise<number>;
}

export interface ProjectsRepository {
  get(agencyId: string, id: string, opts?: ReadOptions): Promise<ProjectRecord | undefined>;
  /** by id or by CRM location id: both name a project in the spec's paths */
  find(agencyId: string, idOrLocation: string, opts?: ReadOptions): Promise<ProjectRecord | undefined>;
  /** by CRM location id only */
  atLocation(agencyId: string, locationId: string, opts?: ReadOptions): Promise<ProjectRecord | undefined>;
  list(agencyId: string): Promise<ProjectRecord[]>;
  countLive(agencyId: string): Promise<number>;
  insert(input: Omit<ProjectRecord, 'id' | 'createdAt' | 'updatedAt'>): Promise<ProjectRecord>;
  save(p: ProjectRecord): Promise<ProjectRecord>;
}

export interface AgentsRepository {
  get(agencyId: string, id: string, opts?: ReadOptions): Promise<AgentRecord | undefined>;
  list(agencyId: string): Promise<AgentRecord[]>;
  insert(input: Omit<AgentRecord, 'id' | 'createdAt' | 'updatedAt'>): Promise<AgentRecord>;
  save(a: AgentRecord): Promise<AgentRecord>;
}

export interface CampaignsRepository {
  get(agencyId: string, id: string, opts?: ReadOptions): Promise<CampaignRecord | undefined>;
  listByProject(agencyId: string, projectId: string): Promise<CampaignRecord[]>;
  listByAgent(agencyId: string, agentId: string): Promise<CampaignRecord[]>;
  insert(input: Omit<CampaignRecord, 'id' | 'createdAt' | 'updatedAt'>): Promise<CampaignRecord>;
  save(c: CampaignRecord): Promise<CampaignRecord>;
}

export interface WorkflowsRepository {
  /** a campaign with no stored graph reads as an empty graph at version 0 */
  get(agencyId: string, campaignId: string): Promise<StoredWorkflow>;
  /**
   * The one way a graph changes, atomically: read the current version, check `expectedVersion`
   * (StoreConflict 'StaleVersion' when it moved), apply the pure operation, store the result and
   * its history row. Racing writers each see the one before them; none is lost.
   */
  write(input: { agencyId: string; campaignId: string; expectedVersion?: number | undefined; keyId: string | null; apply: (current: Graph) => { graph: Graph; summary: string } }): Promise<StoredWorkflow>;
  versions(agencyId: string, campaignId: string): Promise<VersionSummary[]>;
  version(agencyId: string, campaignId: string, version: number): Promise<StoredWorkflow | undefined>;
}

export interface IdempotencyClaim {
  fingerprint: string;
  /** 0: its first request is still running */
  status: number;
  body: unknown;
}

export interface IdempotencyRepository {
  /**
   * Claims the key for the request `holder` for `leaseMs`: the existing record when the key is
   * taken, null when this request owns it now. A claim in progress whose lease ran out (its process
   * died) is taken over; a live one never is.
   */
  reserve(agencyId: string, key: string, fingerprint: string, holder: string, leaseMs: number): Promise<IdempotencyClaim | null>;
  /** extends the holder's lease while its request runs; false when the claim is no longer its own */
  renew(agencyId: string, key: string, holder: string, leaseMs: number): Promise<boolean>;
  /** stores the answer of the holder's request (a claim taken over from it is left alone) */
  complete(agencyId: string, key: string, holder: string, status: number, body: unknown): Promise<void>;
  /** gives the key back after the holder's request failed (a claim taken over from it is left alone) */
  release(agencyId: string, key: string, holder: string): Promise<void>;
  prune(): Promise<number>;
}

/** Named leases: at most one holder at a time, across processes, until it releases or its lease runs out. */
export interface LeasesRepository {
  /** true when `holder` has the lease now (it was free, ran out, or was already its own), for `ms` from now */
  claim(name: string, holder: string, ms: number): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
}

export interface CallsRepository {
  get(agencyId: string, callId: string): Promise<StoredCall | undefined>;
  /** keyset pagination, newest first */
  list(p: ListParams): Promise<{ calls: StoredCall[]; next: { at: string; id: string } | null }>;
  /** calls of a campaign since `since`, by disposition type */
  countByDisposition(agencyId: string, campaignId: string, since: string): Promise<Record<string, number>>;
  setReviewed(agencyId: string, callId: string, reviewed: boolean): Promise<boolean>;
  /** records that an event was received; false when this call already had an event of this type */
  recordEvent(agencyId: string, callId: string, type: string, signature: string): Promise<boolean>;
  insert(agencyId: string, projectId: string, agentId: string, doc: Omit<CallRecordDoc, 'id'>): Promise<CallRecordDoc>;
  /** undoes an accepted call.ended whose run could not be started: the call, its event, execution, input and created contact go */
  forgetAccepted(agencyId: string, callId: string, workflowId: string, createdContact: { locationId: string; contactId: string } | null): Promise<void>;
}

export interface ExecutionsRepository {
  create(e: { id: string; agencyId: string; workflowId: string; campaignId: string; agentId: string; callId: string; outcome: string; graphVersion: number; retryOf?: string; kind?: 'run' | 'test' }): Promise<void>;
  /** failed real runs not yet retried, newest first (of these projects, or all) */
  listFailed(agencyId: string, projectIds: readonly string[] | null, limit: number): Promise<Execution[]>;
  /** real runs still running on a campaign, per pinned graph version */
  inFlight(agencyId: string, campaignId: string): Promise<{ version: number; n: number }[]>;
  /** links a failed run to its retry, atomically: false when it is not failed or already claimed */
  claimRetry(agencyId: string, failedId: string, retryId: string): Promise<boolean>;
  /** the retry could not be started: the failed run is retryable again and the retry's rows go */
  undoRetry(agencyId: string, failedId: string, retryId: string): Promise<void>;
  get(agencyId: string, id: string): Promise<Execution | undefined>;
  byWorkflowId(agencyId: string, workflowId: string): Promise<Execution | undefined>;
  /** the call's first run: the one its call.ended event started */
  firstOfCall(agencyId: string, callId: string): Promise<Execution | undefined>;
  listByAgent(agencyId: string, agentId: string, limit: number, kind?: 'run' | 'test'): Promise<Execution[]>;
  stepStarted(s: { executionId: string; seq: number; nodeId: string; nodeType: string; attempt: number; input: unknown }): Promise<void>;
  stepFinished(s: { executionId: string; seq: number; nodeId: string; nodeType: string; status: string; attempt: number; input?: unknown; output?: unknown; error?: string }): Promise<void>;
  finish(id: string, status: string, error: string | null): Promise<void>;
  /** by id alone: the worker's execution log knows only the id it was given */
  byIdAnyAgency(id: string, opts?: ReadOptions): Promise<(Execution & { agencyId: string }) | undefined>;
  /** a run's outcome by its id alone (ids are random, unique across agencies), for metrics */
  outcomeOf(id: string): Promise<string | undefined>;
  /**
   * What the campaign's real runs did at each step whose run step started at or after `since`
   * (of one graph version, or all with null): the statistics on the canvas. Answers in
   * milliseconds at a million steps (SQLite: an hourly rollup kept by triggers, migration 016); a
   * window's first hour may be counted whole, and the percentiles may be approximate (within 10%).
   */
  stepStats(q: { agencyId: string; campaignId: string; since: string; version: number | null }): Promise<StepStats[]>;
  /** the campaign's real runs started since `since`, first runs of their calls only (no retries), newest first, without their steps */
  recentRuns(q: { agencyId: string; campaignId: string; since: string; limit: number }): Promise<Execution[]>;
}

/** The embedded CRM's contacts, custom values and custom fields, per agency and location. */
export interface CrmRepository {
  getContact(agencyId: string, locationId: string, id: string): Promise<Contact | undefined>;
  findByPhone(agencyId: string, locationId: string, phone: string): Promise<Contact | undefined>;
  createContact(agencyId: string, input: Omit<Contact, 'id' | 'tags' | 'fields'> & Partial<Pick<Contact, 'id' | 'tags' | 'fields'>>): Promise<Contact>;
  /**
   * The location's contact with this phone, or a new one made from `input`, atomically: calls
   * from one new number racing each other make one contact. `created`: this call made it.
   */
  findOrCreateByPhone(agencyId: string, input: Omit<Contact, 'id' | 'tags' | 'fields'> & Partial<Pick<Contact, 'id' | 'tags' | 'fields'>> & { phone: string }): Promise<{ contact: Contact; created: boolean }>;
  saveContact(agencyId: string, c: Contact): Promise<void>;
  customValues(agencyId: string, locationId: string): Promise<CustomValue[]>;
  customFields(agencyId: string, locationId: string): Promise<CustomField[]>;
  addCustomValue(agencyId: string, locationId: string, name: string, key: string, value: string): Promise<void>;
  addCustomField(agencyId: string, locationId: string, name: string, key: string, dataType?: string): Promise<void>;
}

/** The embedded CRM's setup: pipelines and calendars per location. */
export interface CrmSetupRepository {
  pipelines(agencyId: string, locationId: string): Promise<Pipeline[]>;
  calendars(agencyId: string, locationId: string): Promise<CalendarInfo[]>;
  /** gives a location these pipelines and calendars if it has none yet */
  seedDefaults(agencyId: string, locationId: string, pipelines: readonly Pipeline[], calendars: readonly CalendarInfo[]): Promise<void>;
}

/** Effects of the embedded adapters, recorded under their idempotency key (one key space per agency). */
export interface EffectsRepository {
  /** the result recorded under the key, or undefined */
  result(agencyId: string, key: string): Promise<{ value: unknown } | undefined>;
  record(agencyId: string, key: string, kind: string, result: unknown): Promise<void>;
  /** effects recorded under keys that start with `prefix`, for tests and diagnostics */
  countWithPrefix(agencyId: string, prefix: string): Promise<number>;
}

export interface RunInputsRepository {
  put(agencyId: string, workflowId: string, input: PostCallInput): Promise<void>;
  get(agencyId: string, workflowId: string): Promise<PostCallInput | undefined>;
}

export interface PhoneNumbersRepository {
  get(agencyId: string, number: string): Promise<OwnedNumber | undefined>;
  list(agencyId: string): Promise<OwnedNumber[]>;
  insert(agencyId: string, number: string, nickname: string, boundToAgent: boolean): Promise<OwnedNumber>;
  /** whether another agency owns the number (here, or bought from the sandbox carrier) */
  ownedElsewhere(agencyId: string, number: string): Promise<boolean>;
  /** registers (or updates) a number the agency has at its voice platform; undefined fields are left as they are */
  register(agencyId: string, number: string, change: { nickname?: string; vapiPhoneNumberId?: string | null }): Promise<OwnedNumber>;
}

/** The sandbox carrier's stock, shared by every agency as a real carrier's is. */
export interface NumberInventoryRepository {
  get(phoneNumber: string): Promise<(StockedNumber & { sold: boolean }) | undefined>;
  available(q: { country: 'US' | 'CA' | null; tollFree: boolean; areaCode: number | null; limit: number }): Promise<StockedNumber[]>;
  /** sells the number to the agency; false when it was sold already */
  take(agencyId: string, phoneNumber: string): Promise<boolean>;
}

/** Purchases at a real carrier, recorded before the carrier is asked and moved on with each step that took effect. */
export interface NumberPurchasesRepository {
  get(agencyId: string, key: string): Promise<NumberPurchase | undefined>;
  begin(p: { agencyId: string; key: string; request: string; campaignId: string; phoneNumber: string }): Promise<NumberPurchase>;
  resumed(agencyId: string, key: string): Promise<NumberPurchase>;
  abandon(agencyId: string, key: string): Promise<void>;
  /** the number is the agency's from now on, with its SID, in the same transaction as the purchase's step */
  bought(p: { agencyId: string; key: string; phoneNumber: string; twilioSid: string; nickname: string }): Promise<NumberPurchase>;
  importing(agencyId: string, key: string): Promise<NumberPurchase>;
  importRefused(agencyId: string, key: string): Promise<NumberPurchase>;
  imported(p: { agencyId: string; key: string; phoneNumber: string; vapiId: string }): Promise<NumberPurchase>;
  done(agencyId: string, key: string, from: PurchaseState): Promise<NumberPurchase>;
}

export interface CadencesRepository {
  get(agencyId: string, id: string, opts?: ReadOptions): Promise<CadenceRecord | undefined>;
  list(agencyId: string): Promise<CadenceRecord[]>;
  insert(input: Pick<CadenceRecord, 'agencyId' | 'name' | 'steps'>): Promise<CadenceRecord>;
  save(c: CadenceRecord): Promise<CadenceRecord>;
}

export interface LeadsRepository {
  /** false when the contact is already in that campaign's queue (never twice) */
  insert(l: LeadRecord): Promise<boolean>;
  get(agencyId: string, id: string): Promise<LeadRecord | undefined>;
  inCampaign(agencyId: string, campaignId: string, contactId: string): Promise<LeadRecord | undefined>;
  /** the contact's leads in every campaign of the agency on that CRM location */
  ofContact(agencyId: string, locationId: string, contactId: string): Promise<LeadRecord[]>;
  /** the cadence workflow's view of the lead, written at each state change; false when the lead left */
  mirror(agencyId: string, id: string, m: LeadMirror): Promise<boolean>;
  /** marks a live lead `calling`; undefined when it left the queue or is finished */
  beginCall(agencyId: string, id: string, cadenceStep: number, at: string): Promise<LeadRecord | undefined>;
  /** copies changed contact data onto every lead of the contact (of that location) */
  refreshContact(agencyId: string, locationId: string, contactId: string, f: LeadContactFields): Promise<void>;
  remove(agencyId: string, id: string): Promise<boolean>;
  /** removes the leads a stopped campaign / project was still working; returns their ids */
  removeLiveOfCampaign(agencyId: string, campaignId: string): Promise<string[]>;
  removeLiveOfProject(agencyId: string, projectId: string): Promise<string[]>;
  /** live leads of a campaign per cadence step */
  perStep(agencyId: string, campaignId: string): Promise<{ step: number; n: number }[]>;
  /** records a signed contact event's signature; false when it was seen before (a replay) */
  recordContactEvent(signature: string, agencyId: string, locationId: string, contactId: string, type: string): Promise<boolean>;
}

/**
 * The lead lists of spec 4.7 and 4.8: a page of a list (cadence step or parked), filtered and
 * searched by substring, with its total. An implementation indexes what the lead repository wrote
 * its own way (SQLite: FTS5 documents written behind their rows).
 */
export interface LeadSearch {
  page(q: LeadPageQuery): Promise<{ leads: LeadRecord[]; total: number }>;
  /** makes every committed write of leads searchable now; how many documents it wrote */
  sync(): Promise<number>;
  /** what a page of `q` runs, with the plan, for the benchmarks */
  explain(q: LeadPageQuery): Promise<{ count: string; page: string | null }>;
}

export interface WebhookSignaturesRepository {
  /** records the signature; false when this agency's sender used it before (a replay) */
  claim(agencyId: string, source: string, signature: string, toleranceSeconds: number): Promise<boolean>;
}

export interface CredentialsRepository {
  get(agencyId: string, owner: string, provider: string): Promise<SealedCredential | undefined>;
  list(agencyId: string): Promise<SealedCredential[]>;
  put(c: Omit<SealedCredential, 'createdAt' | 'updatedAt'>): Promise<void>;
  remove(agencyId: string, owner: string, provider: string): Promise<boolean>;
}

export interface PlacedCallsRepository {
  record(c: Omit<PlacedCall, 'placedAt' | 'leadId'> & { leadId?: string | null }): Promise<void>;
  get(agencyId: string, callId: string): Promise<PlacedCall | undefined>;
  byPlatformId(agencyId: string, platform: string, platformCallId: string): Promise<PlacedCall | undefined>;
}

export interface AlertsRepository {
  record(agencyId: string, kind: AlertKind, payload: Record<string, unknown>): Promise<string>;
  get(agencyId: string, id: string): Promise<Alert | undefined>;
  /** alerts whose delivery workflow was not started yet, oldest first */
  waiting(limit?: number): Promise<Alert[]>;
  list(agencyId: string, limit?: number): Promise<Alert[]>;
  markDispatched(agencyId: string, id: string): Promise<void>;
  markDelivered(agencyId: string, id: string): Promise<void>;
  noteFailedAttempt(agencyId: string, id: string, error: string): Promise<void>;
  markEmailed(agencyId: string, id: string): Promise<void>;
}

/** The sandbox carrier's sent messages. */
export interface OutboxRepository {
  add(m: { id: string; agencyId: string; channel: 'sms' | 'email'; key: string; contactId: string; recipient: string; sender: string | null; subject: string | null; body: string }): Promise<void>;
}

/** The embedded calendar's appointments: one per slot of a calendar. */
export interface AppointmentsRepository {
  /** books the slot; false when an appointment on that calendar overlaps it */
  bookIfFree(a: { id: string; agencyId: string; locationId: string; calendarId: string; contactId: string; startsAt: string; endsAt: string; idempotencyKey: string }): Promise<boolean>;
}

/** What-if replays and their per-call results (issue 40, item 7). */
export interface ReplaysRepository {
  create(job: Omit<ReplayJob, 'status' | 'total' | 'done' | 'changed' | 'error' | 'createdAt' | 'finishedAt'>): Promise<ReplayJob>;
  get(agencyId: string, id: string): Promise<ReplayJob | undefined>;
  /** replays of the agency still running */
  countRunning(agencyId: string): Promise<number>;
  /** records how many calls a running replay takes; false when it is no longer running */
  planned(agencyId: string, id: string, total: number): Promise<boolean>;
  /**
   * Stores one call's result and counts it (`done`, and `changed` when it changed), atomically;
   * false when the replay is no longer running (cancelled): nothing is stored then. A result
   * already stored under its `seq` is kept and not counted again.
   */
  addResult(agencyId: string, id: string, result: ReplayCallResult): Promise<boolean>;
  /** a running replay ends (`done` or `failed`); one no longer running is left as it is */
  finish(agencyId: string, id: string, status: 'done' | 'failed', error: string | null): Promise<void>;
  /** a running replay is cancelled; false when it was not running */
  cancel(agencyId: string, id: string): Promise<boolean>;
  /** its results, in the order the calls were listed */
  results(agencyId: string, id: string): Promise<ReplayCallResult[]>;
}

export interface Repositories {
  agencies: AgenciesRepository;
  apiKeys: ApiKeysRepository;
  projects: ProjectsRepository;
  agents: AgentsRepository;
  campaigns: CampaignsRepository;
  workflows: WorkflowsRepository;
  idempotency: IdempotencyRepository;
  leases: LeasesRepository;
  calls: CallsRepository;
  executions: ExecutionsRepository;
  crm: CrmRepository;
  crmSetup: CrmSetupRepository;
  effects: EffectsRepository;
  /** the journal of vendor effects (engine/ports.ts), on the same key space as `effects` */
  effectJournal: EffectJournal;
  runInputs: RunInputsRepository;
  phoneNumbers: PhoneNumbersRepository;
  numberInventory: NumberInventoryRepository;
  numberPurchases: NumberPurchasesRepository;
  cadences: CadencesRepository;
  leads: LeadsRepository;
  leadSearch: LeadSearch;
  webhookSignatures: WebhookSignaturesRepository;
  credentials: CredentialsRepository;
  placedCalls: PlacedCallsRepository;
  alerts: AlertsRepository;
  outbox: OutboxRepository;
  appointments: AppointmentsRepository;
  replays: ReplaysRepository;
}

export interface Store extends Repositories {
  /** runs `fn` with repositories bound to one transaction; on a transaction's own store, joins it */
  withTransaction<T>(fn: (tx: Store) => Promise<T>): Promise<T>;
  /** the store answers (readiness probes) */
  ping(): Promise<void>;
  close(): Promise<void>;
}
