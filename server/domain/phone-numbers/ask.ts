/**
 * What a purchase asks for, and what a purchase at a real carrier does next: pure, no I/O. The
 * procedure (purchase.ts) acts on these answers; the tests pin them without a vendor.
 */
import { parsePhoneNumberWithError } from 'libphonenumber-js';
import { TOLL_FREE_PREFIXES, type NumberSearch } from '../../adapters/twilio/numbers.js';
import type { NumberPurchase } from '../../store/index.js';

export type CountryCode = 'US' | 'CA';

/** The body of a purchase (spec 4.5) without the campaign. */
export interface NumberAsk {
  areaCode?: number;
  countryCode?: CountryCode;
  tollFree?: boolean;
  /** the specific number chosen from a search */
  phoneNumber?: string;
}

/** US or CA, by libphonenumber's numbering plan; null for anything else or what does not parse. */
export function countryOfNumber(e164: string): CountryCode | null {
  try {
    const country = parsePhoneNumberWithError(e164).country;
    return country === 'US' || country === 'CA' ? country : null;
  } catch {
    return null;
  }
}

/** The country of a North American area code (416 is CA, 512 is US), or null. */
export const countryOfAreaCode = (areaCode: number): CountryCode | null => countryOfNumber(`+1${areaCode}2345678`);

/**
 * The search a purchase without a chosen number makes: the country asked for, else the area
 * code's, else US (Twilio searches one country at a time). On a toll-free search an area code is
 * kept only when it is a toll-free prefix (888), as the sandbox ignores it there too.
 */
export function searchOf(ask: NumberAsk, limit: number): NumberSearch {
  const tollFree = ask.tollFree === true;
  const areaCode = ask.areaCode !== undefined && (!tollFree || TOLL_FREE_PREFIXES.includes(ask.areaCode)) ? ask.areaCode : undefined;
  const countryCode = ask.countryCode ?? (areaCode !== undefined && !tollFree ? countryOfAreaCode(areaCode) : null) ?? 'US';
  return { countryCode, tollFree, ...(areaCode !== undefined && { areaCode }), limit };
}

/** "area code 512 in US", "toll-free numbers (888) in US", "local numbers in CA": what a 409 names. */
export function describeSearch(s: NumberSearch): string {
  if (s.tollFree) return `toll-free numbers${s.areaCode !== undefined ? ` (${s.areaCode})` : ''} in ${s.countryCode}`;
  return s.areaCode !== undefined ? `area code ${s.areaCode} in ${s.countryCode}` : `local numbers in ${s.countryCode}`;
}

/** Why a chosen number cannot be what was asked (another country than `countryCode`), or null. */
export function chosenNumberProblem(ask: NumberAsk): string | null {
  if (!ask.phoneNumber || !ask.countryCode) return null;
  return countryOfNumber(ask.phoneNumber) === ask.countryCode ? null : `${ask.phoneNumber} is not a ${ask.countryCode} number`;
}

/**
 * The next step of a purchase at Twilio, from what is recorded of it:
 * - `start`: nothing recorded: choose the number (the client's, or the first of a search), record
 *   the intent, buy;
 * - `check-then-buy`: an earlier request may have bought it (its answer was lost, or it crashed):
 *   ask Twilio whether the account owns the number, and buy only if it does not;
 * - `import` / `check-then-import`: the same two for Vapi, when the agency calls through Vapi;
 * - `assign`: put it on the campaign; `answer`: it is done, answer with the number.
 */
export type PurchaseStep = 'start' | 'check-then-buy' | 'import' | 'check-then-import' | 'assign' | 'answer';

export function nextStep(p: Pick<NumberPurchase, 'state'> | undefined, importIntoVapi: boolean): PurchaseStep {
  if (!p) return 'start';
  switch (p.state) {
    case 'buying':
      return 'check-then-buy';
    case 'bought':
      return importIntoVapi ? 'import' : 'assign';
    case 'importing':
      return importIntoVapi ? 'check-then-import' : 'assign';
    case 'imported':
      return 'assign';
    case 'done':
      return 'answer';
  }
}
