import type { Migration } from './index.js';
import { backfillLeads } from './backfill-leads.js';

/**
 * Lead lists at 1M leads: a page's count no longer walks the list.
 *
 * - `lead_list_counts`: how many leads each (list, step, campaign, cadence) holds, kept by
 *   triggers, so an unfiltered or campaign/project/cadence-filtered count sums a few rows. A lead's
 *   list is `p` (the cadence-step list: scheduled, calling, callback) or `w` (parked: waiting for
 *   its window); finished leads are in none.
 * - `lead_search`: a contentless FTS5 index of the leads still being worked, one document per lead
 *   (its rowid), words from the store's `lead_search_words` function, kept by triggers; a search
 *   over a whole list is counted from it alone.
 *
 * The index is keyed on the leads' and agencies' rowids: a `VACUUM` may renumber them, so one must
 * be followed by `INSERT INTO lead_search(lead_search) VALUES ('delete-all')` and a refill.
 *
 * Frozen: this SQL is what the step ran when it shipped, and imports nothing live.
 */
const SCHEMA = `
    CREATE TABLE lead_list_counts (
      agency_id TEXT NOT NULL,
      list TEXT NOT NULL,
      cadence_step INTEGER NOT NULL,
      campaign_id TEXT NOT NULL,
      cadence_id TEXT NOT NULL,
      project_id TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (agency_id, list, cadence_step, campaign_id, cadence_id)
    ) STRICT, WITHOUT ROWID;
    CREATE VIRTUAL TABLE lead_search USING fts5(words, content = '', contentless_delete = 1, tokenize = 'ascii');
    CREATE TRIGGER leads_lists_insert AFTER INSERT ON leads BEGIN
      INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
        SELECT new.agency_id, CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END, new.cadence_step, new.campaign_id, coalesce(new.cadence_id, ''), new.project_id, 1
        WHERE CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END IS NOT NULL
        ON CONFLICT DO UPDATE SET n = n + 1;
      INSERT INTO lead_search (rowid, words) SELECT new.rowid, w FROM (SELECT lead_search_words((SELECT rowid FROM agencies WHERE id = new.agency_id), new.call_status, new.cadence_step, new.search) AS w) WHERE w IS NOT NULL;
    END;
    CREATE TRIGGER leads_search_update AFTER UPDATE OF agency_id, call_status, cadence_step, search ON leads
      WHEN old.agency_id IS NOT new.agency_id OR CASE WHEN old.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN old.call_status = 'waiting_for_window' THEN 'w' END IS NOT CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END OR old.cadence_step IS NOT new.cadence_step
        OR old.search IS NOT new.search
    BEGIN
      DELETE FROM lead_search WHERE rowid = old.rowid;
      INSERT INTO lead_search (rowid, words) SELECT new.rowid, w FROM (SELECT lead_search_words((SELECT rowid FROM agencies WHERE id = new.agency_id), new.call_status, new.cadence_step, new.search) AS w) WHERE w IS NOT NULL;
    END;
    CREATE TRIGGER leads_lists_delete AFTER DELETE ON leads BEGIN
      UPDATE lead_list_counts SET n = n - 1
        WHERE agency_id = old.agency_id AND list = CASE WHEN old.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN old.call_status = 'waiting_for_window' THEN 'w' END AND cadence_step = old.cadence_step
          AND campaign_id = old.campaign_id AND cadence_id = coalesce(old.cadence_id, '');
      DELETE FROM lead_search WHERE rowid = old.rowid;
    END;
    -- Only a change of what a count or a document depends on rewrites them (a call starting,
    -- scheduled -> calling, stays in the same list).
    CREATE TRIGGER leads_lists_update AFTER UPDATE OF agency_id, call_status, cadence_step, campaign_id, cadence_id, project_id ON leads
      WHEN old.agency_id IS NOT new.agency_id OR CASE WHEN old.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN old.call_status = 'waiting_for_window' THEN 'w' END IS NOT CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END OR old.cadence_step IS NOT new.cadence_step
        OR old.campaign_id IS NOT new.campaign_id OR old.cadence_id IS NOT new.cadence_id OR old.project_id IS NOT new.project_id
    BEGIN
      UPDATE lead_list_counts SET n = n - 1
        WHERE agency_id = old.agency_id AND list = CASE WHEN old.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN old.call_status = 'waiting_for_window' THEN 'w' END AND cadence_step = old.cadence_step
          AND campaign_id = old.campaign_id AND cadence_id = coalesce(old.cadence_id, '');
      INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
        SELECT new.agency_id, CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END, new.cadence_step, new.campaign_id, coalesce(new.cadence_id, ''), new.project_id, 1
        WHERE CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END IS NOT NULL
        ON CONFLICT DO UPDATE SET n = n + 1;
    END;
    INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
      SELECT agency_id, CASE WHEN call_status IN ('scheduled','calling','callback') THEN 'p' WHEN call_status = 'waiting_for_window' THEN 'w' END AS l, cadence_step, campaign_id, coalesce(cadence_id, ''), project_id, count(*)
      FROM leads WHERE l IS NOT NULL GROUP BY agency_id, l, cadence_step, campaign_id, coalesce(cadence_id, '');
`;

/** Every listed lead's document (this step's documents name no ids besides the text). */
const FILL = `
    INSERT INTO lead_search (rowid, words)
      SELECT r, w FROM (SELECT l.rowid AS r, lead_search_words((SELECT rowid FROM agencies WHERE id = l.agency_id), l.call_status, l.cadence_step, l.search) AS w FROM leads l WHERE l.rowid > ? AND l.rowid <= ?) WHERE w IS NOT NULL
`;

export const m010LeadSearch: Migration = {
  name: 'lead-search',
  up(db, progress) {
    db.exec(SCHEMA);
    backfillLeads(db, FILL, progress);
  },
};
