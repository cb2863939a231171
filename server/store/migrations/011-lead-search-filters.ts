import type { Migration } from './index.js';
import { rewriteLeadSearch } from './010-lead-search.js';

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
    rewriteLeadSearch(db, ['campaign_id', 'project_id'], progress);
  },
};
