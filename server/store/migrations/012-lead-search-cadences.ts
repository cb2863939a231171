import type { Migration } from './index.js';
import { rewriteLeadSearch, type DocumentTags } from './010-lead-search.js';

/** What a lead's document names besides its text since this migration (the current schema). */
export const LEAD_DOCUMENT_TAGS: DocumentTags = ['campaign_id', 'project_id', 'cadence_id'];

/**
 * A search of one cadence's leads (`scheduleId`), answered from the search index as 011 made
 * campaign and project filters (issue 14): each lead's document also names its cadence
 * (server/store/lead-search.ts), so the count is the phrase AND the cadence's word instead of a
 * walk of every lead of the cadence testing its text. The two triggers that write documents are
 * recreated to write the word, and every document is rewritten.
 */
export const m012LeadSearchCadences: Migration = {
  name: 'lead-search-cadences',
  up(db, progress) {
    rewriteLeadSearch(db, LEAD_DOCUMENT_TAGS, progress);
  },
};
