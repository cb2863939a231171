// Verifies a delivery of this service's webhook contract (call and contact events), as a sender
// or a proxy in front of it would: Node's own crypto, no dependency.
//   npx tsx docs/examples/verify-signature.ts <secret> <X-Signature header> <raw body file> [tolerance seconds]
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The HMAC a sender puts in `X-Signature`: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export function sign(secret: string, rawBody: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex')}`;
}

/** True when the header signs this exact body with one of the secrets (old and new during a rotation) and is fresh. */
export function verify(secrets: string[], header: string, rawBody: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=', 2)));
  const t = Number(parts.t);
  if (!/^\d+$/.test(parts.t ?? '') || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return false;
  if (Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const given = Buffer.from(parts.v1, 'hex');
  return secrets.some((s) => timingSafeEqual(createHmac('sha256', s).update(`${t}.${rawBody}`).digest(), given));
}

if (process.argv[1]?.endsWith('verify-signature.ts')) {
  const [secret, header, file, tolerance] = process.argv.slice(2);
  const ok = verify([secret!], header!, readFileSync(file!, 'utf8'), tolerance ? Number(tolerance) : 300);
  console.log(ok ? 'valid' : 'invalid');
  process.exit(ok ? 0 : 1);
}
