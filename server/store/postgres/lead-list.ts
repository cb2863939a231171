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
  if (q.mode === 'pipeline') terms.push(`cadence_step = ${param(q.cadenceStep ?? 0)}`);
  if (q.projectId !== undefined) terms.push(`project_id = ${param(q.projectId)}`);
  else if (q.projectIds !== undefined) terms.push(`project_id = ANY(${param([...q.projectIds])}::text[])`);
  if (q.campaignIds !== undefined) terms.push(q.campaignIds.length === 1 ? `campaign_id = ${param(q.campaignIds[0])}` : `campaign_id = ANY(${param([...q.campaignIds])}::text[])`);
  if (q.cadenceId !== undefined) terms.push(`cadence_id = ${param(q.cadenceId)}`);
  if (search) terms.push(`search LIKE ${param(containing(search))}`);
  return { where: terms.join(' AND '), values };
}

/**
 * The lead lists on Postgres: the count and the page are two statements on the partial indexes
 * (and the trigram index for a search), run side by side. Nothing is written behind the rows, so
 * `sync` has nothing to do.
 */
export function leadListSearch(sql: Sql): LeadSearch {
  const statements = (q: LeadPageQuery) => {
    const { where, values } = leadListWhere(q);
    const n = values.length;
    return {
      count: { text: `SELECT count(*)::int AS n FROM leads WHERE ${where}`, values },
      page: { text: `SELECT ${COLUMNS} FROM leads WHERE ${where} ORDER BY created_at, id LIMIT $${n + 1} OFFSET $${n + 2}`, values: [...values, q.limit, q.offset] },
    };
  };
  return {
    async page(q) {
      const { count, page } = statements(q);
      const [counted, rows] = await Promise.all([sql.unprepared<{ n: number }>(count.text, count.values), sql.unprepared<Row>(page.text, page.values)]);
      return { leads: rows.map(fromRow), total: counted[0]!.n };
    },
    sync: async () => 0,
    /** Each statement with Postgres' plan (EXPLAIN), for the benchmarks. */
    async explain(q) {
      const { count, page } = statements(q);
      const explain = async (st: { text: string; values: unknown[] }) =>
        `${st.text.replace(COLUMNS, '<columns>').replace(/\s+/g, ' ')} => ${(await sql.unprepared<{ 'QUERY PLAN': string }>(`EXPLAIN ${st.text}`, st.values)).map((r) => r['QUERY PLAN'].trim()).join(' | ')}`;
      return { count: await explain(count), page: await explain(page) };
    },
  };
}
