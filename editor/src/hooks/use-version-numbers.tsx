/** The workflow's stored version numbers for a version picker (statistics, what-if), newest first. */
import { useEffect, useState } from 'react';
import { useEditor } from '../store/context';

/**
 * Read when `enabled` and again after each save. The list is a convenience: when it cannot be read,
 * the current version alone is offered.
 */
export function useVersionNumbers(enabled = true): { numbers: number[]; current: number } {
  const api = useEditor((s) => s.deps.api);
  const current = useEditor((s) => s.base.version);
  const [numbers, setNumbers] = useState<number[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    api.versions().then(
      (v) => live && setNumbers(v.map((x) => x.version)),
      () => live && setNumbers([]),
    );
    return () => {
      live = false;
    };
  }, [api, enabled, current]);
  return { numbers: numbers.length > 0 ? numbers : current > 0 ? [current] : [], current };
}

/** `<option>`s for those versions, the current one marked. */
export function VersionOptions({ numbers, current }: { numbers: number[]; current: number }) {
  return (
    <>
      {numbers.map((n) => (
        <option key={n} value={n}>
          Version {n}
          {n === current ? ' (current)' : ''}
        </option>
      ))}
    </>
  );
}
