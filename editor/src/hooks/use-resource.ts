import { useEffect, useRef, useState, type DependencyList } from 'react';
import type { Async } from './use-async';

/**
 * Like useAsync, with `reload`, which reads again (after a write, or on Retry) while the value
 * read before stays shown; a change of the dependencies starts from "loading" again.
 */
export function useResource<T>(fn: () => Promise<T>, deps: DependencyList): Async<T> & { reload(): void } {
  const [rev, setRev] = useState(0);
  const [result, setResult] = useState<Async<T>>({ state: 'loading' });
  const depsKey = useRef<DependencyList | null>(null);
  useEffect(() => {
    let live = true;
    const changed = !depsKey.current || depsKey.current.length !== deps.length || deps.some((d, i) => !Object.is(d, depsKey.current![i]));
    depsKey.current = deps;
    if (changed) setResult({ state: 'loading' });
    fn().then(
      (value) => live && setResult({ state: 'done', value }),
      (error: Error) => live && setResult({ state: 'error', error }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, rev]);
  return { ...result, reload: () => setRev((r) => r + 1) };
}
