import { useState } from 'react';

/**
 * One write a form or button makes: whether it is under way, its answer, or why it was refused.
 * The answer stays in this component's state only (a secret in it is gone with `reset` or when
 * the component goes).
 */
export function useAction<A extends unknown[], T>(fn: (...args: A) => Promise<T>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [result, setResult] = useState<T | null>(null);
  const run = async (...args: A): Promise<T | null> => {
    setBusy(true);
    setError(null);
    try {
      const value = await fn(...args);
      setResult(value);
      return value;
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      return null;
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    setResult(null);
    setError(null);
  };
  return { busy, error, result, run, reset };
}
