/**
 * The outside world as the engine sees it. Every effectful call carries an idempotency key
 * (`<workflowId>:<nodeId>` for post-call actions) so that an activity retried by Temporal has its
 * effect once. The embedded adapters in server/adapters implement these on the local store; a real
 * CRM or carrier adapter implements the same interfaces.
 */

export interface EffectContext {
  agencyId: string;
  locationId: string;
  idempotencyKey: string;
}

export interface Contact {
  id: string;
  locationId: string;
  firstName?: string;
  lastName?: string;
  fullName?: string;
  email?: string;
  phone?: string;
  timezone?: string;
  tags: string[];
  /** custom contact fields by key */
  fields: Record<string, unknown>;
  pipelineId?: string;
  stageId?: string;
  notes?: { id: string; body: string; createdAt: string }[];
}

export interface CustomValue {
  id: string;
  name: string;
  /** `{{custom_values.business_name}}` */
  fieldKey: string;
  /** `custom_values.business_name` */
  placeholder: string;
  value: string;
}

export interface CustomField {
  id: string;
  name: string;
  /** `contact.callback_time` */
  fieldKey: string;
  placeholder: string;
  dataType: string;
}

/** A failure that retrying cannot fix (unknown contact, invalid stage, slot taken). */
export class PermanentPortError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentPortError';
  }
}

/**
 * The vendor refused the credential (HTTP 401, or 403 on the token itself): the project moves to
 * `disconnected` and needs a reconnect (spec 3.1). Permanent for the step that met it.
 */
export class CredentialRejectedError extends PermanentPortError {
  constructor(
    readonly vendor: string,
    message: string,
  ) {
    super(message);
    this.name = 'CredentialRejectedError';
  }
}

/**
 * The vendor asked us to slow down (HTTP 429). Transient: the activity's next retry waits at
 * least `retryAfterMs` (from `Retry-After`), not the retry policy's own backoff.
 */
export class RateLimitedError extends Error {
  constructor(
    readonly vendor: string,
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(message);
    this.name = 'RateLimitedError';
  }
}

/**
 * A vendor request ran past its deadline (or the connection dropped mid-answer). Unlike a 429 or a
 * 4xx, the outcome is unknown: the vendor may have acted. Transient, so the activity retries, and an
 * effect journaled before the call stays `pending`, so the retry asks the vendor before acting again.
 * Distinct from a plain Error so callers (and logs) can tell "maybe happened" from "failed".
 */
export class VendorTimeoutError extends Error {
  constructor(
    readonly vendor: string,
    readonly timeoutMs: number,
    message: string,
  ) {
    super(message);
    this.name = 'VendorTimeoutError';
  }
}

/**
 * Exactly-once bookkeeping for effects a vendor does not make idempotent (notes, messages,
 * appointments). Keyed per agency by the effect's idempotency key. An entry is `pending` from
 * just before the vendor call until its outcome is known: a `pending` entry found by a later
 * attempt means the earlier one may or may not have taken effect (timeout, crash), so the adapter
 * checks the vendor before acting again where the vendor API allows it.
 */
export type JournalEntry =
  | { state: 'done'; result: unknown }
  | { state: 'pending'; startedAt: string; attempts: number };

export interface EffectJournal {
  lookup(agencyId: string, key: string): Promise<JournalEntry | null>;
  /**
   * records that an attempt is about to call the vendor; on an entry already `pending` it keeps the
   * first `startedAt` (adapters look for the effect from then on) and counts the attempt
   */
  begin(agencyId: string, key: string, kind: string): Promise<void>;
  /** records the vendor's result (its ids): later attempts return it instead of acting */
  complete(agencyId: string, key: string, kind: string, result: unknown): Promise<void>;
  /** the vendor definitely did not act (it refused the request): the next attempt starts afresh */
  abandon(agencyId: string, key: string): Promise<void>;
}

/** A CRM location as a project shows it (spec 2.1 `crm_a`). */
export interface LocationInfo {
  id: string;
  name: string | null;
  timezone: string | null;
  country: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  email: string | null;
  website: string | null;
}

export interface Pipeline {
  id: string;
  name: string;
  stages: { id: string; name: string }[];
}

export interface CalendarInfo {
  id: string;
  name: string;
}

/** Reads of a location's setup, for the editor's pickers and for connecting a project. */
export interface CrmDirectory {
  location(agencyId: string, locationId: string): Promise<LocationInfo>;
  pipelines(agencyId: string, locationId: string): Promise<Pipeline[]>;
  calendars(agencyId: string, locationId: string): Promise<CalendarInfo[]>;
  findContactByPhone(agencyId: string, locationId: string, phone: string): Promise<Contact | null>;
}

export interface Crm {
  getContact(agencyId: string, locationId: string, contactId: string): Promise<Contact | null>;
  customValues(agencyId: string, locationId: string): Promise<CustomValue[]>;
  customFields(agencyId: string, locationId: string): Promise<CustomField[]>;
  addTags(ctx: EffectContext, contactId: string, tags: string[]): Promise<{ tags: string[] }>;
  removeTags(ctx: EffectContext, contactId: string, tags: string[]): Promise<{ tags: string[] }>;
  setField(ctx: EffectContext, contactId: string, field: string, value: unknown): Promise<{ field: string; value: unknown }>;
  moveStage(ctx: EffectContext, contactId: string, pipelineId: string, stageId: string): Promise<{ pipelineId: string; stageId: string }>;
  addNote(ctx: EffectContext, contactId: string, body: string): Promise<{ noteId: string; body: string }>;
}

export interface Messaging {
  sendSms(ctx: EffectContext, msg: { contactId: string; to: string; from: string | null; body: string }): Promise<{ messageId: string; status: string; body: string }>;
  sendEmail(ctx: EffectContext, msg: { contactId: string; to: string; subject: string; body: string }): Promise<{ messageId: string; status: string }>;
}

export interface Calendar {
  book(
    ctx: EffectContext,
    req: { calendarId: string; contactId: string; startsAt: string; durationMinutes: number },
  ): Promise<{ appointmentId: string; calendarId: string; startsAt: string; endsAt: string }>;
}

export interface VoicePlatform {
  placeCall(req: {
    agencyId: string;
    callId: string;
    campaignId: string;
    contactId: string;
    /** the power-dialer lead the call is an attempt of; the platform echoes it in call.ended */
    leadId?: string;
    to: string;
    from: string | null;
    /**
     * Values the agent's script may refer to (`firstName`, `fullName`, `businessName`,
     * `campaignName` …), taken from the contact and the campaign when the call is placed. A real
     * platform hands them to the agent as template variables; the sandbox ignores them.
     */
    variables?: Readonly<Record<string, string>>;
  }): Promise<{
    callId: string;
    /**
     * The platform's own id for the call, when it has one (Vapi's `call.id`). Our `callId` stays
     * the key everywhere; this is kept so a call can be looked up at the vendor (support, recordings,
     * matching a report that arrives without our metadata).
     */
    platformCallId?: string;
    /** which platform placed it (`sandbox`, `vapi`), recorded with the call */
    platform?: string;
  }>;
}

/** The carrier side of the voice platform: buying caller IDs. */
export interface NumberInventory {
  /** numbers for sale that match, at most `limit` */
  available(q: { countryCode?: 'US' | 'CA'; areaCode?: number; tollFree?: boolean; limit: number }): Promise<{ phoneNumber: string; country: string; tollFree: boolean }[]>;
  buy(req: {
    agencyId: string;
    idempotencyKey: string;
    areaCode?: number;
    countryCode?: 'US' | 'CA';
    tollFree?: boolean;
    phoneNumber?: string;
  }): Promise<{ phoneNumber: string; country: string }>;
}

/** Where the post-call workflow records what it did, for execution history. */
export interface ExecutionLog {
  stepStarted(s: { executionId: string; seq: number; nodeId: string; nodeType: string; attempt: number; input: unknown }): Promise<void>;
  stepFinished(s: {
    executionId: string;
    seq: number;
    nodeId: string;
    nodeType: string;
    status: 'succeeded' | 'failed' | 'skipped' | 'evaluated';
    attempt: number;
    input?: unknown;
    output?: unknown;
    error?: string;
  }): Promise<void>;
  executionFinished(e: { executionId: string; status: 'succeeded' | 'failed'; error?: string }): Promise<void>;
}

export interface Ports {
  crm: Crm;
  messaging: Messaging;
  calendar: Calendar;
  executionLog: ExecutionLog;
}
