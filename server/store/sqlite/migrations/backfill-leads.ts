import type Database from 'better-sqlite3';
import type { StepProgress } from './index.js';

/** Leads per statement, between two progress reports (about 5 s at 1M leads on two cores). */
const BATCH = 50_000;

/**
 * Runs a migration's fill statement (`? < rowid <= ?` of \`leads\`) over every lead, `batch` leads
 * in rowid order per statement, telling `progress` how many it has been through: at 1M leads a
 * fill takes a minute and more, and the start that waits for it says how far it is.
 *
 * Frozen with the migrations that call it (010-012): what it does must never change; a migration
 * that needs something else writes its own.
 */
export function backfillLeads(db: Database.Database, fill: string, progress?: StepProgress, batch = BATCH): void {
  const total = db.prepare('SELECT count(*) FROM leads').pluck().get() as number;
  const batchEnd = db.prepare<[number, number], number>('SELECT rowid FROM leads WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ?').pluck();
  const run = db.prepare<[number, number]>(fill);
  let after = Number.MIN_SAFE_INTEGER;
  for (let done = 0; done < total; ) {
    // The batch's last rowid; past the last full batch, every lead left.
    const end = batchEnd.get(after, batch - 1) ?? Number.MAX_SAFE_INTEGER;
    run.run(after, end);
    after = end;
    done = Math.min(total, done + batch);
    progress?.(done, total, 'leads');
  }
}
