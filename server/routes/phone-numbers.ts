import { parsePhoneNumberWithError } from 'libphonenumber-js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Services } from '../services.js';
import type { OwnedNumber } from '../store/index.js';
import { assignNumber, buyNumber, registerNumber, unassignNumber } from '../domain/phone-numbers/numbers.js';
import {
  AssignPhoneNumberBody,
  AvailableNumbersQuery,
  AvailableNumbersResponse,
  BuyPhoneNumberBody,
  NumberParams,
  PhoneNumberRecord,
  PhoneNumberResponse,
  RegisterPhoneNumberBody,
} from '../../schemas/phone-number.js';
import { ErrorBody, Id, ok } from '../../schemas/common.js';

const admin = ['agency_admin'] as const;
const access = { scope: 'phone_numbers:write', roles: admin } as const;

/** Display form by libphonenumber: national format for NANP numbers, international otherwise. */
export function prettyNumber(e164: string): string {
  try {
    const parsed = parsePhoneNumberWithError(e164);
    return parsed.countryCallingCode === '1' ? parsed.formatNational() : parsed.formatInternational();
  } catch {
    return e164;
  }
}

const present = (n: OwnedNumber) => ({
  phoneNumber: n.phoneNumber,
  pretty: prettyNumber(n.phoneNumber),
  nickname: n.nickname,
  boundToAgent: n.boundToAgent,
  ...(n.vapiPhoneNumberId && { vapiPhoneNumberId: n.vapiPhoneNumberId }),
  ...(n.twilioSid && { twilioSid: n.twilioSid }),
});

const retryAfter = { 'Retry-After': { description: 'seconds to wait before retrying (with the same Idempotency-Key)', schema: { type: 'integer', minimum: 1 } } };

export function phoneNumberRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'get', path: '/api/agent-builder/available-phone-numbers', operationId: 'listAvailablePhoneNumbers', tag: 'Phone numbers',
      summary: 'Numbers for sale at the agency\'s carrier, to choose one to buy',
      description:
        "With the agency's Twilio credentials, Twilio's offer to its account (AvailablePhoneNumbers: Local.json, or TollFree.json with `tollFree`), voice-capable numbers only; without them, the sandbox carrier's stock. Buy one with POST /api/agent-builder/phone-numbers and its `phoneNumber`. What is offered may be sold to someone else before it is bought (then the purchase is a 409 NumberUnavailable).",
      access, query: AvailableNumbersQuery,
      responses: {
        200: { description: 'numbers for sale (an empty list when none matches)', schema: AvailableNumbersResponse },
        503: { description: 'Twilio could not be reached or asks us to slow down; retry after `Retry-After`', schema: ErrorBody, headers: retryAfter },
      },
      handler: async ({ caller, query, services }) => {
        const { carrier, numbers } = await services.purchasing.search(caller.agencyId, { ...query, limit: query.limit ?? 20 });
        return { success: true, data: numbers.map((n) => ({ ...n, pretty: prettyNumber(n.phoneNumber) })), carrier };
      },
    }),
    defineRoute({
      method: 'post', path: '/api/agent-builder/phone-numbers', operationId: 'buyPhoneNumber', tag: 'Phone numbers',
      summary: 'Buy a caller ID and assign it to a campaign (paid; send an Idempotency-Key)',
      description: [
        "With the agency's Twilio credentials the number is bought at Twilio, which bills the agency's account: exactly `phoneNumber` when given (from GET /api/agent-builder/available-phone-numbers), else the first voice-capable number of the search by `countryCode`, `areaCode`, `tollFree`. When the agency places calls through Vapi, the number is also imported into Vapi, so the dialer can call from it at once. Without Twilio credentials, the sandbox carrier's stock.",
        'A purchase is recorded before Twilio is asked, and never made twice for one Idempotency-Key: a retry after a 503 (or a lost answer) asks Twilio whether the number was sold before buying, and finishes what is left (storing, importing into Vapi, assigning). Without an Idempotency-Key the purchase is recorded under one made for it, which the 503 names.',
        '409 codes: `NumberUnavailable` (no number for what was asked, or the chosen number is not for sale), `VendorRefused` (Twilio or Vapi refused, with their message: an unverified account, a regulatory bundle missing), `CredentialsMissing` (the agency calls through Vapi without Vapi credentials), `IdempotencyKeyReused`, `IdempotencyKeyInProgress`.',
      ].join('\n\n'),
      access, body: BuyPhoneNumberBody, idempotent: 'claim',
      responses: {
        200: { description: 'the bought number', schema: PhoneNumberResponse },
        503: { description: "Twilio or Vapi could not be reached, did not answer in time, or asks us to slow down; the message says what may have been bought. Retry after `Retry-After` with the same Idempotency-Key: nothing is bought twice", schema: ErrorBody, headers: retryAfter },
      },
      handler: async ({ ctx, caller, body, services }) => ({ success: true, phoneNumber: present(await buyNumber(services, caller, ctx.get('Idempotency-Key') || null, body)) }),
    }),
    defineRoute({
      method: 'post', path: '/api/agent-builder/phone-numbers/:number/assign', operationId: 'assignPhoneNumber', tag: 'Phone numbers',
      summary: 'Assign an agency-owned number to another campaign, keeping its other campaigns',
      access, params: NumberParams, body: AssignPhoneNumberBody, idempotent: 'atomic',
      responses: { 200: { description: 'the number', schema: PhoneNumberResponse } },
      handler: async ({ caller, params, body, services }) => ({ success: true, phoneNumber: present(await assignNumber(services.store, caller, params.number, body.campaignId)) }),
    }),
    defineRoute({
      method: 'put', path: '/api/agent-builder/phone-numbers/:number', operationId: 'registerPhoneNumber', tag: 'Phone numbers',
      summary: "Register a number the agency already has at its voice platform (with its Vapi phone-number id), or update one it owns",
      description: 'A number bought (POST) is registered already; a number bought or imported at Vapi elsewhere is registered here, so campaigns can call from it. A number another agency owns is 409.',
      access, params: NumberParams, body: RegisterPhoneNumberBody,
      responses: { 200: { description: 'the number', schema: ok(PhoneNumberRecord) } },
      handler: async ({ caller, params, body, services }) => ({ success: true, data: present(await registerNumber(services.store, caller, params.number, body)) }),
    }),
    defineRoute({
      method: 'delete', path: '/api/agent-builder/phone-numbers/:number/campaigns/:campaignId', operationId: 'unassignPhoneNumber', tag: 'Phone numbers',
      summary: 'Remove a number from one campaign (refused for the only number of an active campaign)',
      access, params: { type: 'object', required: ['number', 'campaignId'], properties: { number: NumberParams.properties.number, campaignId: Id } },
      // Not one of spec 1's exceptions (those are buy and assign): the record goes under `data`.
      responses: { 200: { description: 'the number, no longer on that campaign', schema: ok(PhoneNumberRecord) } },
      handler: async ({ caller, params, services }) => ({ success: true, data: present(await unassignNumber(services.store, caller, params.number, params.campaignId)) }),
    }),
  ];
}
