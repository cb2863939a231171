import type { Migration } from './index.js';
import { backfillLeads } from './backfill-leads.js';

/**
 * A search combined with a campaign or project filter (a project_user key's searches always carry
 * one), answered from the search index: each lead's document gains its campaign's and project's
 * words, so the count and the page of "these campaigns' (or projects') leads at this step whose
 * text contains q" intersect doclists instead of walking every lead of the filter and testing its
 * text. The two triggers that write documents are recreated to write the words, and every document
 * is rewritten.
 *
 * Frozen: this SQL is what the step ran when it shipped, and imports nothing live.
 */
const TRIGGERS = `
    DROP TRIGGER leads_lists_insert;
    DROP TRIGGER leads_search_update;
    CREATE TRIGGER leads_lists_insert AFTER INSERT ON leads BEGIN
      INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
        SELECT new.agency_id, CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END, new.cadence_step, new.campaign_id, coalesce(new.cadence_id, ''), new.project_id, 1
        WHERE CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END IS NOT NULL
        ON CONFLICT DO UPDATE SET n = n + 1;
      INSERT INTO lead_search (rowid, words) SELECT new.rowid, w FROM (SELECT lead_search_words((SELECT rowid FROM agencies WHERE id = new.agency_id), new.call_status, new.cadence_step, new.search, new.campaign_id, new.project_id) AS w) WHERE w IS NOT NULL;
    END;
    CREATE TRIGGER leads_search_update AFTER UPDATE OF agency_id, call_status, cadence_step, campaign_id, project_id, search ON leads
      WHEN old.agency_id IS NOT new.agency_id OR CASE WHEN old.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN old.call_status = 'waiting_for_window' THEN 'w' END IS NOT CASE WHEN new.call_status IN ('scheduled','calling','callback') THEN 'p' WHEN new.call_status = 'waiting_for_window' THEN 'w' END OR old.cadence_step IS NOT new.cadence_step
        OR old.search IS NOT new.search OR old.campaign_id IS NOT new.campaign_id OR old.project_id IS NOT new.project_id
    BEGIN
      DELETE FROM lead_search WHERE rowid = old.rowid;
      INSERT INTO lead_search (rowid, words) SELECT new.rowid, w FROM (SELECT lead_search_words((SELECT rowid FROM agencies WHERE id = new.agency_id), new.call_status, new.cadence_step, new.search, new.campaign_id, new.project_id) AS w) WHERE w IS NOT NULL;
    END;
    INSERT INTO lead_search (lead_search) VALUES ('delete-all');
`;

const FILL = `
    INSERT INTO lead_search (rowid, words)
      SELECT r, w FROM (SELECT l.rowid AS r, lead_search_words((SELECT rowid FROM agencies WHERE id = l.agency_id), l.call_status, l.cadence_step, l.search, l.campaign_id, l.project_id) AS w FROM leads l WHERE l.rowid > ? AND l.rowid <= ?) WHERE w IS NOT NULL
`;

export const m011LeadSearchFilters: Migration = {
  name: 'lead-search-filters',
  up(db, progress) {
    db.exec(TRIGGERS);
    backfillLeads(db, FILL, progress);
  },
};
