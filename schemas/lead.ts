import type { FromSchema } from 'json-schema-to-ts';
import { LeadCallStatus } from './cadence.js';
import { DateTime, E164, Id } from './common.js';

// Power-dialer leads (spec 2.5, 4.7, 4.8), the explicit enrolment body, and the CRM contact
// events that enrol and exclude contacts.

/** Spec 2.5, exactly: `_id` is the spec's own name for the lead id on this resource. */
export const PipelineLead = {
  type: 'object',
  required: [
    '_id', 'queueId', 'cadenceStep', 'callStatus', 'nextCallTime', 'timezone', 'firstName', 'fullName', 'email', 'phone',
    'live', 'callerPreference', 'createdAt', 'tags', 'locationId', 'businessName', 'pipeline', 'campaignId', 'campaignName',
  ],
  additionalProperties: false,
  properties: {
    _id: { type: 'string', description: 'lead id' },
    queueId: { type: 'string', description: "the campaign's dialer queue (one per campaign)" },
    cadenceStep: { type: 'integer', minimum: 0, description: 'index of the cadence step the lead is at (0-based)' },
    callStatus: { ...LeadCallStatus, description: 'scheduled, waiting_for_window, calling, callback, completed, exhausted or dropped' },
    nextCallTime: { ...DateTime, description: 'when the next attempt is due; for a finished lead, the last one that was due' },
    timezone: { type: 'string', description: "the contact's IANA zone, else the project's; empty when neither is known" },
    firstName: { type: 'string' },
    fullName: { type: 'string' },
    email: { type: 'string' },
    phone: E164,
    live: { type: 'boolean', description: 'true while the dialer still works the lead (not completed, exhausted or dropped)' },
    callerPreference: { type: 'string', description: 'what the contact asked for on the last call (a time or a label); empty if nothing' },
    createdAt: DateTime,
    tags: { type: 'array', items: { type: 'string' } },
    locationId: { type: 'string' },
    businessName: { type: 'string' },
    pipeline: { type: 'string', description: "the contact's CRM pipeline id; empty when none" },
    campaignId: { type: 'string' },
    campaignName: { type: 'string' },
  },
} as const;
export type PipelineLead = FromSchema<typeof PipelineLead>;

/** `{ success, data: { leads, total, page, totalPages } }` of both lead lists. */
export const LeadPage = {
  type: 'object',
  required: ['leads', 'total', 'page', 'totalPages'],
  additionalProperties: false,
  properties: {
    leads: { type: 'array', items: PipelineLead },
    total: { type: 'integer', minimum: 0 },
    page: { type: 'integer', minimum: 1 },
    totalPages: { type: 'integer', minimum: 0, description: 'ceil(total / limit); 0 when there are no leads' },
  },
} as const;

const listParams = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'page number, 1 or more' },
  limit: { type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'page size, 1 to 100' },
  search: { type: 'string', maxLength: 200, description: 'case-insensitive substring of the name, email or phone' },
  locationId: { ...Id, description: "limits to one project (CRM location id or project id); the caller must have access to it" },
  campaignId: { ...Id, description: 'limits to one campaign' },
  campaignIds: { type: 'string', minLength: 1, maxLength: 5000, description: 'comma-separated campaign ids: a combined view' },
} as const;

/** Spec 4.7: `cadenceStep` is required (a 400 whose text says so). */
export const PipelineLeadsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['cadenceStep'],
  properties: {
    cadenceStep: { type: 'integer', minimum: 0, description: 'the cadence step (0-based) to list' },
    ...listParams,
    scheduleId: { ...Id, description: 'a cadence id: only leads following that cadence' },
  },
} as const;
export type PipelineLeadsQuery = FromSchema<typeof PipelineLeadsQuery>;

/** Spec 4.8: the parameters of 4.7 without the cadence step and schedule id. */
export const ParkedLeadsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: listParams,
} as const;
export type ParkedLeadsQuery = FromSchema<typeof ParkedLeadsQuery>;

/** Contact data as a CRM sends it; every field but the id is optional. */
export const ContactInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    id: Id,
    firstName: { type: 'string', maxLength: 200 },
    lastName: { type: 'string', maxLength: 200 },
    fullName: { type: 'string', maxLength: 400 },
    email: { type: 'string', maxLength: 320 },
    phone: { type: 'string', maxLength: 40, description: 'E.164, or a national US/CA number' },
    timezone: { type: 'string', maxLength: 100 },
    tags: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, maxItems: 200 },
    pipelineId: { type: 'string', maxLength: 200 },
    stageId: { type: 'string', maxLength: 200 },
    fields: { type: 'object', description: 'custom contact fields by key' },
  },
} as const;

/**
 * Explicit enrolment: a contact of the campaign's project, by id, or given by its fields (it is
 * then created or updated in the project's CRM location first). Exactly one of `contactId` and
 * `contact` (the route says which is missing or doubled, by name).
 */
export const EnrolLeadBody = {
  type: 'object',
  required: ['campaignId'],
  additionalProperties: false,
  properties: {
    campaignId: Id,
    contactId: { ...Id, description: 'a contact the product knows (send this or contact)' },
    contact: { ...ContactInput, description: 'the contact itself (send this or contactId)' },
  },
  oneOf: [{ required: ['contactId'], properties: { contactId: true } }, { required: ['contact'], properties: { contact: true } }],
  'x-error': { $oneOf: 'send exactly one of body.contactId and body.contact' },
} as const;
export type EnrolLeadBody = FromSchema<typeof EnrolLeadBody>;

/**
 * What the CRM posts to /api/events/contacts, signed like call events. `contact.created` and
 * `contact.updated` upsert the contact (the fields sent replace the stored ones) and re-apply the
 * enrolment rules; `contact.deleted` removes the contact from every queue.
 */
export const ContactEvent = {
  type: 'object',
  required: ['type', 'contact'],
  additionalProperties: false,
  properties: {
    type: { enum: ['contact.created', 'contact.updated', 'contact.deleted'] },
    contact: {
      type: 'object',
      required: ['id', 'locationId'],
      additionalProperties: false,
      properties: { ...ContactInput.properties, locationId: Id },
    },
  },
} as const;
export type ContactEvent = FromSchema<typeof ContactEvent>;

export const ContactEventAck = {
  type: 'object',
  required: ['contactId', 'enrolled', 'removed'],
  additionalProperties: false,
  properties: {
    contactId: { type: 'string' },
    enrolled: { type: 'array', items: { type: 'string' }, description: 'ids of the leads this event created' },
    removed: { type: 'array', items: { type: 'string' }, description: 'ids of the leads this event removed' },
  },
} as const;
