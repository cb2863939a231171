import pg from 'pg';
import type { Repositories, Store } from '../../server/store/index.js';

/**
 * Races on a shared Postgres database, made deterministic: the first contender runs into its
 * transaction and stops at a gate (after a named repository call, holding whatever it locked);
 * the second then runs until it either finishes or waits on a lock (seen in pg_stat_activity);
 * then the first goes on. With the lock in place the second waits and sees the first's commit;
 * without it, the second reads what the first had not written yet: the lost update, the second
 * contact, the double booking show up every time, not by chance.
 */

/** A store whose transactions stop once, after the first call of `repo.method` returns, until released. */
export function pausing(store: Store, at: string) {
  const [repo, method] = at.split('.') as [keyof Repositories, string];
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((r) => (reach = r));
  const released = new Promise<void>((r) => (release = r));
  let paused = false;
  const wrapTx = (tx: Store): Store => {
    const original = tx[repo] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const wrapped: Store = {
      ...tx,
      [repo]: {
        ...original,
        [method]: async (...args: unknown[]) => {
          const out = await original[method]!(...args);
          if (!paused) {
            paused = true;
            reach();
            await released;
          }
          return out;
        },
      },
      withTransaction: (fn) => fn(wrapped),
    };
    return wrapped;
  };
  const wrapped: Store = { ...store, withTransaction: (fn) => store.withTransaction((tx) => fn(wrapTx(tx))) };
  return { store: wrapped, reached, release };
}

/** Watches a database's sessions for one waiting on a lock. */
export async function lockWatcher(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  return {
    /** resolves when a session of the database waits on a lock, or `settled` says there is nothing more to wait for */
    async someoneWaits(settled: () => boolean, timeoutMs = 15_000): Promise<boolean> {
      const deadline = Date.now() + timeoutMs;
      while (!settled()) {
        const { rows } = await client.query<{ waiting: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock') AS waiting", [database]);
        if (rows[0]!.waiting) return true;
        if (Date.now() > deadline) throw new Error('the second contender neither finished nor waited on a lock');
      }
      return false;
    },
    close: () => client.end(),
  };
}

/**
 * Runs `first` (on a `pausing` store) to its gate, then `second`, until it is done or waits on a
 * lock; then lets `first` finish. Answers both outcomes and whether the second had to wait.
 */
export async function race<A, B>(
  watcher: Awaited<ReturnType<typeof lockWatcher>>,
  first: { run: () => Promise<A>; reached: Promise<void>; release: () => void },
  second: () => Promise<B>,
): Promise<{ first: PromiseSettledResult<A>; second: PromiseSettledResult<B>; secondWaited: boolean }> {
  const f = first.run();
  let firstDone = false;
  void f.then(
    () => (firstDone = true),
    () => (firstDone = true),
  );
  await Promise.race([first.reached, f.then(() => undefined, () => undefined)]);
  if (firstDone) throw new Error('the first contender finished without reaching its gate');
  const s = second();
  let secondDone = false;
  const secondSettled = s.then(
    () => (secondDone = true),
    () => (secondDone = true),
  );
  const secondWaited = await Promise.race([watcher.someoneWaits(() => secondDone), secondSettled.then(() => false)]);
  first.release();
  const [a, b] = await Promise.allSettled([f, s]);
  return { first: a!, second: b!, secondWaited };
}
