import type { Migration } from './index.js';
import { backfillLeadSearch, leadSearchTriggersSql } from './010-lead-search.js';

/**
 * A search combined with a campaign or project filter (a project_user key's searches always carry
 * one), answered from the search index (issue 14): each lead's document gains its campaign's and
 * project's words (server/store/lead-search.ts), so the count and the page of "these campaigns' (or
 * projects') leads at this step whose text contains q" intersect doclists instead of walking every
 * lead of the filter and testing its text. The two triggers that write documents are recreated to
 * write the words, and every document is rewritten.
 */
export const m011LeadSearchFilters: Migration = {
  name: 'lead-search-filters',
  up(db, progress) {
    db.exec(`
      DROP TRIGGER leads_lists_insert;
      DROP TRIGGER leads_search_update;
      ${leadSearchTriggersSql(['campaign_id', 'project_id'])}
      INSERT INTO lead_search (lead_search) VALUES ('delete-all');
    `);
    backfillLeadSearch(db, ['campaign_id', 'project_id'], progress);
  },
};
