import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResultRow } from 'pg';

/**
 * How the repositories reach Postgres: parameterized statements only ($1, $2, ...), each run on
 * the pool (one statement, its own transaction) or on the client of the open transaction.
 *
 * Statements whose text never changes are named prepared statements: node-postgres prepares a
 * name once per connection and afterwards sends only its values. The name is derived from the
 * text, so one text is one name on every connection and two texts never share one. Statements
 * whose text changes with the request's shape (lead lists) run unnamed, planned for their values.
 */
export interface Sql {
  rows<R extends QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R[]>;
  one<R extends QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R | undefined>;
  /** how many rows the statement changed */
  run(text: string, values?: readonly unknown[]): Promise<number>;
  /** an unnamed statement: planned with its values each time (lead lists, EXPLAIN) */
  unprepared<R extends QueryResultRow>(text: string, values?: readonly unknown[]): Promise<R[]>;
  /** `fn` atomically: inside the open transaction (joined), else in a transaction of its own */
  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** whether this runs inside a transaction (locks taken here last until it ends) */
  readonly inTransaction: boolean;
}

const names = new Map<string, string>();
/** The prepared statement name of a text: `s` and 20 hex digits of its SHA-1 (a name is at most 63 bytes). */
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

type Queryable = Pool | PoolClient;

function sqlOn(target: Queryable, inTransaction: boolean, atomic: Sql['atomic']): Sql {
  const query = <R extends QueryResultRow>(text: string, values: readonly unknown[] | undefined, prepared: boolean) =>
    target.query<R>(prepared ? { name: nameOf(text), text, values: values as unknown[] } : { text, values: values as unknown[] });
  return {
    rows: async <R extends QueryResultRow>(text: string, values?: readonly unknown[]) => (await query<R>(text, values, true)).rows,
    one: async <R extends QueryResultRow>(text: string, values?: readonly unknown[]) => (await query<R>(text, values, true)).rows[0] as R | undefined,
    run: async (text, values) => (await query(text, values, true)).rowCount ?? 0,
    unprepared: async <R extends QueryResultRow>(text: string, values?: readonly unknown[]) => (await query<R>(text, values, false)).rows,
    atomic,
    inTransaction,
  };
}

/**
 * Runs `fn` in a transaction on one pooled client: BEGIN, then COMMIT, or ROLLBACK when `fn`
 * throws. A client whose ROLLBACK failed (the connection broke) is destroyed, not reused.
 */
export async function inTransaction<T>(pool: Pool, fn: (sql: Sql, client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const tx: Sql = sqlOn(client, true, (inner) => inner(tx));
    try {
      const result = await fn(tx, client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    }
  } finally {
    client.release(broken);
  }
}

/** Statements on the pool, each its own transaction; `atomic` opens one. */
export function poolSql(pool: Pool): Sql {
  return sqlOn(pool, false, (fn) => inTransaction(pool, (tx) => fn(tx)));
}

/** A SQLSTATE a statement failed with (node-postgres' DatabaseError carries it as `code`). */
export const sqlState = (err: unknown): string | undefined => (err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : undefined);

export { parseJson } from '../rows.js';
