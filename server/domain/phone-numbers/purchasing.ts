/**
 * Buying caller IDs (spec 4.5) and listing what can be bought, from the carrier the agency has:
 * Twilio when the agency holds Twilio credentials (the number imported into Vapi too when Vapi
 * places its calls), else the sandbox carrier's stock (the demo, the tests). Route handlers call
 * this and present what it answers.
 */
import type { Logger } from 'pino';
import { PermanentPortError, type NumberInventory } from '../../../engine/ports.js';
import { twilioNumbers as makeTwilioNumbers, type TwilioNumbers } from '../../adapters/twilio/numbers.js';
import { vapiNumbers as makeVapiNumbers, type VapiNumbers } from '../../adapters/vapi/numbers.js';
import type { Config } from '../../config.js';
import { DomainError } from '../errors.js';
import { canonicalJson } from '../canonical-json.js';
import type { CredentialStore, TwilioCredential } from '../../providers/credentials.js';
import { voicePlatformOf } from '../../providers/choice.js';
import { uuid } from '../../ids.js';
import type { OwnedNumber, Store } from '../../store/index.js';
import { countryOfNumber, describeSearch, searchOf, type CountryCode, type NumberAsk } from './ask.js';
import { purchaseFailure } from './failures.js';
import { buyAtTwilio } from './purchase.js';

export type Carrier = 'twilio' | 'sandbox';

export interface AvailableNumber {
  phoneNumber: string;
  countryCode: string;
  tollFree: boolean;
  locality: string | null;
  region: string | null;
}

export interface BuyRequest extends NumberAsk {
  campaignId: string;
  nickname?: string;
}

export interface NumberPurchasing {
  /** which carrier the agency's numbers come from */
  carrierOf(agencyId: string): Promise<Carrier>;
  /** numbers for sale: Twilio's offer to the agency's account, else the sandbox stock */
  search(agencyId: string, q: { countryCode?: CountryCode; areaCode?: number; tollFree?: boolean; limit: number }): Promise<{ carrier: Carrier; numbers: AvailableNumber[] }>;
  /**
   * Buys a number and puts it on the campaign (which the caller has checked is the agency's and
   * visible to it). `idempotencyKey`: the request's; a purchase at Twilio without one is recorded
   * under a key made for it, which a failure's message names so the client can resume it.
   */
  buy(agencyId: string, idempotencyKey: string | null, body: BuyRequest, campaignName: string): Promise<OwnedNumber>;
}

export interface NumberPurchasingDeps {
  config: Pick<Config, 'twilioBaseUrl' | 'vapiBaseUrl' | 'vendorTimeoutMs'>;
  store: Store;
  credentials: CredentialStore;
  sandbox: NumberInventory;
  logger: Logger;
  /** tests replace the vendors' clients; by default they are made from the config */
  twilio?: (c: TwilioCredential) => TwilioNumbers;
  vapi?: (apiKey: string) => VapiNumbers;
}

export function numberPurchasing(deps: NumberPurchasingDeps): NumberPurchasing {
  const { config, store, credentials, sandbox, logger } = deps;
  const twilioOf = deps.twilio ?? ((c) => makeTwilioNumbers({ baseUrl: config.twilioBaseUrl, accountSid: c.accountSid, authToken: c.authToken, timeoutMs: config.vendorTimeoutMs }));
  const vapiOf = deps.vapi ?? ((apiKey) => makeVapiNumbers({ baseUrl: config.vapiBaseUrl, apiKey, timeoutMs: config.vendorTimeoutMs }));
  const twilioCredential = (agencyId: string) => credentials.get(agencyId, 'agency', 'twilio');

  /** The campaign gets the number (kept once), in the same transaction as `then` (the purchase's end). */
  const assign = <T>(agencyId: string, campaignId: string, phoneNumber: string, then: (tx: Store) => Promise<T>) =>
    store.withTransaction(async (tx) => {
      const campaign = await tx.campaigns.get(agencyId, campaignId, { forUpdate: true });
      if (!campaign) throw new DomainError('NOT_FOUND', `campaign ${campaignId} not found; ${phoneNumber} stays the agency's number, to assign elsewhere`);
      if (!campaign.fromNumbers.includes(phoneNumber)) await tx.campaigns.save({ ...campaign, fromNumbers: [...campaign.fromNumbers, phoneNumber] });
      return then(tx);
    });

  async function buyFromSandbox(agencyId: string, idempotencyKey: string | null, body: BuyRequest, nickname: string): Promise<OwnedNumber> {
    let bought;
    try {
      bought = await sandbox.buy({
        agencyId,
        idempotencyKey: `buy-number:${agencyId}:${idempotencyKey ?? uuid()}`,
        ...(body.areaCode !== undefined && { areaCode: body.areaCode }),
        ...(body.countryCode !== undefined && { countryCode: body.countryCode }),
        ...(body.tollFree !== undefined && { tollFree: body.tollFree }),
        ...(body.phoneNumber !== undefined && { phoneNumber: body.phoneNumber }),
      });
    } catch (err) {
      if (err instanceof PermanentPortError) throw new DomainError('CONFLICT', err.message, { detailCode: 'NumberUnavailable' });
      throw err;
    }
    return assign(agencyId, body.campaignId, bought.phoneNumber, async (tx) => (await tx.phoneNumbers.get(agencyId, bought.phoneNumber)) ?? tx.phoneNumbers.insert(agencyId, bought.phoneNumber, nickname, false));
  }

  async function buyFromTwilio(agencyId: string, cred: TwilioCredential, idempotencyKey: string | null, body: BuyRequest, nickname: string): Promise<OwnedNumber> {
    // Decided before anything is bought: a number Vapi cannot get is a number the dialer cannot use.
    let vapi = null;
    if (voicePlatformOf(await store.agencies.settings(agencyId)) === 'vapi') {
      const vapiCred = await credentials.get(agencyId, 'agency', 'vapi');
      if (!vapiCred) throw new DomainError('CONFLICT', 'the agency places calls through Vapi but has no Vapi credentials (PUT /api/agency/credentials/vapi); nothing was bought', { detailCode: 'CredentialsMissing' });
      vapi = { numbers: vapiOf(vapiCred.apiKey), twilioAccountSid: cred.accountSid, twilioAuthToken: cred.authToken };
    }
    const { campaignId, areaCode, countryCode, tollFree, phoneNumber } = body;
    const done = await buyAtTwilio(
      {
        purchases: store.numberPurchases,
        twilio: twilioOf(cred),
        vapi,
        assign: async (p) => void (await assign(agencyId, p.campaignId, p.phoneNumber, (tx) => tx.numberPurchases.done(agencyId, p.key, p.state))),
      },
      { agencyId, key: idempotencyKey ?? `purchase-${uuid()}`, request: canonicalJson(body), campaignId, nickname, ask: { areaCode, countryCode, tollFree, phoneNumber } },
    );
    // A paid action: one line per purchase an operator can reconcile with Twilio's bill.
    logger.info({ agencyId, phoneNumber: done.phoneNumber, twilioSid: done.twilioSid, vapiPhoneNumberId: done.vapiPhoneNumberId, attempts: done.attempts }, 'bought a number at Twilio');
    return (await store.phoneNumbers.get(agencyId, done.phoneNumber))!;
  }

  return {
    carrierOf: async (agencyId) => ((await twilioCredential(agencyId)) ? 'twilio' : 'sandbox'),
    async search(agencyId, q) {
      const cred = await twilioCredential(agencyId);
      if (!cred) {
        const found = await sandbox.available(q);
        return { carrier: 'sandbox', numbers: found.map((n) => ({ phoneNumber: n.phoneNumber, countryCode: n.country, tollFree: n.tollFree, locality: null, region: null })) };
      }
      const search = searchOf(q, q.limit);
      let offers;
      try {
        offers = await twilioOf(cred).search(search);
      } catch (err) {
        throw purchaseFailure(err, { step: 'search', what: describeSearch(search), listing: true });
      }
      return {
        carrier: 'twilio',
        numbers: offers.map((n) => ({
          phoneNumber: n.phoneNumber,
          countryCode: n.isoCountry ?? countryOfNumber(n.phoneNumber) ?? search.countryCode,
          tollFree: search.tollFree,
          locality: n.locality,
          region: n.region,
        })),
      };
    },
    async buy(agencyId, idempotencyKey, body, campaignName) {
      const nickname = body.nickname ?? campaignName;
      const cred = await twilioCredential(agencyId);
      return cred ? buyFromTwilio(agencyId, cred, idempotencyKey, body, nickname) : buyFromSandbox(agencyId, idempotencyKey, body, nickname);
    },
  };
}
