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
  }): Promise<{ callId: string }>;
}

/** The carrier side of the voice platform: buying caller IDs. */
export interface NumberInventory {
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
