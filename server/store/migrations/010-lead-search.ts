import { leadListSqlOf } from '../lead-search.js';
import type { Db } from '../db.js';
import type { Migration, StepProgress } from './index.js';

/**
 * Lead lists at 1M leads (issue 14): a page's count no longer walks the list.
 *
 * - `lead_list_counts`: how many leads each (list, step, campaign, cadence) holds, kept by
 *   triggers, so an unfiltered or campaign/project/cadence-filtered count sums a few rows.
 * - `lead_search`: a contentless FTS5 index of the leads still being worked, one document per lead
 *   (its rowid), words from `lead_search_words` (server/store/lead-search.ts), kept by triggers;
 *   a search over a whole list is counted from it alone.
 *
 * The index is keyed on the leads' and agencies' rowids: a `VACUUM` may renumber them, so one must be followed by
 * `INSERT INTO lead_search(lead_search) VALUES ('delete-all')` and the backfill (`rewriteLeadSearch`, as migrations 011 and 012 do it).
 */
/** A trigger's row, or the backfill's (`leads l`). */
type Row = 'new' | 'old' | 'l';
const list = (row: Row) => leadListSqlOf(`${row}.call_status`);
/**
 * The ids a document names besides its text, as `lead_search_words` takes them: none (this
 * migration), the campaign and project (011), and the cadence (012).
 */
export type DocumentTags = readonly [] | readonly ['campaign_id', 'project_id'] | readonly ['campaign_id', 'project_id', 'cadence_id'];
/** A row's document, as SQL. */
export const leadDocumentSql = (row: Row, tags: DocumentTags) =>
  `lead_search_words((SELECT rowid FROM agencies WHERE id = ${row}.agency_id), ${row}.call_status, ${row}.cadence_step, ${row}.search${tags.map((c) => `, ${row}.${c}`).join('')})`;
/** A row joining its list's count (every migration since this one writes the counts so). */
export const addToListCount = (row: Row) => `
        INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
          SELECT ${row}.agency_id, ${list(row)}, ${row}.cadence_step, ${row}.campaign_id, coalesce(${row}.cadence_id, ''), ${row}.project_id, 1
          WHERE ${list(row)} IS NOT NULL
          ON CONFLICT DO UPDATE SET n = n + 1;`;
/** A row leaving its list's count. */
export const removeFromListCount = (row: Row) => `
        UPDATE lead_list_counts SET n = n - 1
          WHERE agency_id = ${row}.agency_id AND list = ${list(row)} AND cadence_step = ${row}.cadence_step
            AND campaign_id = ${row}.campaign_id AND cadence_id = coalesce(${row}.cadence_id, '');`;
const index = (row: Row, tags: DocumentTags) => `
        INSERT INTO lead_search (rowid, words) SELECT ${row}.rowid, w FROM (SELECT ${leadDocumentSql(row, tags)} AS w) WHERE w IS NOT NULL;`;

/** The two triggers that write documents naming `tags` (the insert trigger also counts the lead). */
export function leadSearchTriggersSql(tags: DocumentTags): string {
  // A document depends on an id only once it names it.
  const tagColumns = tags.map((c) => ` ${c},`).join('');
  const tagsChanged = tags.map((c) => ` OR old.${c} IS NOT new.${c}`).join('');
  return `
      CREATE TRIGGER leads_lists_insert AFTER INSERT ON leads BEGIN
        ${addToListCount('new')}
        ${index('new', tags)}
      END;
      CREATE TRIGGER leads_search_update AFTER UPDATE OF agency_id, call_status, cadence_step,${tagColumns} search ON leads
        WHEN old.agency_id IS NOT new.agency_id OR ${list('old')} IS NOT ${list('new')} OR old.cadence_step IS NOT new.cadence_step
          OR old.search IS NOT new.search${tagsChanged}
      BEGIN
        DELETE FROM lead_search WHERE rowid = old.rowid;
        ${index('new', tags)}
      END;`;
}

/** Leads the backfill writes per statement, between two progress reports (~5 s at 1M leads here). */
const BACKFILL_BATCH = 50_000;

/**
 * Writes every listed lead's document naming `tags` into an empty `lead_search`, `batch` leads (in
 * rowid order) per statement, telling `progress` how many leads it has been through: at 1M leads
 * this takes a minute and more, and the start that waits for it says how far it is.
 */
export function backfillLeadSearch(db: Db, tags: DocumentTags, progress?: StepProgress, batch = BACKFILL_BATCH): void {
  const total = db.prepare('SELECT count(*) FROM leads').pluck().get() as number;
  const batchEnd = db.prepare<[number, number], number>('SELECT rowid FROM leads WHERE rowid > ? ORDER BY rowid LIMIT 1 OFFSET ?').pluck();
  const fill = db.prepare<[number, number]>(`
      INSERT INTO lead_search (rowid, words)
        SELECT r, w FROM (SELECT l.rowid AS r, ${leadDocumentSql('l', tags)} AS w FROM leads l WHERE l.rowid > ? AND l.rowid <= ?) WHERE w IS NOT NULL`);
  let after = Number.MIN_SAFE_INTEGER;
  for (let done = 0; done < total; ) {
    // The batch's last rowid; past the last full batch, every lead left.
    const end = batchEnd.get(after, batch - 1) ?? Number.MAX_SAFE_INTEGER;
    fill.run(after, end);
    after = end;
    done = Math.min(total, done + batch);
    progress?.(done, total, 'leads');
  }
}

/**
 * Makes every document name `tags` from now on: the two triggers that write documents recreated,
 * and every document written again (migrations 011 and 012).
 */
export function rewriteLeadSearch(db: Db, tags: DocumentTags, progress?: StepProgress): void {
  db.exec(`
      DROP TRIGGER leads_lists_insert;
      DROP TRIGGER leads_search_update;
      ${leadSearchTriggersSql(tags)}
      INSERT INTO lead_search (lead_search) VALUES ('delete-all');
    `);
  backfillLeadSearch(db, tags, progress);
}

export const m010LeadSearch: Migration = {
  name: 'lead-search',
  up(db, progress) {
    db.exec(`
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
      ${leadSearchTriggersSql([])}
      CREATE TRIGGER leads_lists_delete AFTER DELETE ON leads BEGIN
        ${removeFromListCount('old')}
        DELETE FROM lead_search WHERE rowid = old.rowid;
      END;
      -- Only a change of what a count or a document depends on rewrites them (a call starting,
      -- scheduled -> calling, stays in the same list).
      CREATE TRIGGER leads_lists_update AFTER UPDATE OF agency_id, call_status, cadence_step, campaign_id, cadence_id, project_id ON leads
        WHEN old.agency_id IS NOT new.agency_id OR ${list('old')} IS NOT ${list('new')} OR old.cadence_step IS NOT new.cadence_step
          OR old.campaign_id IS NOT new.campaign_id OR old.cadence_id IS NOT new.cadence_id OR old.project_id IS NOT new.project_id
      BEGIN
        ${removeFromListCount('old')}
        ${addToListCount('new')}
      END;

      INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
        SELECT agency_id, ${leadListSqlOf('call_status')} AS l, cadence_step, campaign_id, coalesce(cadence_id, ''), project_id, count(*)
        FROM leads WHERE l IS NOT NULL GROUP BY agency_id, l, cadence_step, campaign_id, coalesce(cadence_id, '');
    `);
    backfillLeadSearch(db, [], progress);
  },
};
