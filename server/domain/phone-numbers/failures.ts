/**
 * What the client of a purchase is told when a vendor call fails, by the step it failed at: what
 * was (or may have been) bought, and how to go on. Pure: the error and the step decide.
 */
import { CredentialRejectedError, PermanentPortError, RateLimitedError } from '../../../engine/ports.js';
import { NUMBER_NOT_AVAILABLE } from '../../adapters/twilio/numbers.js';
import { VendorRefusedError } from '../../adapters/vendor-http.js';
import { DomainError } from '../errors.js';

/** The wait a 503 asks for when the vendor named none. */
export const RETRY_AFTER_SECONDS = 5;

export type PurchaseStage =
  /** searching Twilio's numbers, for a purchase (nothing is bought yet) or for the list of offers */
  | { step: 'search'; what: string; listing?: boolean }
  /** buying `phoneNumber` at Twilio */
  | { step: 'buy'; phoneNumber: string; resumeKey: string }
  /** asking Twilio whether an earlier attempt, whose outcome is unknown, bought `phoneNumber` */
  | { step: 'check'; phoneNumber: string; resumeKey: string }
  /** importing the bought number into Vapi, or asking whether an earlier attempt did */
  | { step: 'import'; phoneNumber: string; resumeKey: string };

const vendorName = (err: unknown) => ((err as { vendor?: string }).vendor === 'vapi' ? 'Vapi' : 'Twilio');
const said = (err: Error) => (err instanceof VendorRefusedError && err.vendorMessage ? err.vendorMessage : err.message);
const unavailable = (message: string, retryAfterSeconds: number) => new DomainError('UNAVAILABLE', message, { retryAfterSeconds });

/** Numbers, SIDs and ids only: the vendor messages were already scrubbed of credentials by vendor-http. */
export function purchaseFailure(err: unknown, at: PurchaseStage): DomainError {
  if (err instanceof DomainError) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  const wait = err instanceof RateLimitedError ? Math.max(1, Math.ceil(err.retryAfterMs / 1000)) : RETRY_AFTER_SECONDS;
  const vendor = vendorName(err);
  const credentials = vendor === 'Vapi' ? "the agency's Vapi API key (PUT /api/agency/credentials/vapi)" : "the agency's Twilio credentials (PUT /api/agency/credentials/twilio)";

  if (at.step === 'search') {
    const nothing = at.listing ? '' : '; nothing was bought';
    if (err instanceof CredentialRejectedError) return new DomainError('CONFLICT', `searching for ${at.what}, Twilio refused ${credentials}: ${said(e)}${nothing}`, { detailCode: 'VendorRefused' });
    if (err instanceof PermanentPortError) return new DomainError('CONFLICT', `Twilio refused the search for ${at.what}: ${said(e)}${nothing}`, { detailCode: 'VendorRefused' });
    return unavailable(`Twilio could not be reached to search for ${at.what} (${e.message})${nothing}; retry in ${wait} s`, wait);
  }

  const resume = `retry with the header Idempotency-Key: ${at.resumeKey}`;
  if (at.step === 'buy') {
    if (err instanceof VendorRefusedError && err.vendorCode === NUMBER_NOT_AVAILABLE) {
      return new DomainError('CONFLICT', `${at.phoneNumber} is not available at Twilio: ${said(e)}; nothing was bought`, { detailCode: 'NumberUnavailable' });
    }
    if (err instanceof CredentialRejectedError) return new DomainError('CONFLICT', `Twilio refused ${credentials}: ${said(e)}; nothing was bought`, { detailCode: 'VendorRefused' });
    if (err instanceof PermanentPortError) return new DomainError('CONFLICT', `Twilio refused to sell ${at.phoneNumber}: ${said(e)}; nothing was bought`, { detailCode: 'VendorRefused' });
    if (err instanceof RateLimitedError) return unavailable(`Twilio asks us to slow down (${e.message}); ${at.phoneNumber} was not bought: ${resume} in ${wait} s`, wait);
    return unavailable(
      `the purchase of ${at.phoneNumber} at Twilio did not complete (${e.message}); it may or may not have gone through: ${resume} in ${wait} s, and Twilio is asked whether it sold the number before anything is bought again`,
      wait,
    );
  }

  if (at.step === 'check') {
    const open = `an earlier attempt to buy ${at.phoneNumber} may have gone through, and Twilio could not say`;
    if (err instanceof CredentialRejectedError) return new DomainError('CONFLICT', `${open}: it refused ${credentials} (${said(e)}); fix them and ${resume}`, { detailCode: 'VendorRefused' });
    if (err instanceof PermanentPortError) return new DomainError('CONFLICT', `${open}: ${said(e)}; ${resume} once that is fixed`, { detailCode: 'VendorRefused' });
    return unavailable(`${open} (${e.message}): ${resume} in ${wait} s; nothing is bought before Twilio answers`, wait);
  }

  const owned = `Twilio bought ${at.phoneNumber}, which is now the agency's number (not yet on the campaign)`;
  const register = `or import it at Vapi and register it (PUT /api/agent-builder/phone-numbers/${encodeURIComponent(at.phoneNumber)} with its vapiPhoneNumberId)`;
  if (err instanceof CredentialRejectedError) return new DomainError('CONFLICT', `${owned}; Vapi refused ${credentials}: ${said(e)}; fix it and ${resume}, ${register}`, { detailCode: 'VendorRefused' });
  if (err instanceof PermanentPortError) return new DomainError('CONFLICT', `${owned}; Vapi refused to import it: ${said(e)}; fix it and ${resume}, ${register}`, { detailCode: 'VendorRefused' });
  return unavailable(`${owned}; its import into Vapi did not complete (${e.message}): ${resume} in ${wait} s; nothing is bought again`, wait);
}
