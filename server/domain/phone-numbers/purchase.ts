/**
 * Buying a number at Twilio, never twice. Twilio takes no idempotency key, so the purchase is
 * recorded before Twilio is asked (store/number-purchases.ts) and each step that took effect is
 * recorded after it; a request that finds the purchase unfinished resumes it where it stopped,
 * asking the vendor first wherever an earlier answer was lost:
 *
 *   search (or the client's number) → record 'buying' → POST IncomingPhoneNumbers → 'bought' (the
 *   agency's number, with its SID) → [Vapi: 'importing' → POST /phone-number → 'imported']
 *   → on the campaign, 'done'.
 *
 * The route's Idempotency-Key is the purchase's key; the idempotency guard lets one request at a
 * time work on a key, so two requests never act on the same purchase at once.
 */
import { CredentialRejectedError, PermanentPortError } from '../../../engine/ports.js';
import { pickAvailable } from '../../adapters/twilio/number-resources.js';
import type { TwilioIncomingNumber, TwilioNumbers } from '../../adapters/twilio/numbers.js';
import type { VapiNumbers } from '../../adapters/vapi/numbers.js';
import { DomainError } from '../errors.js';
import type { NumberPurchase, NumberPurchasesRepository } from '../../store/index.js';
import { chosenNumberProblem, describeSearch, nextStep, searchOf, type NumberAsk } from './ask.js';
import { purchaseFailure, type PurchaseStage } from './failures.js';

export interface TwilioPurchase {
  agencyId: string;
  /** the request's Idempotency-Key (or one made for it): one purchase per key */
  key: string;
  /** canonical JSON of the request body: a different request under the same key is refused */
  request: string;
  campaignId: string;
  /** the number's name at Twilio and Vapi */
  nickname: string;
  ask: NumberAsk;
}

export interface TwilioPurchaseDeps {
  purchases: NumberPurchasesRepository;
  twilio: TwilioNumbers;
  /** set when the agency places calls through Vapi: the bought number is imported there */
  vapi: { numbers: VapiNumbers; twilioAccountSid: string; twilioAuthToken: string } | null;
  /** puts the number on the campaign and marks the purchase done, in one transaction */
  assign(p: NumberPurchase): Promise<void>;
  /** offers one search asks Twilio for */
  searchLimit?: number;
}

/** At most one pass through each step; a step that does not move the purchase on is a bug, not a loop. */
const MAX_STEPS = 6;

/** Runs (or resumes) the purchase to its end; answers the finished purchase, or throws an DomainError saying what is left. */
export async function buyAtTwilio(d: TwilioPurchaseDeps, r: TwilioPurchase): Promise<NumberPurchase> {
  let p = await d.purchases.get(r.agencyId, r.key);
  if (p && p.request !== r.request) {
    throw new DomainError('CONFLICT', `Idempotency-Key ${r.key} belongs to the purchase of ${p.phoneNumber}, made with another request; send that request again to finish it, or use a new key`, {
      detailCode: 'IdempotencyKeyReused',
    });
  }
  for (let i = 0; i < MAX_STEPS; i++) {
    const step = nextStep(p, d.vapi !== null);
    if (step === 'answer') return p!;
    if (step === 'start') p = await start(d, r);
    else if (step === 'check-then-buy') p = await resumeBuy(d, r);
    else if (step === 'import' || step === 'check-then-import') p = await importIntoVapi(d, r, p!, step === 'check-then-import');
    else {
      await d.assign(p!);
      p = (await d.purchases.get(r.agencyId, r.key))!;
    }
  }
  throw new Error(`purchase ${r.key} did not finish in ${MAX_STEPS} steps (state ${p?.state})`);
}

async function start(d: TwilioPurchaseDeps, r: TwilioPurchase): Promise<NumberPurchase> {
  const problem = chosenNumberProblem(r.ask);
  if (problem) throw new DomainError('CONFLICT', `${problem}; nothing was bought`, { detailCode: 'NumberUnavailable' });
  let phoneNumber = r.ask.phoneNumber;
  if (!phoneNumber) {
    const search = searchOf(r.ask, d.searchLimit ?? 20);
    const what = describeSearch(search);
    let offer;
    try {
      offer = pickAvailable(await d.twilio.search(search));
    } catch (err) {
      throw purchaseFailure(err, { step: 'search', what });
    }
    if (!offer) throw new DomainError('CONFLICT', `no number available at Twilio for ${what}; nothing was bought`, { detailCode: 'NumberUnavailable' });
    phoneNumber = offer.phoneNumber;
  }
  const p = await d.purchases.begin({ agencyId: r.agencyId, key: r.key, request: r.request, campaignId: r.campaignId, phoneNumber });
  return buy(d, r, p, false);
}

/** An earlier request recorded the intent and never learnt the outcome: ask Twilio before buying. */
async function resumeBuy(d: TwilioPurchaseDeps, r: TwilioPurchase): Promise<NumberPurchase> {
  const p = await d.purchases.resumed(r.agencyId, r.key);
  const owned = await ownedAtTwilio(d, r, p);
  return owned ? bought(d, r, owned) : buy(d, r, p, true);
}

async function buy(d: TwilioPurchaseDeps, r: TwilioPurchase, p: NumberPurchase, afterUnknown: boolean): Promise<NumberPurchase> {
  const at: PurchaseStage = { step: 'buy', phoneNumber: p.phoneNumber, resumeKey: r.key };
  try {
    return bought(d, r, await d.twilio.buy(p.phoneNumber, r.nickname));
  } catch (err) {
    // A definite refusal bought nothing now; after an unknown outcome it may be Twilio refusing to
    // sell what the earlier attempt did buy (the lookup ran before that purchase showed): look once more.
    if (err instanceof PermanentPortError) {
      const owned = afterUnknown ? await ownedAtTwilio(d, r, p) : null;
      if (owned) return bought(d, r, owned);
      await d.purchases.abandon(r.agencyId, r.key);
    }
    // Anything else (timeout, 5xx, a dropped connection, 429) leaves the intent 'buying': the next
    // request with this key asks Twilio first.
    throw purchaseFailure(err, at);
  }
}

async function ownedAtTwilio(d: TwilioPurchaseDeps, r: TwilioPurchase, p: NumberPurchase): Promise<TwilioIncomingNumber | null> {
  try {
    return await d.twilio.find(p.phoneNumber);
  } catch (err) {
    throw purchaseFailure(err, { step: 'check', phoneNumber: p.phoneNumber, resumeKey: r.key });
  }
}

const bought = (d: TwilioPurchaseDeps, r: TwilioPurchase, n: TwilioIncomingNumber) =>
  d.purchases.bought({ agencyId: r.agencyId, key: r.key, phoneNumber: n.phoneNumber, twilioSid: n.sid, nickname: r.nickname });

async function importIntoVapi(d: TwilioPurchaseDeps, r: TwilioPurchase, p: NumberPurchase, afterUnknown: boolean): Promise<NumberPurchase> {
  const v = d.vapi!;
  const at: PurchaseStage = { step: 'import', phoneNumber: p.phoneNumber, resumeKey: r.key };
  const find = async () => {
    try {
      return (await v.numbers.findTwilio(p.phoneNumber, v.twilioAccountSid))?.id ?? null;
    } catch (err) {
      throw purchaseFailure(err, at);
    }
  };
  const imported = (vapiId: string) => d.purchases.imported({ agencyId: r.agencyId, key: r.key, phoneNumber: p.phoneNumber, vapiId });
  const earlier = afterUnknown ? await find() : null;
  if (earlier) return imported(earlier);
  if (p.state === 'bought') await d.purchases.importing(r.agencyId, r.key);
  try {
    const made = await v.numbers.importTwilio({ number: p.phoneNumber, twilioAccountSid: v.twilioAccountSid, twilioAuthToken: v.twilioAuthToken, name: r.nickname });
    return imported(made.id);
  } catch (err) {
    if (err instanceof PermanentPortError) {
      // Vapi refuses a number it has already: imported by an earlier attempt whose answer was lost,
      // or by the agency itself. Either way it is this account's number there: take its id.
      const found = err instanceof CredentialRejectedError ? null : await find();
      if (found) return imported(found);
      await d.purchases.importRefused(r.agencyId, r.key);
    }
    throw purchaseFailure(err, at);
  }
}
