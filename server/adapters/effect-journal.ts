import { PermanentPortError, RateLimitedError, type EffectJournal } from '../../engine/ports.js';

export interface JournalScope {
  agencyId: string;
  /** the effect's idempotency key (`<workflowId>:<nodeId>`) */
  key: string;
  /** what the effect is (`note`, `sms`, `appointment`), recorded with it */
  kind: string;
}

export interface PendingAttempt {
  /** when the first attempt whose outcome is unknown began: the effect, if it happened, is newer */
  startedAt: string;
  attempts: number;
}

export interface JournaledEffect<T> {
  perform: () => Promise<T>;
  /**
   * Asks the vendor whether an earlier attempt's effect already happened (a note with this body, a
   * message to this number) and returns its result, or null. Absent where the vendor offers no way
   * to look: then an unknown outcome is retried, at least once rather than exactly once.
   */
  findExisting?: (pending: PendingAttempt) => Promise<T | null>;
}

/**
 * Exactly-once for a vendor effect that the vendor does not make idempotent. A recorded result is
 * returned as is; an attempt whose outcome is unknown (timeout, 5xx, crash) is looked for at the
 * vendor before acting again; a definite refusal clears the entry so a later attempt starts afresh.
 */
export async function journaled<T>(journal: EffectJournal, scope: JournalScope, effect: JournaledEffect<T>): Promise<T> {
  const { agencyId, key, kind } = scope;
  const entry = await journal.lookup(agencyId, key);
  if (entry?.state === 'done') return entry.result as T;
  if (entry?.state === 'pending' && effect.findExisting) {
    // An error here (the vendor is down, the token was revoked) leaves the entry pending: the
    // earlier attempt's outcome is still unknown, so nothing may be abandoned on its behalf.
    const found = await effect.findExisting({ startedAt: entry.startedAt, attempts: entry.attempts });
    if (found !== null) {
      await journal.complete(agencyId, key, kind, found);
      return found;
    }
  }
  await journal.begin(agencyId, key, kind);
  let result: T;
  try {
    result = await effect.perform();
  } catch (err) {
    if (isDefiniteRefusal(err)) await journal.abandon(agencyId, key);
    throw err;
  }
  await journal.complete(agencyId, key, kind, result);
  return result;
}

/**
 * The vendor answered and did not act: a 4xx (incl. a rejected credential) or a 429. A timeout, a
 * 5xx or a dropped connection is not one: the vendor may have acted before the answer was lost.
 */
export function isDefiniteRefusal(err: unknown): boolean {
  return err instanceof PermanentPortError || err instanceof RateLimitedError;
}
