import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError } from '../../engine/ports.js';
import { DomainError, conflict, unavailable } from '../domain/errors.js';

/**
 * What an API caller is told when a vendor call made on its behalf fails: a refused credential is
 * a conflict with the project's state (it is now disconnected), a vendor that is slow, down or
 * rate-limiting us is a 503 with Retry-After (never our own 429, which means the caller's quota),
 * and a definite refusal keeps the vendor's words.
 */
export function vendorFailure(err: unknown, what: string): DomainError {
  if (err instanceof DomainError) return err;
  if (err instanceof CredentialRejectedError) return conflict(`${what}: the CRM refused the project's credential; reconnect the project (${err.message})`, 'Disconnected');
  if (err instanceof RateLimitedError) {
    const wait = Math.ceil(err.retryAfterMs / 1000);
    return unavailable(`${what}: ${err.vendor} asks us to slow down; retry in ${wait} s`, wait);
  }
  if (err instanceof PermanentPortError) return conflict(`${what}: ${err.message}`, 'VendorRefused');
  if (err instanceof VendorTimeoutError) return unavailable(`${what}: ${err.vendor} did not answer in time; retry shortly`, 5);
  return unavailable(`${what}: the vendor could not be reached; retry shortly`, 5);
}
