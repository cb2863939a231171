import type { Migration } from './index.js';

/**
 * A lead's search document is written behind its row: each write of a lead that can change its
 * document only notes the lead's rowid in `lead_search_pending`, in the same transaction; the
 * documents of every noted lead are rewritten together later, in one transaction, by the lead
 * store (server/store/lead-search-flush.ts), a moment after its writes and before any read of the
 * index. An FTS5 write costs a transaction's overhead on top of its terms, which a lead's
 * enrolment paid alone; in a batch the overhead is shared.
 *
 * What stays exact: the note commits with the row, so a crash loses no document (the next flush
 * writes it); every search flushes first, so it reads what every committed write left; the list
 * counts stay in the same transaction as the row (they cost little and every page reads them).
 * The invariant: for a rowid not in `lead_search_pending`, `lead_search` holds exactly the words
 * `lead_search_words` gives its row now (none for no row, an unlisted lead or a short text).
 *
 * Frozen: this SQL is what the step ran when it shipped, and imports nothing live.
 */
const SQL = `
    CREATE TABLE lead_search_pending (lead_rowid INTEGER PRIMARY KEY) STRICT;
    DROP TRIGGER leads_lists_insert;
    DROP TRIGGER leads_search_update;
    DROP TRIGGER leads_lists_delete;
    CREATE TRIGGER leads_lists_insert AFTER INSERT ON leads BEGIN
      INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
        SELECT new.agency_id, CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END, new.cadence_step, new.campaign_id, coalesce(new.cadence_id, ''), new.project_id, 1
        WHERE CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END IS NOT NULL
        ON CONFLICT DO UPDATE SET n = n + 1;
      INSERT OR IGNORE INTO lead_search_pending (lead_rowid) VALUES (new.rowid);
    END;
    CREATE TRIGGER leads_search_update AFTER UPDATE OF agency_id, call_status, cadence_step, campaign_id, project_id, cadence_id, search ON leads
      WHEN old.agency_id IS NOT new.agency_id OR CASE WHEN old.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN old.call_status = 'waiting_for_window' THEN 'w' END IS NOT CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END OR old.cadence_step IS NOT new.cadence_step
        OR old.search IS NOT new.search OR old.campaign_id IS NOT new.campaign_id OR old.project_id IS NOT new.project_id OR old.cadence_id IS NOT new.cadence_id
    BEGIN
      INSERT OR IGNORE INTO lead_search_pending (lead_rowid) VALUES (new.rowid);
    END;
    CREATE TRIGGER leads_lists_delete AFTER DELETE ON leads BEGIN
      UPDATE lead_list_counts SET n = n - 1
        WHERE agency_id = old.agency_id AND list = CASE WHEN old.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN old.call_status = 'waiting_for_window' THEN 'w' END AND cadence_step = old.cadence_step
          AND campaign_id = old.campaign_id AND cadence_id = coalesce(old.cadence_id, '');
      INSERT OR IGNORE INTO lead_search_pending (lead_rowid) VALUES (old.rowid);
    END;
`;

export const m013LeadSearchWriteBehind: Migration = {
  name: 'lead-search-write-behind',
  up(db) {
    db.exec(SQL);
  },
};
