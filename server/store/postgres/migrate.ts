import type { Pool } from 'pg';
import { pgMigrations } from './migrations/index.js';

/** Told before and after each step that upgrades an existing database (never for a new one). */
export type PgUpgradeProgress = (e: { version: number; name: string; ms?: number }) => void;

/**
 * The advisory lock every process takes to migrate: one at a time, whatever the number of
 * processes starting at once; the others wait, then find the schema current and do nothing.
 * (Session-level: it goes with the connection if the process dies holding it.)
 */
export const MIGRATION_LOCK = 7_639_034_511_327_001n;

/**
 * Brings the database's schema up to date under the migration lock: each pending step in its own
 * transaction, recorded in `schema_migrations`. A database written by newer code is refused
 * rather than silently misread.
 */
export async function migratePostgres(pool: Pool, onUpgrade?: PgUpgradeProgress): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const current = Number((await client.query<{ v: number }>('SELECT coalesce(max(version), 0)::int AS v FROM schema_migrations')).rows[0]!.v);
      if (current > pgMigrations.length) {
        throw new Error(`database schema version ${current} is newer than this code knows (${pgMigrations.length}); upgrade the code`);
      }
      const tell = current > 0 ? onUpgrade : undefined;
      for (let v = current; v < pgMigrations.length; v++) {
        const step = pgMigrations[v]!;
        const at = { version: v + 1, name: step.name };
        const started = performance.now();
        tell?.(at);
        await client.query('BEGIN');
        try {
          await client.query(step.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [v + 1, step.name]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
        tell?.({ ...at, ms: Math.round(performance.now() - started) });
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);
    }
  } finally {
    client.release();
  }
}
