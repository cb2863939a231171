/**
 * NANP area code of a phone number: the three digits after the country code 1 of an E.164
 * number (+1 512 555 0100 -> "512"), also read from a bare 10-digit or 11-digit national form.
 * Null for anything else.
 */
export function areaCode(phone: string | null | undefined): string | null {
  if (typeof phone !== 'string') return null;
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[\s().-]/g, '');
  let match = /^\+1(\d{10})$/.exec(digits);
  if (!match && !trimmed.startsWith('+')) match = /^1?(\d{10})$/.exec(digits);
  const national = match?.[1];
  // NANP area codes start with 2-9.
  return national && /^[2-9]/.test(national) ? national.slice(0, 3) : null;
}

/**
 * The caller ID to call a lead from: the first number of the pool sharing the lead's area code
 * (a local number is answered more often), else the pool's first number; null for an empty pool.
 * Deterministic: the same pool and lead always give the same number.
 */
export function chooseCallerId(fromNumbers: readonly string[] | null | undefined, leadPhone: string | null | undefined): string | null {
  const pool = (fromNumbers ?? []).filter((n): n is string => typeof n === 'string' && n.trim() !== '');
  if (pool.length === 0) return null;
  const leadArea = areaCode(leadPhone);
  if (leadArea) {
    const local = pool.find((n) => n.trim().startsWith('+1') && areaCode(n) === leadArea);
    if (local) return local;
  }
  return pool[0] ?? null;
}
