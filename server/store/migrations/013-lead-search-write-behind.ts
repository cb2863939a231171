import { leadListSqlOf } from '../lead-search.js';
import type { Migration } from './index.js';
import { addToListCount, leadDocumentSql, removeFromListCount } from './010-lead-search.js';
import { LEAD_DOCUMENT_TAGS } from './012-lead-search-cadences.js';

/**
 * A lead's search document is written behind its row (issue 14, enrolment): each write of a lead
 * that can change its document only notes the lead's rowid in `lead_search_pending`, in the same
 * transaction; the documents of every noted lead are rewritten together later, in one transaction
 * (`LEAD_SEARCH_FLUSH`, run by the lead repository a moment after its writes and before any read of
 * the index, server/store/leads.ts). An FTS5 write costs ~0.15 ms a transaction on top of its terms,
 * which a lead's enrolment paid alone; in a batch of 20 a document costs ~0.02 ms.
 *
 * What stays exact: the note commits with the row, so a crash loses no document (the next flush
 * writes it); every search flushes first, so it reads what every committed write left; the list
 * counts stay in the same transaction as the row (they cost little and every page reads them).
 * The invariant: for a rowid not in `lead_search_pending`, `lead_search` holds exactly the words
 * `lead_search_words` gives its row now (none for no row, an unlisted lead or a short text).
 */
const list = (row: 'new' | 'old') => leadListSqlOf(`${row}.call_status`);
const note = (row: 'new' | 'old') => `INSERT OR IGNORE INTO lead_search_pending (lead_rowid) VALUES (${row}.rowid);`;
const tagColumns = LEAD_DOCUMENT_TAGS.map((c) => ` ${c},`).join('');
const tagsChanged = LEAD_DOCUMENT_TAGS.map((c) => ` OR old.${c} IS NOT new.${c}`).join('');

/**
 * Rewrites the document of every noted lead and clears the notes: the old document goes (deleting
 * a rowid the contentless index does not hold changes nothing), the row's words go in when it
 * still exists and is listed. Run in one transaction; the statements in order.
 */
export const LEAD_SEARCH_FLUSH = {
  noted: 'SELECT lead_rowid FROM lead_search_pending',
  drop: 'DELETE FROM lead_search WHERE rowid = ?',
  // CROSS JOIN: the notes drive the loop (each a rowid lookup), never a walk of the leads.
  fill: `INSERT INTO lead_search (rowid, words)
      SELECT r, w FROM (
        SELECT l.rowid AS r, ${leadDocumentSql('l', LEAD_DOCUMENT_TAGS)} AS w
        FROM lead_search_pending p CROSS JOIN leads l ON l.rowid = p.lead_rowid)
      WHERE w IS NOT NULL`,
  clear: 'DELETE FROM lead_search_pending',
} as const;

export const m013LeadSearchWriteBehind: Migration = {
  name: 'lead-search-write-behind',
  up(db) {
    db.exec(`
      CREATE TABLE lead_search_pending (lead_rowid INTEGER PRIMARY KEY) STRICT;
      DROP TRIGGER leads_lists_insert;
      DROP TRIGGER leads_search_update;
      DROP TRIGGER leads_lists_delete;
      CREATE TRIGGER leads_lists_insert AFTER INSERT ON leads BEGIN
        ${addToListCount('new')}
        ${note('new')}
      END;
      CREATE TRIGGER leads_search_update AFTER UPDATE OF agency_id, call_status, cadence_step,${tagColumns} search ON leads
        WHEN old.agency_id IS NOT new.agency_id OR ${list('old')} IS NOT ${list('new')} OR old.cadence_step IS NOT new.cadence_step
          OR old.search IS NOT new.search${tagsChanged}
      BEGIN
        ${note('new')}
      END;
      CREATE TRIGGER leads_lists_delete AFTER DELETE ON leads BEGIN
        ${removeFromListCount('old')}
        ${note('old')}
      END;
    `);
  },
};
