import type { FromSchema } from 'json-schema-to-ts';
import { DateTime, E164, Id } from './common.js';
import { LEGACY_AGENT_TYPES } from './campaign.js';

const scalar = { type: ['string', 'number', 'boolean', 'null'] } as const;

export const RecordedField = {
  type: 'object',
  required: ['key', 'value'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 100 }, value: scalar },
} as const;

export const Disposition = {
  type: 'object',
  required: ['type', 'label', 'color'],
  properties: { type: { type: 'string' }, label: { type: 'string' }, color: { type: 'string' } },
} as const;

/** Spec 2.6. Storage names never appear: `id`, not `_id`; `agentType`, not `campaignSystem`. */
export const CallRecord = {
  type: 'object',
  required: ['id', 'callId', 'date', 'dateTime', 'phoneNumber', 'direction', 'status', 'disposition', 'fields'],
  properties: {
    id: { type: 'string' },
    callId: { type: 'string' },
    date: { type: 'string', format: 'date', description: "the call's calendar date in the project's time zone (`dateTime` is the instant, in UTC)" },
    dateTime: DateTime,
    leadName: { type: 'string' },
    phoneNumber: E164,
    direction: { type: 'string' },
    status: { type: 'string' },
    duration: { type: 'number', minimum: 0, description: 'length of the call in seconds' },
    agent: { type: 'string' },
    callSummary: { type: 'string' },
    projectName: { type: 'string' },
    recordingUrl: { type: 'string', format: 'uri' },
    cost: { type: 'number', minimum: 0, description: 'what the voice platform charged for the call, in US dollars' },
    agentType: { enum: LEGACY_AGENT_TYPES, description: 'the legacy template id of the call\'s campaign (spec 2.3), the same vocabulary on every call' },
    campaignId: { type: 'string' },
    campaignName: { type: 'string' },
    disposition: Disposition,
    transcript: { type: 'string' },
    fields: { type: 'array', items: RecordedField },
    transcriptSource: { type: 'string' },
    contactId: { type: 'string' },
    reviewed: { type: 'boolean' },
  },
} as const;
export type CallRecord = FromSchema<typeof CallRecord>;

const callCommon = {
  callId: Id,
  campaignId: Id,
  contactId: Id,
  phoneNumber: E164,
  leadName: { type: 'string', maxLength: 200 },
  direction: { enum: ['outbound', 'inbound'] },
  dateTime: DateTime,
} as const;

/**
 * Events the voice platform posts to /api/events/calls, signed with the agency's secret. `callId`
 * is the idempotency key: a duplicate event is acknowledged and changes nothing.
 */
export const CallStartedEvent = {
  type: 'object',
  required: ['type', 'call'],
  additionalProperties: false,
  properties: {
    type: { const: 'call.started' },
    call: {
      type: 'object',
      required: ['callId', 'campaignId', 'phoneNumber'],
      additionalProperties: false,
      properties: callCommon,
    },
  },
} as const;

export const CallEndedEvent = {
  type: 'object',
  required: ['type', 'call'],
  additionalProperties: false,
  properties: {
    type: { const: 'call.ended' },
    call: {
      type: 'object',
      required: ['callId', 'campaignId', 'phoneNumber', 'disposition', 'dateTime'],
      additionalProperties: false,
      properties: {
        ...callCommon,
        status: { type: 'string', default: 'ended' },
        duration: { type: 'number', minimum: 0, description: 'seconds' },
        cost: { type: 'number', minimum: 0, description: 'US dollars' },
        recordingUrl: { type: 'string', format: 'uri' },
        callSummary: { type: 'string', maxLength: 20000 },
        transcript: { type: 'string', maxLength: 500000 },
        transcriptSource: { type: 'string' },
        /** the raw disposition (VOICEMAIL …) or its dashboard form, any case */
        disposition: { type: 'string', minLength: 1 },
        fields: { type: 'array', items: RecordedField, maxItems: 200 },
        /** a time the caller asked to be called back at, if any */
        callerPreference: { type: 'string' },
        /** the power-dialer lead this call was an attempt of (the platform echoes what the dialer sent) */
        leadId: Id,
      },
    },
  },
} as const;
export type CallEndedEvent = FromSchema<typeof CallEndedEvent>;

export const CallEvent = { oneOf: [CallStartedEvent, CallEndedEvent] } as const;
