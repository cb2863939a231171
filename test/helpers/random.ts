/**
 * Deterministic pseudo-random numbers in [0, 1) (xorshift32), so a generated table or workload is
 * the same on every run: bench/lead-list.ts's million leads, test/store/lead-lists.test.ts's.
 */
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}
