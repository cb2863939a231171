/** Pure reading of Twilio's AvailablePhoneNumber and IncomingPhoneNumber resources (2010-04-01 API). */
import { sameNumber } from './messages.js';

/** A number Twilio offers for purchase (`available_phone_numbers[]` of a Local or TollFree search). */
export interface TwilioAvailableNumber {
  phoneNumber: string;
  friendlyName: string | null;
  isoCountry: string | null;
  locality: string | null;
  region: string | null;
  /** `none`, `any`, `local` or `foreign`: an address the account must hold before buying it */
  addressRequirements: string | null;
  voice: boolean;
  sms: boolean;
}

/** A number the account owns (`incoming_phone_numbers[]`, or the answer of a purchase). */
export interface TwilioIncomingNumber {
  sid: string;
  phoneNumber: string;
  friendlyName: string | null;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const list = (raw: unknown, key: string): unknown[] => {
  const v = obj(raw)[key];
  return Array.isArray(v) ? v : [];
};

export function toAvailableNumbers(raw: unknown): TwilioAvailableNumber[] {
  return list(raw, 'available_phone_numbers').flatMap((item) => {
    const n = obj(item);
    const phoneNumber = str(n.phone_number);
    if (!phoneNumber) return [];
    const caps = obj(n.capabilities);
    return [{
      phoneNumber,
      friendlyName: str(n.friendly_name),
      isoCountry: str(n.iso_country),
      locality: str(n.locality),
      region: str(n.region),
      addressRequirements: str(n.address_requirements),
      // Twilio spells the capability keys in either case (`sms`, `SMS`) depending on the resource.
      voice: caps.voice === true || caps.Voice === true,
      sms: caps.sms === true || caps.SMS === true,
    }];
  });
}

export function toIncomingNumber(raw: unknown): TwilioIncomingNumber | null {
  const n = obj(raw);
  const sid = str(n.sid);
  const phoneNumber = str(n.phone_number);
  return sid && phoneNumber ? { sid, phoneNumber, friendlyName: str(n.friendly_name) } : null;
}

/**
 * The account's number that is exactly `phoneNumber`: Twilio's `PhoneNumber` filter matches a
 * pattern (any number containing the digits), so the list is checked digit for digit.
 */
export function ownedNumberIn(raw: unknown, phoneNumber: string): TwilioIncomingNumber | null {
  for (const item of list(raw, 'incoming_phone_numbers')) {
    const n = toIncomingNumber(item);
    if (n && sameNumber(n.phoneNumber, phoneNumber)) return n;
  }
  return null;
}

/**
 * Which offered number a purchase takes when the client chose none: the first that needs no
 * address on file (the product sends none, so Twilio would refuse the others), else the first.
 */
export function pickAvailable(numbers: readonly TwilioAvailableNumber[]): TwilioAvailableNumber | null {
  return numbers.find((n) => n.addressRequirements === null || n.addressRequirements === 'none') ?? numbers[0] ?? null;
}
