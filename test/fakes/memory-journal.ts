import type { EffectJournal, JournalEntry } from '../../engine/ports.js';

/**
 * An EffectJournal in memory, with the port's semantics: `begin` marks an attempt pending (the first
 * attempt's start is kept, so a lookup covers every attempt), `complete` records the result,
 * `abandon` forgets the key. The store-backed journal the server wires behaves the same.
 */
export function memoryJournal(): EffectJournal & { entries: Map<string, JournalEntry> } {
  const entries = new Map<string, JournalEntry>();
  const id = (agencyId: string, key: string) => `${agencyId}\u0000${key}`;
  return {
    entries,
    async lookup(agencyId, key) {
      return entries.get(id(agencyId, key)) ?? null;
    },
    async begin(agencyId, key) {
      const prev = entries.get(id(agencyId, key));
      if (prev?.state === 'done') throw new Error(`journal: ${key} is already done`);
      entries.set(id(agencyId, key), { state: 'pending', startedAt: prev?.startedAt ?? new Date().toISOString(), attempts: (prev?.attempts ?? 0) + 1 });
    },
    async complete(agencyId, key, _kind, result) {
      entries.set(id(agencyId, key), { state: 'done', result });
    },
    async abandon(agencyId, key) {
      entries.delete(id(agencyId, key));
    },
  };
}
