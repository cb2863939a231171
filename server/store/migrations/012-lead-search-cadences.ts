import type { Migration } from './index.js';
import { leadSearchBackfillSql, leadSearchTriggersSql } from './010-lead-search.js';

/**
 * A search of one cadence's leads (`scheduleId`), answered from the search index as 011 made
 * campaign and project filters (issue 14): each lead's document also names its cadence
 * (server/store/lead-search.ts), so the count is the phrase AND the cadence's word instead of a
 * walk of every lead of the cadence testing its text. The two triggers that write documents are
 * recreated to write the word, and every document is rewritten.
 */
export const m012LeadSearchCadences: Migration = {
  name: 'lead-search-cadences',
  up(db) {
    db.exec(`
      DROP TRIGGER leads_lists_insert;
      DROP TRIGGER leads_search_update;
      ${leadSearchTriggersSql(['campaign_id', 'project_id', 'cadence_id'])}
      INSERT INTO lead_search (lead_search) VALUES ('delete-all');
      ${leadSearchBackfillSql(['campaign_id', 'project_id', 'cadence_id'])}
    `);
  },
};
