import type { Db } from './db.js';

/**
 * Rewrites the document of every noted lead and clears the notes (migration 013): the old
 * document goes (deleting a rowid the contentless index does not hold changes nothing), the row's
 * words go in when it still exists and is listed. Run in one transaction; the statements in order.
 * A document names the lead's campaign, project and cadence after its text (migration 012).
 */
const LEAD_SEARCH_FLUSH = {
  noted: 'SELECT lead_rowid FROM lead_search_pending',
  drop: 'DELETE FROM lead_search WHERE rowid = ?',
  // CROSS JOIN: the notes drive the loop (each a rowid lookup), never a walk of the leads.
  fill: `INSERT INTO lead_search (rowid, words)
      SELECT r, w FROM (
        SELECT l.rowid AS r,
          lead_search_words((SELECT rowid FROM agencies WHERE id = l.agency_id), l.call_status, l.cadence_step, l.search, l.campaign_id, l.project_id, l.cadence_id) AS w
        FROM lead_search_pending p CROSS JOIN leads l ON l.rowid = p.lead_rowid)
      WHERE w IS NOT NULL`,
  clear: 'DELETE FROM lead_search_pending',
} as const;

/**
 * How long a lead's search document may wait behind its row when nothing searches: long enough
 * that a burst of enrolments shares one index write (at ~80 a second, ~16 a flush), short enough
 * that the notes never pile up. A search never waits for it: it flushes first.
 */
export const WRITE_BEHIND_MS = 200;

/**
 * The lead search index's writer (migration 013): `flush` writes the documents of every lead noted
 * since the last flush, by any connection, in one transaction, and answers how many it wrote;
 * `soon` asks for a flush within WRITE_BEHIND_MS on this connection (after a write of leads).
 */
export function leadSearchWriter(db: Db) {
  const anyNoted = db.prepare('SELECT EXISTS (SELECT 1 FROM lead_search_pending)').pluck();
  const noted = db.prepare<[], number>(LEAD_SEARCH_FLUSH.noted).pluck();
  const drop = db.prepare<[number]>(LEAD_SEARCH_FLUSH.drop);
  const fill = db.prepare(LEAD_SEARCH_FLUSH.fill);
  const clear = db.prepare(LEAD_SEARCH_FLUSH.clear);
  const write = db.transaction(() => {
    for (const rowid of noted.all()) drop.run(rowid);
    const written = fill.run().changes;
    clear.run();
    return written;
  });
  const flush = (): number => (anyNoted.get() ? write.immediate() : 0);

  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    if (timer) return;
    // unref: a process with nothing else to do exits; its notes stay committed for the next flush.
    timer = setTimeout(() => {
      timer = undefined;
      if (!db.open) return;
      // Inside a transaction left open across a tick the flush would share its fate: try again later.
      if (db.inTransaction) return soon();
      try {
        flush();
      } catch {
        // Busy beyond the store's timeout: the notes stay; the next write or search flushes them.
        soon();
      }
    }, WRITE_BEHIND_MS).unref();
  };
  return { flush, soon };
}
export type LeadSearchWriter = ReturnType<typeof leadSearchWriter>;
