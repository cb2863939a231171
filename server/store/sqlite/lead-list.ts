import type { LeadSearch } from '../index.js';
import type { LeadPageQuery, LeadRecord } from '../records.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { LIST_OF_MODE, leadSearchPhrase, listStatusSql } from './lead-search.js';
import type { LeadSearchWriter } from './lead-search-flush.js';
import { COLUMNS, fromRow, type Row } from './leads.js';

/** The status filter of a mode's list, as its partial indexes' WHERE (server/store/lead-search.ts). */
const listStatus = (mode: LeadPageQuery['mode']) => listStatusSql(LIST_OF_MODE[mode]);

/**
 * The filters a list page and its count share (step, project, campaigns, cadence), as named
 * parameters over columns `leads` and `lead_list_counts` both have.
 */
function filterTerms(q: LeadPageQuery, terms: string[], params: Record<string, unknown>): void {
  if (q.mode === 'pipeline') {
    terms.push('cadence_step = @cadenceStep');
    params.cadenceStep = q.cadenceStep ?? 0;
  }
  if (q.projectId !== undefined) {
    terms.push('project_id = @projectId');
    params.projectId = q.projectId;
  } else if (q.projectIds !== undefined) {
    terms.push('project_id IN (SELECT value FROM json_each(@projectIds))');
    params.projectIds = JSON.stringify(q.projectIds);
  }
  if (q.campaignIds !== undefined) {
    if (q.campaignIds.length === 1) {
      terms.push('campaign_id = @campaignId');
      params.campaignId = q.campaignIds[0];
    } else {
      terms.push('campaign_id IN (SELECT value FROM json_each(@campaignIds))');
      params.campaignIds = JSON.stringify(q.campaignIds);
    }
  }
  if (q.cadenceId !== undefined) {
    terms.push('cadence_id = @cadenceId');
    params.cadenceId = q.cadenceId;
  }
}

/**
 * The SQL of one list shape (which filters are present); the values are bound as named parameters.
 *
 * Each shape names its index, so the plan does not depend on statistics the store never gathers:
 * - a campaign, project or cadence filter walks that filter's index, so a page costs what the
 *   filter matches, never a scan of the whole step looking for a small campaign's leads;
 * - a whole step walks the narrow step index (counts twice as fast), or with `search` the wide
 *   one, which tests `search` without reading the table.
 */
export function leadListSql(q: LeadPageQuery): { from: string; where: string; params: Record<string, unknown> } {
  const terms = ['agency_id = @agencyId', listStatus(q.mode)];
  const params: Record<string, unknown> = { agencyId: q.agencyId };
  filterTerms(q, terms, params);
  if (q.search) {
    // instr: a plain substring test, no LIKE wildcards to escape; both sides are lowercased.
    terms.push('instr(search, @search) > 0');
    params.search = q.search;
  }
  return { from: `leads INDEXED BY ${listIndex(q)}`, where: terms.join(' AND '), params };
}

function listIndex(q: LeadPageQuery): string {
  if (q.mode === 'parked') return q.campaignIds !== undefined ? 'leads_parked_campaign' : 'leads_parked';
  if (q.campaignIds !== undefined) return 'leads_step_campaign';
  if (q.projectId !== undefined || q.projectIds !== undefined) return 'leads_step_project';
  if (q.cadenceId !== undefined) return 'leads_step_cadence';
  return q.search ? 'leads_step_search' : 'leads_step';
}

/** The count of a list without a search, from the counts migration 010 keeps: a few rows summed, never a walk. */
function leadCountSql(q: LeadPageQuery): { sql: string; params: Record<string, unknown> } {
  const terms = ['agency_id = @agencyId', 'list = @list'];
  const params: Record<string, unknown> = { agencyId: q.agencyId, list: LIST_OF_MODE[q.mode] };
  filterTerms(q, terms, params);
  return { sql: `SELECT coalesce(sum(n), 0) FROM lead_list_counts WHERE ${terms.join(' AND ')}`, params };
}

/**
 * How many list entries a search may cost walking the list in order per matching lead read by
 * rowid and sorted: where the walked index holds the text (`leads_step_search`), reading a row and
 * sorting it costs about this many entries tested (measured with bench/lead-list.ts); any other
 * index makes the walk read each entry's row, as the other way does, so one.
 */
const walkEntriesPerRow = (q: LeadPageQuery) => (listIndex(q) === 'leads_step_search' ? 4 : 1);

/**
 * The lead lists on SQLite: counts from `lead_list_counts`, searches from the FTS5 documents of
 * `lead_search`, written behind the rows (migration 013): `sync` and every search flush them first.
 */
export function leadListSearch(db: Db, searchIndex: LeadSearchWriter): Sync<LeadSearch> {
  // One prepared statement per list shape, made on first use and reused: the shapes are few
  // (which optional filters are present), and each gets the index that fits it.
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  const statement = (sql: string, pluck = false) => {
    let st = statements.get(sql);
    if (!st) {
      st = pluck ? db.prepare(sql).pluck() : db.prepare(sql);
      statements.set(sql, st);
    }
    return st;
  };

  /** A statement with its parameters: what a page runs, and what `plan` explains. */
  interface Step {
    sql: string;
    params: Record<string, unknown>;
  }
  const walkPageStep = (q: LeadPageQuery): Step => {
    const { from, where, params } = leadListSql(q);
    return { sql: `SELECT ${COLUMNS} FROM ${from} WHERE ${where} ORDER BY created_at, id LIMIT @limit OFFSET @offset`, params: { ...params, limit: q.limit, offset: q.offset } };
  };
  const run1 = (st: Step) => statement(st.sql, true).get(st.params) as number;

  // A search over a whole list or some of its campaigns, projects or a cadence: the FTS5 query counts it with no
  // row read; the page either walks the list (or the filter's part of it) in order testing each entry's text
  // (cheap when matches are dense: it stops after offset + limit of them) or reads the matching rows
  // by rowid and sorts them (cheap when few).
  const agencyNo = db.prepare<[string], number>('SELECT rowid FROM agencies WHERE id = ?').pluck();
  const searchPageSql = (mode: LeadPageQuery['mode']) =>
    `SELECT ${COLUMNS} FROM leads NOT INDEXED WHERE rowid IN (SELECT rowid FROM lead_search WHERE lead_search MATCH @phrase)
       AND agency_id = @agencyId AND ${listStatus(mode)}${mode === 'pipeline' ? ' AND cadence_step = @cadenceStep' : ''}
     ORDER BY created_at, id LIMIT @limit OFFSET @offset`;
  // Documents name the lead's campaign and project (migration 011) and cadence (012). An empty
  // filter matches nothing, which the walk answers at once.
  const projectsOf = (q: LeadPageQuery) => (q.projectId !== undefined ? [q.projectId] : q.projectIds);
  const indexed = (q: LeadPageQuery) => q.campaignIds?.length !== 0 && projectsOf(q)?.length !== 0;
  const wordsOf = (q: LeadPageQuery) => ({ campaignIds: q.campaignIds, projectIds: projectsOf(q), cadenceIds: q.cadenceId === undefined ? undefined : [q.cadenceId] });

  /**
   * The statements one page runs: the count, and the page's rows (null when the count says the
   * page is past the end). Counting happens here, since the count decides how the rows are read.
   */
  function choose(q: LeadPageQuery): { count: Step; total: number; page: Step | null } {
    const no = q.search && indexed(q) ? agencyNo.get(q.agencyId) : undefined;
    const phrase = no !== undefined ? leadSearchPhrase(no, LIST_OF_MODE[q.mode], q.cadenceStep ?? 0, q.search!, wordsOf(q)) : null;
    let count: Step;
    if (phrase !== null) count = { sql: 'SELECT count(*) FROM lead_search WHERE lead_search MATCH @phrase', params: { phrase } };
    else if (q.search) {
      const { from, where, params } = leadListSql(q);
      count = { sql: `SELECT count(*) FROM ${from} WHERE ${where}`, params };
    } else count = leadCountSql(q);
    // Documents are written behind their rows (migration 013): the index answers for every committed write once flushed.
    if (phrase !== null) searchIndex.flush();
    const total = run1(count);
    if (total <= q.offset) return { count, total, page: null };
    if (phrase === null) return { count, total, page: walkPageStep(q) };
    const listed = run1(leadCountSql({ ...q, search: undefined }));
    const walk = ((q.offset + q.limit) * listed) / total;
    const page =
      walk <= total * walkEntriesPerRow(q)
        ? walkPageStep(q)
        : { sql: searchPageSql(q.mode), params: { phrase, agencyId: q.agencyId, ...(q.mode === 'pipeline' && { cadenceStep: q.cadenceStep ?? 0 }), limit: q.limit, offset: q.offset } };
    return { count, total, page };
  }

  return {
    page(q: LeadPageQuery): { leads: LeadRecord[]; total: number } {
      const { total, page } = choose(q);
      const rows = page ? (statement(page.sql).all(page.params) as Row[]) : [];
      return { leads: rows.map(fromRow), total };
    },
    /** What a page of `q` runs, each statement with SQLite's query plan (bench/lead-list.ts prints them). */
    explain(q: LeadPageQuery): { count: string; page: string | null } {
      const explain = (st: Step) =>
        `${st.sql.replace(COLUMNS, '<columns>').replace(/\s+/g, ' ')} => ${(db.prepare(`EXPLAIN QUERY PLAN ${st.sql}`).all(st.params) as { detail: string }[]).map((r) => r.detail).join(' | ')}`;
      const { count, page } = choose(q);
      return { count: explain(count), page: page && explain(page) };
    },
    sync: () => searchIndex.flush(),
  };
}
