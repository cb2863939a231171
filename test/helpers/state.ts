import type { Db } from '../../server/store/sqlite/db.js';

/**
 * Every row of the named tables (all agencies), each table's rows in a stable order: taken before
 * and after a request that must change nothing, and compared whole. A refusal that answers the
 * right status but wrote a row on the way fails this.
 */
export function rowsOf(db: Db, tables: readonly string[]): Record<string, unknown[]> {
  return Object.fromEntries(
    tables.map((t) => {
      if (!/^[a-z_]+$/.test(t)) throw new Error(`not a table name: ${t}`);
      const rows = db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[];
      return [t, rows.map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r) as unknown)];
    }),
  );
}
