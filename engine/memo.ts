/**
 * A pure function's answers, kept for the inputs seen last: for answers that cost a parse or an
 * `Intl` object to compute and never change for their input, so keeping them cannot change a
 * result (workflow code included). Bounded, because inputs come from outside: at `limit` answers
 * the oldest goes.
 */
export function memoize<K, V>(fn: (key: K) => V, limit: number): (key: K) => V {
  const answers = new Map<K, V>();
  return (key) => {
    if (answers.has(key)) return answers.get(key)!;
    const value = fn(key);
    if (answers.size >= limit) answers.delete(answers.keys().next().value!);
    answers.set(key, value);
    return value;
  };
}
