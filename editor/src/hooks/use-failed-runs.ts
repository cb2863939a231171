import { useCallback, useEffect, useState } from 'react';
import { failedRunsApi } from '../api/endpoints';
import type { FailedRun, RetryResult } from '../api/types';

/**
 * The failed-runs view's state: the agency's failed runs (read when the page opens and on
 * Refresh), which are selected, and the answer per run of the last bulk retry.
 */
export function useFailedRuns() {
  const [runs, setRuns] = useState<FailedRun[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [results, setResults] = useState<Record<string, RetryResult>>({});
  const [retrying, setRetrying] = useState(false);
  const load = useCallback(() => {
    setError(null);
    failedRunsApi.list().then(
      (list) => {
        setRuns(list);
        // Runs no longer listed (retried meanwhile) cannot stay selected.
        setSelected((sel) => new Set([...sel].filter((id) => list.some((r) => r.id === id))));
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  useEffect(load, [load]);
  const toggle = (id: string) =>
    setSelected((sel) => {
      const next = new Set(sel);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected((sel) => (runs && sel.size < runs.length ? new Set(runs.map((r) => r.id)) : new Set()));
  const retry = async () => {
    if (selected.size === 0) return;
    setRetrying(true);
    setError(null);
    try {
      const answers = await failedRunsApi.retry([...selected]);
      setResults((r) => ({ ...r, ...Object.fromEntries(answers.map((a) => [a.executionId, a])) }));
      setSelected(new Set());
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setRetrying(false);
    }
  };
  return { runs, error, selected, results, retrying, load, toggle, toggleAll, retry };
}
