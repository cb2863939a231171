import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from './errors.js';

/**
 * Our signature scheme for the events we receive (call and contact events) and send (failure
 * alerts, the sandbox voice platform's call ends): the scheme Stripe-style webhooks use.
 */
/** Our own webhook scheme, as the answers and the OpenAPI document name it. */
export const SIGNATURE_SCHEME = 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">';

export const SIGNATURE_HEADER = 'X-Signature';
export const AGENCY_HEADER = 'X-Agency-Id';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the scheme Stripe-style webhooks use. */
export function signPayload(secret: string, rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * Verifies `X-Signature` against each of the agency's current secrets (two during a rotation's
 * grace period); every secret is tried, so the timing says nothing about which one matched.
 */
export function verify(secrets: readonly string[], header: string, rawBody: string, toleranceSeconds: number): void {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!/^\d+$/.test(parts.t ?? '') || !Number.isSafeInteger(t) || !parts.v1) throw new DomainError('UNAUTHORIZED', `${SIGNATURE_HEADER} must be "t=<unix>,v1=<hex>"`);
  if (Math.abs(Date.now() / 1000 - t) > toleranceSeconds) {
    throw new DomainError('UNAUTHORIZED', `signature timestamp is outside the ${toleranceSeconds}s tolerance (stale or clock skew)`);
  }
  const given = Buffer.from(parts.v1);
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex'));
    if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
  }
  if (!matched) throw new DomainError('UNAUTHORIZED', 'signature does not match the body');
}

