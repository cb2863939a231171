/**
 * `dialablePhone` keeps recent answers (an enrolment asks twice): the answers must be the parser's,
 * first time or cached, and stay so once the bounded cache has turned over.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { dialablePhone } from '../../../server/domain/power-dialer/dialer.js';

const direct = (phone: string) => {
  const parsed = parsePhoneNumberFromString(phone, 'US');
  return parsed?.isValid() ? parsed.number : null;
};

describe('dialablePhone', () => {
  it('reads a NANP number without a country code as US, and refuses what is not dialable', () => {
    expect(dialablePhone('(512) 555-0123')).toBe('+15125550123');
    expect(dialablePhone('(012) 345-6789')).toBe(null); // no NANP area code starts with 0
    expect(dialablePhone('512 867 5309')).toBe('+15128675309');
    expect(dialablePhone('+44 20 7946 0958')).toBe('+442079460958');
    expect(dialablePhone('12')).toBe(null);
    expect(dialablePhone('')).toBe(null);
    expect(dialablePhone(undefined)).toBe(null);
  });

  it('answers as the parser does, asked once, twice, and after 3,000 other numbers', () => {
    const phones = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? `512${String(2_000_000 + i * 7).padStart(7, '0')}` : i % 3 === 1 ? `+1 (415) ${String(1000 + i).slice(-3)}-${String(i).padStart(4, '0')}` : `0${i}`));
    for (const p of phones) expect(dialablePhone(p)).toBe(direct(p));
    for (const p of phones) expect(dialablePhone(p)).toBe(direct(p));
    const valid = phones.filter((p) => direct(p) !== null).length;
    expect(valid).toBeGreaterThan(1000);
    expect(valid).toBeLessThan(3000);
  });
});
