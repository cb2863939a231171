/**
 * Derived ids: `<prefix><k>` counting up from the highest `<prefix><k>` already in use, skipping
 * any id that is taken whatever its form. Deterministic (no clock, no randomness), never reused
 * within a graph, never built from source/target (those collide on multi-handle nodes).
 */
export function idAllocator(prefix: string, existing: Iterable<string>): () => string {
  const taken = new Set(existing);
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)$`);
  let k = 0;
  for (const id of taken) {
    const m = pattern.exec(id);
    if (!m) continue;
    const n = Number(m[1]);
    if (Number.isSafeInteger(n) && n > k) k = n;
  }
  return () => {
    let id: string;
    do id = `${prefix}${++k}`;
    while (taken.has(id));
    taken.add(id);
    return id;
  };
}
