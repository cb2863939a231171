/**
 * The pure parts of buying a number: what a purchase searches for and names in a 409, which step a
 * recorded purchase takes next, and what a vendor failure at each step tells the client.
 */
import { describe, expect, it } from 'vitest';
import { CredentialRejectedError, RateLimitedError, VendorTimeoutError } from '../../../engine/ports.js';
import { VendorRefusedError } from '../../../server/adapters/vendor-http.js';
import { chosenNumberProblem, countryOfAreaCode, describeSearch, nextStep, searchOf } from '../../../server/domain/phone-numbers/ask.js';
import { purchaseFailure } from '../../../server/domain/phone-numbers/failures.js';
import { fromDomain } from '../../../server/http/errors.js';
import type { DomainError } from '../../../server/domain/errors.js';

describe('what a purchase asks Twilio for', () => {
  it("searches the country asked for, else the area code's, else US; on toll-free only a toll-free prefix is kept", () => {
    expect(searchOf({ areaCode: 512 }, 20)).toEqual({ countryCode: 'US', tollFree: false, areaCode: 512, limit: 20 });
    expect(searchOf({ areaCode: 604 }, 20)).toEqual({ countryCode: 'CA', tollFree: false, areaCode: 604, limit: 20 });
    expect(searchOf({ areaCode: 604, countryCode: 'US' }, 5)).toEqual({ countryCode: 'US', tollFree: false, areaCode: 604, limit: 5 });
    expect(searchOf({}, 1)).toEqual({ countryCode: 'US', tollFree: false, limit: 1 });
    expect(searchOf({ countryCode: 'CA', tollFree: true, areaCode: 416 }, 1)).toEqual({ countryCode: 'CA', tollFree: true, limit: 1 });
    expect(searchOf({ tollFree: true, areaCode: 888 }, 1)).toEqual({ countryCode: 'US', tollFree: true, areaCode: 888, limit: 1 });
    expect([416, 514, 867, 212, 737].map(countryOfAreaCode)).toEqual(['CA', 'CA', 'CA', 'US', 'US']);
  });

  it('names what was asked, as a 409 says it', () => {
    expect(describeSearch(searchOf({ areaCode: 512 }, 1))).toBe('area code 512 in US');
    expect(describeSearch(searchOf({ countryCode: 'CA' }, 1))).toBe('local numbers in CA');
    expect(describeSearch(searchOf({ tollFree: true }, 1))).toBe('toll-free numbers in US');
    expect(describeSearch(searchOf({ tollFree: true, areaCode: 833 }, 1))).toBe('toll-free numbers (833) in US');
  });

  it('a chosen number must be of the country asked for', () => {
    expect(chosenNumberProblem({ phoneNumber: '+14165550100', countryCode: 'CA' })).toBeNull();
    expect(chosenNumberProblem({ phoneNumber: '+14165550100' })).toBeNull();
    expect(chosenNumberProblem({ phoneNumber: '+15125550100', countryCode: 'CA' })).toBe('+15125550100 is not a CA number');
  });
});

describe('the next step of a recorded purchase', () => {
  it('resumes from what took effect, asking the vendor first where an answer may have been lost', () => {
    const table = (['buying', 'bought', 'importing', 'imported', 'done'] as const).map((state) => [state, nextStep({ state }, true), nextStep({ state }, false)]);
    expect([['none', nextStep(undefined, true), nextStep(undefined, false)], ...table]).toEqual([
      ['none', 'start', 'start'],
      ['buying', 'check-then-buy', 'check-then-buy'],
      ['bought', 'import', 'assign'],
      ['importing', 'check-then-import', 'assign'],
      ['imported', 'assign', 'assign'],
      ['done', 'answer', 'answer'],
    ]);
  });
});

describe('what a vendor failure tells the client', () => {
  const refused = (vendor: string, code: number | null, message: string) => new VendorRefusedError(vendor, 400, message, `${vendor} → HTTP 400: ${message}`, code);
  const buy = { step: 'buy', phoneNumber: '+15125550100', resumeKey: 'k1' } as const;
  const show = (d: DomainError) => {
    const e = fromDomain(d);
    return { status: e.status, code: e.detailCode, retryAfter: e.headers['Retry-After'], message: e.message };
  };

  it('a sold number is NumberUnavailable; another refusal is VendorRefused with the vendor\'s words; nothing was bought', () => {
    expect(show(purchaseFailure(refused('twilio', 21422, 'gone'), buy))).toEqual({ status: 409, code: 'NumberUnavailable', retryAfter: undefined, message: '+15125550100 is not available at Twilio: gone; nothing was bought' });
    expect(show(purchaseFailure(refused('twilio', 21631, 'unverified account'), buy))).toMatchObject({ status: 409, code: 'VendorRefused', message: 'Twilio refused to sell +15125550100: unverified account; nothing was bought' });
    expect(show(purchaseFailure(new CredentialRejectedError('twilio', 'twilio → HTTP 401'), buy)).message).toBe("Twilio refused the agency's Twilio credentials (PUT /api/agency/credentials/twilio): twilio → HTTP 401; nothing was bought");
  });

  it('an unknown outcome is a 503 with Retry-After naming the key to resume with; a 429 waits as long as the vendor asked', () => {
    const lost = show(purchaseFailure(new VendorTimeoutError('twilio', 15000, 'no answer'), buy));
    expect(lost).toMatchObject({ status: 503, retryAfter: '5' });
    expect(lost.message).toContain('it may or may not have gone through: retry with the header Idempotency-Key: k1 in 5 s');
    expect(show(purchaseFailure(new RateLimitedError('twilio', 2500, 'slow down'), buy))).toMatchObject({ status: 503, retryAfter: '3' });
    expect(show(purchaseFailure(new Error('HTTP 502'), { step: 'search', what: 'area code 512 in US' }))).toMatchObject({ status: 503, retryAfter: '5', message: 'Twilio could not be reached to search for area code 512 in US (HTTP 502); nothing was bought; retry in 5 s' });
    expect(show(purchaseFailure(new Error('HTTP 500'), { step: 'check', phoneNumber: '+15125550100', resumeKey: 'k1' })).message).toBe(
      'an earlier attempt to buy +15125550100 may have gone through, and Twilio could not say (HTTP 500): retry with the header Idempotency-Key: k1 in 5 s; nothing is bought before Twilio answers',
    );
  });

  it('after the purchase, a Vapi failure says the number is the agency\'s already', () => {
    const at = { step: 'import', phoneNumber: '+15125550100', resumeKey: 'k1' } as const;
    expect(show(purchaseFailure(refused('vapi', null, 'bad number'), at)).message).toMatch(/^Twilio bought \+15125550100, which is now the agency's number \(not yet on the campaign\); Vapi refused to import it: bad number; fix it and retry with the header Idempotency-Key: k1, or import it at Vapi/);
    expect(show(purchaseFailure(new CredentialRejectedError('vapi', 'vapi → HTTP 401'), at)).message).toContain("Vapi refused the agency's Vapi API key (PUT /api/agency/credentials/vapi)");
    expect(show(purchaseFailure(new VendorTimeoutError('vapi', 15000, 'no answer'), at))).toMatchObject({ status: 503, retryAfter: '5' });
  });
});
