import type { Store } from '../store/index.js';

/**
 * Exactly-once effects of the embedded adapters: in one transaction, the result recorded under the
 * idempotency key, or the effect performed (on the transaction's repositories) and its result
 * recorded. A retried activity thus finds its first attempt's result instead of tagging or texting
 * twice; an effect that throws records nothing and changes nothing.
 */
export function effectOnce<T>(store: Store, e: { agencyId: string; idempotencyKey: string }, kind: string, perform: (tx: Store) => Promise<T>): Promise<T> {
  return store.withTransaction(async (tx) => {
    const prior = await tx.effects.result(e.agencyId, e.idempotencyKey);
    if (prior) return prior.value as T;
    const result = await perform(tx);
    await tx.effects.record(e.agencyId, e.idempotencyKey, kind, result);
    return result;
  });
}
