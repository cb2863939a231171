import type { EffectJournal, JournalEntry } from '../../engine/ports.js';

/**
 * An in-memory EffectJournal with the store's semantics (a `begin` on a pending entry keeps its
 * first startedAt and counts the attempt), and a log of calls so tests can assert what happened.
 */
export function memoryJournal(now: () => Date = () => new Date()) {
  const entries = new Map<string, JournalEntry & { kind?: string }>();
  const calls: string[] = [];
  const id = (agencyId: string, key: string) => `${agencyId}\u0000${key}`;
  const journal: EffectJournal = {
    async lookup(agencyId, key) {
      calls.push(`lookup ${key}`);
      const e = entries.get(id(agencyId, key));
      return e ? structuredClone(e) : null;
    },
    async begin(agencyId, key, kind) {
      calls.push(`begin ${key}`);
      const prior = entries.get(id(agencyId, key));
      if (prior?.state === 'pending') entries.set(id(agencyId, key), { ...prior, attempts: prior.attempts + 1 });
      else entries.set(id(agencyId, key), { state: 'pending', startedAt: now().toISOString(), attempts: 1, kind });
    },
    async complete(agencyId, key, kind, result) {
      calls.push(`complete ${key}`);
      entries.set(id(agencyId, key), { state: 'done', result: structuredClone(result), kind });
    },
    async abandon(agencyId, key) {
      calls.push(`abandon ${key}`);
      entries.delete(id(agencyId, key));
    },
  };
  return {
    journal,
    calls,
    entry: (agencyId: string, key: string) => entries.get(id(agencyId, key)) ?? null,
    /** plants an entry as a crashed or timed-out earlier attempt would have left it */
    seed: (agencyId: string, key: string, entry: JournalEntry) => entries.set(id(agencyId, key), entry),
  };
}
export type MemoryJournal = ReturnType<typeof memoryJournal>;
