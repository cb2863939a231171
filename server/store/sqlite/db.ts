import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { registerLeadSearch } from './lead-search.js';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;

/**
 * Opens the SQLite file (or ':memory:'), sets the pragmas the product relies on and brings the
 * schema up to date. Migrations are keyed on `PRAGMA user_version`; a database written by newer
 * code is refused rather than silently misread.
 */
export function openDb(file: string, onUpgrade?: UpgradeProgress): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, onUpgrade);
  return db;
}

/**
 * Told before and after each step that upgrades a store holding an earlier schema (never for a new
 * store), and as a long step advances (`done` of `total` `unit`): some steps rewrite every row of a
 * table (migrations 011 and 012, ~85-105 s each at 1M leads on a 2-core machine), and a start that
 * waits that long says why and how far it is.
 */
export type UpgradeProgress = (e: UpgradeEvent) => void;
export interface UpgradeEvent {
  version: number;
  name: string;
  ms?: number;
  done?: number;
  total?: number;
  unit?: string;
}

/** An upgrade event as the log line `npm start` writes for it. */
export function describeUpgrade(e: UpgradeEvent): string {
  const step = `schema ${e.version} (${e.name})`;
  if (e.ms !== undefined) return `store at ${step} in ${e.ms} ms`;
  if (e.done !== undefined) return `upgrading the store to ${step}: ${e.done.toLocaleString('en-US')} of ${e.total!.toLocaleString('en-US')} ${e.unit}`;
  return `upgrading the store to ${step}`;
}

export function migrate(db: Db, onUpgrade?: UpgradeProgress): void {
  // The lead-list triggers (migration 010) call it: registered before any step can need it.
  registerLeadSearch(db);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `database schema version ${current} is newer than this code knows (${migrations.length}); upgrade the code`,
    );
  }
  // A new store's steps are not an upgrade: nothing to tell.
  const tell = current > 0 ? onUpgrade : undefined;
  for (let v = current; v < migrations.length; v++) {
    const step = migrations[v]!;
    const at = { version: v + 1, name: step.name };
    const started = performance.now();
    tell?.(at);
    // foreign_keys cannot change inside a transaction: switch it around the step's own.
    if (step.foreignKeysOff) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        step.up(db, tell && ((done, total, unit) => tell({ ...at, done, total, unit })));
        if (step.foreignKeysOff) {
          const broken = db.pragma('foreign_key_check') as unknown[];
          if (broken.length > 0) throw new Error(`migration ${v + 1} (${step.name}) left ${broken.length} broken foreign keys`);
        }
        db.pragma(`user_version = ${v + 1}`);
      })();
    } finally {
      if (step.foreignKeysOff) db.pragma('foreign_keys = ON');
    }
    tell?.({ ...at, ms: Math.round(performance.now() - started) });
  }
}

export { parseJson } from '../rows.js';
