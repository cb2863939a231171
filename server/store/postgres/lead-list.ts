import type { LeadSearch } from '../index.js';
import type { LeadPageQuery } from '../records.js';
import { COLUMNS, fromRow, type Row } from './leads.js';
import type { Sql } from './sql.js';

/**
 * A list's statuses, written exactly as the WHERE of its partial indexes (migration 001): the
 * planner uses a partial index when the query's condition implies the index's, which it proves
 * from the same literals (never from a parameter).
 */
const LIST_STATUS = { pipeline: "call_status IN ('scheduled','calling','callback')", parked: "call_status = 'waiting_for_window'" } as const;

/** `search` as a LIKE pattern matching it anywhere: its own %, _ and \ stand for themselves. */
export const containing = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const LIST_OF_MODE = { pipeline: 'p', parked: 'w' } as const;

/** The filters a page and its count share (step, project, campaigns, cadence), over columns `leads` and `lead_list_counts` both have. */
function filterTerms(q: LeadPageQuery, terms: string[], param: (v: unknown) => string): void {
  if (q.mode === 'pipeline') terms.push(`cadence_step = ${param(q.cadenceStep ?? 0)}`);
  if (q.projectId !== undefined) terms.push(`project_id = ${param(q.projectId)}`);
  else if (q.projectIds !== undefined) terms.push(`project_id = ANY(${param([...q.projectIds])}::text[])`);
  if (q.campaignIds !== undefined) terms.push(q.campaignIds.length === 1 ? `campaign_id = ${param(q.campaignIds[0])}` : `campaign_id = ANY(${param([...q.campaignIds])}::text[])`);
  if (q.cadenceId !== undefined) terms.push(`cadence_id = ${param(q.cadenceId)}`);
}

/**
 * One list shape's WHERE (which filters are present) and its values. Substring search is
 * `search LIKE '%q%'`, which the list's trigram index answers (pg_trgm: the rows holding every
 * trigram of q, each checked); a search shorter than a trigram, or a filter that leaves few rows,
 * is answered by walking the filter's ordered index instead, as the planner judges.
 */
export function leadListWhere(q: LeadPageQuery, search = q.search): { where: string; values: unknown[] } {
  const values: unknown[] = [q.agencyId];
  const param = (v: unknown) => `$${values.push(v)}`;
  const terms = ['agency_id = $1', LIST_STATUS[q.mode]];
  filterTerms(q, terms, param);
  if (search) terms.push(`search LIKE ${param(containing(search))}`);
  return { where: terms.join(' AND '), values };
}

/**
 * The count of a list without a search: its rows of `lead_list_counts` plus the changes not folded
 * into them yet (migration 001), in one statement, so one snapshot: a few rows, never a walk.
 */
function countSql(q: LeadPageQuery): { text: string; values: unknown[] } {
  const values: unknown[] = [q.agencyId, LIST_OF_MODE[q.mode]];
  const terms = ['agency_id = $1', 'list = $2'];
  filterTerms(q, terms, (v) => `$${values.push(v)}`);
  const where = terms.join(' AND ');
  return { text: `SELECT coalesce(sum(n), 0)::int AS n FROM (SELECT n FROM lead_list_counts WHERE ${where} UNION ALL SELECT d FROM lead_list_count_changes WHERE ${where}) AS c`, values };
}

/**
 * Folds the change rows into the counts, atomically: the rows it deletes are the rows it adds. One
 * fold at a time across processes (a transaction advisory lock; another fold skips); how many
 * change rows it folded.
 */
export const FOLD = `WITH moved AS (DELETE FROM lead_list_count_changes RETURNING agency_id, list, cadence_step, campaign_id, cadence_id, project_id, d),
  folded AS (INSERT INTO lead_list_counts (agency_id, list, cadence_step, campaign_id, cadence_id, project_id, n)
    SELECT agency_id, list, cadence_step, campaign_id, cadence_id, project_id, sum(d) FROM moved GROUP BY agency_id, list, cadence_step, campaign_id, cadence_id, project_id
    ON CONFLICT (agency_id, list, cadence_step, campaign_id, cadence_id, project_id) DO UPDATE SET n = lead_list_counts.n + excluded.n)
  SELECT count(*)::int AS n FROM moved`;
export const foldListCounts = (sql: Sql): Promise<number> =>
  sql.atomic(async (tx) => {
    if (!(await tx.one<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock(hashtextextended('lead-list-counts', 0)) AS ok"))!.ok) return 0;
    return (await tx.one<{ n: number }>(FOLD))!.n;
  });

/**
 * The lead lists on Postgres: the count (from the counts without a search; over the trigram index
 * with one) and the page (the partial indexes) are two statements run side by side. Nothing is
 * written behind the rows; `sync` folds the counts' change rows (the store also does every second).
 */
export function leadListSearch(sql: Sql): LeadSearch {
  const statements = (q: LeadPageQuery) => {
    const { where, values } = leadListWhere(q);
    const n = values.length;
    return {
      count: q.search ? { text: `SELECT count(*)::int AS n FROM leads WHERE ${where}`, values } : countSql(q),
      page: { text: `SELECT ${COLUMNS} FROM leads WHERE ${where} ORDER BY created_at, id LIMIT $${n + 1} OFFSET $${n + 2}`, values: [...values, q.limit, q.offset] },
    };
  };
  return {
    async page(q) {
      const { count, page } = statements(q);
      const [counted, rows] = await Promise.all([sql.unprepared<{ n: number }>(count.text, count.values), sql.unprepared<Row>(page.text, page.values)]);
      return { leads: rows.map(fromRow), total: counted[0]!.n };
    },
    sync: () => foldListCounts(sql),
    /** Each statement with Postgres' plan (EXPLAIN), for the benchmarks. */
    async explain(q) {
      const { count, page } = statements(q);
      const explain = async (st: { text: string; values: unknown[] }) =>
        `${st.text.replace(COLUMNS, '<columns>').replace(/\s+/g, ' ')} => ${(await sql.unprepared<{ 'QUERY PLAN': string }>(`EXPLAIN ${st.text}`, st.values)).map((r) => r['QUERY PLAN'].trim()).join(' | ')}`;
      return { count: await explain(count), page: await explain(page) };
    },
  };
}
