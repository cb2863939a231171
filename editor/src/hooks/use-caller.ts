import { useEffect, useState } from 'react';
import { whoAmI, type Caller } from '../api/caller';

/** What the signed-in key may use (api/caller.ts); null until known, or when it could not be learned. */
export function useCaller(): Caller | null {
  const [caller, setCaller] = useState<Caller | null>(null);
  useEffect(() => {
    let live = true;
    whoAmI().then(
      (c) => live && setCaller(c),
      () => live && setCaller(null),
    );
    return () => {
      live = false;
    };
  }, []);
  return caller;
}
