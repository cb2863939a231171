import { E164, Id } from './common.js';

/** Spec 2.4. */
export const PhoneNumberRecord = {
  type: 'object',
  required: ['phoneNumber', 'pretty', 'nickname', 'boundToAgent'],
  properties: {
    phoneNumber: E164,
    pretty: { type: 'string' },
    nickname: { type: 'string' },
    boundToAgent: { type: 'boolean' },
    vapiPhoneNumberId: { type: 'string', description: "the number's id at Vapi, when the agency's calls go out through Vapi" },
  },
} as const;

/** Spec 4.5; the specific-number field, not named by the spec, is `phoneNumber` (ARCHITECTURE.md). */
export const BuyPhoneNumberBody = {
  type: 'object',
  required: ['campaignId'],
  additionalProperties: false,
  properties: {
    campaignId: Id,
    areaCode: { type: 'integer', minimum: 200, maximum: 999 },
    countryCode: { enum: ['US', 'CA'] },
    tollFree: { type: 'boolean' },
    phoneNumber: E164,
    nickname: { type: 'string', maxLength: 100 },
  },
} as const;

export const AssignPhoneNumberBody = {
  type: 'object',
  required: ['campaignId'],
  additionalProperties: false,
  properties: { campaignId: Id },
} as const;

/** A number the agency already has at its voice platform, registered so campaigns can call from it. */
export const RegisterPhoneNumberBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    nickname: { type: 'string', maxLength: 100 },
    vapiPhoneNumberId: { type: ['string', 'null'], minLength: 1, maxLength: 100, description: 'Vapi dashboard: Phone Numbers; null removes it' },
  },
} as const;

export const NumberParams = { type: 'object', required: ['number'], properties: { number: E164 } } as const;

export const PhoneNumberResponse = {
  type: 'object',
  required: ['success', 'phoneNumber'],
  properties: { success: { const: true }, phoneNumber: PhoneNumberRecord },
} as const;
