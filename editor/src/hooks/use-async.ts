import { useEffect, useState, type DependencyList } from 'react';

export type Async<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'error'; error: Error };

/** Runs a promise-returning function when its dependencies change; the latest result wins. */
export function useAsync<T>(fn: () => Promise<T>, deps: DependencyList): Async<T> {
  const [result, setResult] = useState<Async<T>>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    setResult({ state: 'loading' });
    fn().then(
      (value) => live && setResult({ state: 'done', value }),
      (error: Error) => live && setResult({ state: 'error', error }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return result;
}
