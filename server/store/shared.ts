/**
 * What every implementation of the store computes the same way, so a record written by one reads
 * the same through another: the stored hash of an API key's secret, and the text a lead search
 * matches. Pure functions; no SQL.
 */
import { createHash } from 'node:crypto';
import type { LeadRecord } from './records.js';

/**
 * Keys carry 32 random bytes, so a plain SHA-256 is a sufficient one-way store: there is nothing
 * to brute-force that a slow KDF would protect.
 */
export const hashKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The text `search` matches: names, email and phone (also its bare digits), lowercased. */
export function searchText(l: Pick<LeadRecord, 'firstName' | 'fullName' | 'email' | 'phone'>): string {
  return [l.firstName, l.fullName, l.email, l.phone, l.phone.replace(/\D/g, '')].join(' ').toLowerCase();
}
