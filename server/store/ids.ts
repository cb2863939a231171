import { randomBytes, randomUUID } from 'node:crypto';

/** Prefixed, sortable-enough random ids: the prefix tells a reader what an id names. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('base64url')}`;
}

export const uuid = () => randomUUID();

export const nowIso = () => new Date().toISOString();
