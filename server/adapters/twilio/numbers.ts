import { accountPath, twilioHttp, type TwilioAccount } from './http.js';
import { ownedNumberIn, toAvailableNumbers, toIncomingNumber, type TwilioAvailableNumber, type TwilioIncomingNumber } from './number-resources.js';

export type { TwilioAvailableNumber, TwilioIncomingNumber } from './number-resources.js';

export interface NumberSearch {
  countryCode: 'US' | 'CA';
  tollFree: boolean;
  areaCode?: number;
  /** page size asked of Twilio (1-1000) */
  limit: number;
}

/** Twilio's own error code when a number asked for by `PhoneNumber` can no longer be bought. */
export const NUMBER_NOT_AVAILABLE = 21422;

/** Toll-free prefixes: on a toll-free search an area code is passed on only when it is one of these. */
export const TOLL_FREE_PREFIXES: readonly number[] = [800, 833, 844, 855, 866, 877, 888];

export interface TwilioNumbers {
  /** `GET …/AvailablePhoneNumbers/{US|CA}/Local.json` (or `TollFree.json`), voice-capable numbers only */
  search(q: NumberSearch): Promise<TwilioAvailableNumber[]>;
  /** `POST …/IncomingPhoneNumbers.json` with `PhoneNumber`: buys exactly that number (Twilio bills the account) */
  buy(phoneNumber: string, friendlyName?: string): Promise<TwilioIncomingNumber>;
  /** `GET …/IncomingPhoneNumbers.json?PhoneNumber=`: the account's number, if it owns it */
  find(phoneNumber: string): Promise<TwilioIncomingNumber | null>;
}

/** The query of a number search, as Twilio's document names its parameters. */
export function searchQuery(q: NumberSearch): Record<string, string | number | boolean | undefined> {
  const areaCode = q.areaCode !== undefined && (!q.tollFree || TOLL_FREE_PREFIXES.includes(q.areaCode)) ? q.areaCode : undefined;
  // A caller ID must place calls; numbers that cannot are of no use to a campaign.
  return { AreaCode: areaCode, VoiceEnabled: true, PageSize: q.limit };
}

/**
 * Twilio's phone-number resources for one account: searching what can be bought, buying one, and
 * finding one the account already owns (how an unknown purchase outcome is settled: Twilio takes
 * no idempotency key). Errors are vendor-http's: a refusal keeps Twilio's message and code.
 */
export function twilioNumbers(a: TwilioAccount): TwilioNumbers {
  const http = twilioHttp(a);
  const root = accountPath(a.accountSid);
  return {
    async search(q) {
      const path = `${root}/AvailablePhoneNumbers/${q.countryCode}/${q.tollFree ? 'TollFree' : 'Local'}.json`;
      return toAvailableNumbers(await http.request({ method: 'GET', path, query: searchQuery(q) }));
    },
    async buy(phoneNumber, friendlyName) {
      const raw = await http.request({
        method: 'POST',
        path: `${root}/IncomingPhoneNumbers.json`,
        form: { PhoneNumber: phoneNumber, FriendlyName: friendlyName?.slice(0, 64) || undefined },
      });
      const bought = toIncomingNumber(raw);
      // Twilio answered 2xx, so it bought something; without a sid we cannot say what: unknown outcome.
      if (!bought) throw new Error('twilio POST IncomingPhoneNumbers.json answered without a number sid');
      return bought;
    },
    async find(phoneNumber) {
      return ownedNumberIn(await http.request({ method: 'GET', path: `${root}/IncomingPhoneNumbers.json`, query: { PhoneNumber: phoneNumber, PageSize: 50 } }), phoneNumber);
    },
  };
}
