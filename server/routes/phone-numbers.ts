import { randomUUID } from 'node:crypto';
import { parsePhoneNumberWithError } from 'libphonenumber-js';
import { PermanentPortError } from '../../engine/ports.js';
import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import { assertProjectAccess } from '../http/request-context.js';
import type { Services } from '../services.js';
import type { CampaignRecord } from '../store/campaigns.js';
import type { OwnedNumber } from '../store/phone-numbers.js';
import { AssignPhoneNumberBody, BuyPhoneNumberBody, NumberParams, PhoneNumberRecord, PhoneNumberResponse, RegisterPhoneNumberBody } from '../../schemas/phone-number.js';
import { Id, ok } from '../../schemas/common.js';

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
});

function loadCampaign(s: Services, caller: Caller, campaignId: string): CampaignRecord {
  const campaign = s.repos.campaigns.get(caller.agencyId, campaignId);
  // A campaign of a deleted (hidden) project is gone with it (spec 3.1): not found, like any other.
  if (!campaign || !s.repos.projects.get(caller.agencyId, campaign.projectId)) throw notFound(`campaign ${campaignId} not found`);
  assertProjectAccess(caller, campaign.projectId);
  return campaign;
}

export function phoneNumberRoutes(s: Services): RouteDef[] {
  const { campaigns, phoneNumbers } = s.repos;
  const addTo = (c: CampaignRecord, n: string) => (c.fromNumbers.includes(n) ? c : campaigns.save({ ...c, fromNumbers: [...c.fromNumbers, n] }));
  return [
    defineRoute({
      method: 'post', path: '/api/agent-builder/phone-numbers', operationId: 'buyPhoneNumber', tag: 'Phone numbers',
      summary: 'Buy a caller ID and assign it to a campaign (paid; send an Idempotency-Key)',
      access, body: BuyPhoneNumberBody, idempotent: true,
      responses: { 200: { description: 'the bought number', schema: PhoneNumberResponse } },
      handler: async ({ ctx, caller, body }) => {
        const campaign = loadCampaign(s, caller, body.campaignId);
        const idem = ctx.get('Idempotency-Key') || randomUUID();
        let bought;
        try {
          bought = await s.numbers.buy({
            agencyId: caller.agencyId,
            idempotencyKey: `buy-number:${caller.agencyId}:${idem}`,
            ...(body.areaCode !== undefined && { areaCode: body.areaCode }),
            ...(body.countryCode !== undefined && { countryCode: body.countryCode }),
            ...(body.tollFree !== undefined && { tollFree: body.tollFree }),
            ...(body.phoneNumber !== undefined && { phoneNumber: body.phoneNumber }),
          });
        } catch (err) {
          if (err instanceof PermanentPortError) throw new AppError('CONFLICT', err.message, { detailCode: 'NumberUnavailable' });
          throw err;
        }
        const owned = s.db.transaction(() => {
          const n = phoneNumbers.get(caller.agencyId, bought.phoneNumber) ?? phoneNumbers.insert(caller.agencyId, bought.phoneNumber, body.nickname ?? campaign.name, false);
          addTo(campaigns.get(caller.agencyId, campaign.id)!, n.phoneNumber);
          return n;
        }).immediate();
        return { success: true, phoneNumber: present(owned) };
      },
    }),
    defineRoute({
      method: 'post', path: '/api/agent-builder/phone-numbers/:number/assign', operationId: 'assignPhoneNumber', tag: 'Phone numbers',
      summary: 'Assign an agency-owned number to another campaign, keeping its other campaigns',
      access, params: NumberParams, body: AssignPhoneNumberBody, idempotent: true,
      responses: { 200: { description: 'the number', schema: PhoneNumberResponse } },
      handler: ({ caller, params, body }) => {
        const owned = phoneNumbers.get(caller.agencyId, params.number);
        if (!owned) throw notFound(`phone number ${params.number} is not owned by this agency`);
        const campaign = loadCampaign(s, caller, body.campaignId);
        s.db.transaction(() => addTo(campaigns.get(caller.agencyId, campaign.id)!, owned.phoneNumber)).immediate();
        return { success: true, phoneNumber: present(owned) };
      },
    }),
    defineRoute({
      method: 'put', path: '/api/agent-builder/phone-numbers/:number', operationId: 'registerPhoneNumber', tag: 'Phone numbers',
      summary: "Register a number the agency already has at its voice platform (with its Vapi phone-number id), or update one it owns",
      description: 'Buying (POST) draws from the sandbox carrier; a number bought or imported at Vapi is registered here instead, so campaigns can call from it. A number another agency owns is 409.',
      access, params: NumberParams, body: RegisterPhoneNumberBody,
      responses: { 200: { description: 'the number', schema: ok(PhoneNumberRecord) } },
      handler: ({ caller, params, body }) => {
        if (phoneNumbers.ownedElsewhere(caller.agencyId, params.number)) throw new AppError('CONFLICT', `${params.number} belongs to another agency`, { detailCode: 'NumberOwnedElsewhere' });
        return { success: true, data: present(phoneNumbers.register(caller.agencyId, params.number, body)) };
      },
    }),
    defineRoute({
      method: 'delete', path: '/api/agent-builder/phone-numbers/:number/campaigns/:campaignId', operationId: 'unassignPhoneNumber', tag: 'Phone numbers',
      summary: 'Remove a number from one campaign (refused for the only number of an active campaign)',
      access, params: { type: 'object', required: ['number', 'campaignId'], properties: { number: NumberParams.properties.number, campaignId: Id } },
      // Not one of spec 1's exceptions (those are buy and assign): the record goes under `data`.
      responses: { 200: { description: 'the number, no longer on that campaign', schema: ok(PhoneNumberRecord) } },
      handler: ({ caller, params }) => {
        const owned = phoneNumbers.get(caller.agencyId, params.number);
        if (!owned) throw notFound(`phone number ${params.number} is not owned by this agency`);
        s.db.transaction(() => {
          const campaign = loadCampaign(s, caller, params.campaignId);
          if (!campaign.fromNumbers.includes(owned.phoneNumber)) throw notFound(`${owned.phoneNumber} is not assigned to campaign ${campaign.id}`);
          assertNotLastNumber(campaign, campaign.fromNumbers.filter((n) => n !== owned.phoneNumber));
          campaigns.save({ ...campaign, fromNumbers: campaign.fromNumbers.filter((n) => n !== owned.phoneNumber) });
        }).immediate();
        return { success: true, data: present(owned) };
      },
    }),
  ];
}

/** Spec 7's example conflict: an active campaign cannot lose its only caller ID. */
export function assertNotLastNumber(campaign: CampaignRecord, nextNumbers: readonly string[]): void {
  if (campaign.active && campaign.fromNumbers.length > 0 && nextNumbers.length === 0) {
    throw new AppError('CONFLICT', `cannot remove the only phone number of active campaign ${campaign.id}; add another number or stop the campaign first`, { detailCode: 'LastNumberOfActiveCampaign' });
  }
}
