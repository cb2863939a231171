import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError } from '../../engine/ports.js';
import { AppError } from '../http/errors.js';
import type { Response } from '../http/route.js';
import { ErrorBody } from '../../schemas/common.js';

/**
 * What an API caller is told when a vendor call made on its behalf fails: a refused credential is
 * a conflict with the project's state (it is now disconnected), a vendor that is slow, down or
 * rate-limiting us is a 503 with Retry-After (never our own 429, which means the caller's quota),
 * and a definite refusal keeps the vendor's words.
 */
export function vendorFailure(err: unknown, what: string): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof CredentialRejectedError) return new AppError('CONFLICT', `${what}: the CRM refused the project's credential; reconnect the project (${err.message})`, { detailCode: 'Disconnected' });
  if (err instanceof RateLimitedError) {
    return new AppError('UNAVAILABLE', `${what}: ${err.vendor} asks us to slow down; retry in ${Math.ceil(err.retryAfterMs / 1000)} s`, { headers: { 'Retry-After': String(Math.ceil(err.retryAfterMs / 1000)) } });
  }
  if (err instanceof PermanentPortError) return new AppError('CONFLICT', `${what}: ${err.message}`, { detailCode: 'VendorRefused' });
  if (err instanceof VendorTimeoutError) return new AppError('UNAVAILABLE', `${what}: ${err.vendor} did not answer in time; retry shortly`, { headers: { 'Retry-After': '5' } });
  return new AppError('UNAVAILABLE', `${what}: the vendor could not be reached; retry shortly`, { headers: { 'Retry-After': '5' } });
}

/** The 503 of `vendorFailure`, as an operation that waits on a vendor declares it. */
export const VENDOR_UNAVAILABLE: Response = {
  description:
    'the vendor did not answer in time, could not be reached, or asked us to slow down: nothing was stored; send the same request again after Retry-After seconds',
  headers: {
    'Retry-After': { description: 'seconds to wait before sending the request again (the vendor\'s own wait when it gave one, else 5)', required: true, schema: { type: 'integer', minimum: 0 } },
  },
  schema: ErrorBody,
};
