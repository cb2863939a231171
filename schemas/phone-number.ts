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
    twilioSid: { type: 'string', description: "the number's IncomingPhoneNumber SID, when it was bought at Twilio" },
  },
} as const;

const areaCode = { type: 'integer', minimum: 200, maximum: 999 } as const;
const countryCode = { enum: ['US', 'CA'] } as const;

/** Spec 4.5; the specific-number field, not named by the spec, is `phoneNumber` (ARCHITECTURE.md). */
export const BuyPhoneNumberBody = {
  type: 'object',
  required: ['campaignId'],
  additionalProperties: false,
  properties: {
    campaignId: Id,
    areaCode: { ...areaCode, description: 'a local number in this area code (on a toll-free purchase, used only when it is a toll-free prefix such as 888)' },
    countryCode: { ...countryCode, description: "the number's country; without it, the area code's (else US at Twilio, any at the sandbox carrier)" },
    tollFree: { type: 'boolean', description: 'a toll-free number' },
    phoneNumber: { ...E164, description: 'exactly this number, chosen from GET /api/agent-builder/available-phone-numbers' },
    nickname: { type: 'string', maxLength: 100, description: "the number's name here, at Twilio and at Vapi (default: the campaign's name)" },
  },
} as const;

/** The search before a purchase: numbers for sale at the agency's carrier. */
export const AvailableNumbersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    countryCode: { ...countryCode, description: "without it: the area code's country, else US (the sandbox carrier: any)" },
    areaCode: { ...areaCode, description: 'local numbers in this area code (on a toll-free search, only a toll-free prefix such as 888 applies)' },
    tollFree: { type: 'boolean', description: 'toll-free numbers instead of local ones' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'at most this many numbers' },
  },
} as const;

export const AvailableNumber = {
  type: 'object',
  required: ['phoneNumber', 'pretty', 'countryCode', 'tollFree', 'locality', 'region'],
  additionalProperties: false,
  properties: {
    phoneNumber: E164,
    pretty: { type: 'string' },
    countryCode: { type: 'string', description: 'ISO country code' },
    tollFree: { type: 'boolean' },
    locality: { type: ['string', 'null'], description: "the number's city, when the carrier says" },
    region: { type: ['string', 'null'], description: "the number's state or province, when the carrier says" },
  },
} as const;

export const AvailableNumbersResponse = {
  type: 'object',
  required: ['success', 'data', 'carrier'],
  properties: {
    success: { const: true },
    data: { type: 'array', items: AvailableNumber },
    carrier: { enum: ['twilio', 'sandbox'], description: 'where a purchase would buy: Twilio (the agency holds Twilio credentials) or the sandbox carrier' },
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
