import { p001Schema } from './001-schema.js';
import { p002LeasesAndReplays } from './002-leases-and-replays.js';

/**
 * A step of the Postgres schema: SQL run as one transaction, frozen when it ships (it imports
 * nothing live). Postgres has migrations of its own: its first step is the schema SQLite reached
 * in fourteen, and the two lists move on separately.
 */
export interface PgMigration {
  name: string;
  sql: string;
}

/** Ordered; the position in this list is the schema version it produces (1-based). Never reorder. */
export const pgMigrations: PgMigration[] = [p001Schema, p002LeasesAndReplays];
