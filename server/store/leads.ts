import type { LeadCallStatus } from '../../schemas/cadence.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { nowIso } from './ids.js';
import { LIST_OF_MODE, leadSearchPhrase, listStatusSql } from './lead-search.js';
import { leadSearchWriter } from './lead-search-flush.js';

/** Statuses of a lead the dialer still works; the others are final. */
export const LIVE_STATUSES: readonly LeadCallStatus[] = ['scheduled', 'waiting_for_window', 'calling', 'callback'];
export const isLive = (status: LeadCallStatus) => LIVE_STATUSES.includes(status);

export interface LeadRecord {
  id: string;
  agencyId: string;
  projectId: string;
  campaignId: string;
  contactId: string;
  queueId: string;
  /** the cadence the lead follows (the campaign's `config.cadenceId` at enrolment); null: the default one-step cadence */
  cadenceId: string | null;
  cadenceStep: number;
  callStatus: LeadCallStatus;
  nextCallTime: string;
  timezone: string;
  firstName: string;
  fullName: string;
  email: string;
  phone: string;
  live: boolean;
  callerPreference: string;
  tags: string[];
  locationId: string;
  businessName: string;
  pipeline: string;
  campaignName: string;
  createdAt: string;
  updatedAt: string;
}

/** The contact-derived part of a lead, refreshed when the CRM reports a change. */
export type LeadContactFields = Pick<LeadRecord, 'firstName' | 'fullName' | 'email' | 'phone' | 'timezone' | 'tags' | 'pipeline'>;

/** What the cadence workflow mirrors onto the row at each state change. */
export interface LeadMirror {
  callStatus: LeadCallStatus;
  cadenceStep: number;
  /** unchanged when omitted (a finished lead keeps the last time that was due) */
  nextCallTime?: string;
  callerPreference?: string;
}

/**
 * One page of a lead list. `mode` picks the list: `pipeline` (spec 4.7: leads being worked at a
 * cadence step) or `parked` (spec 4.8: speed-to-lead leads waiting for the window).
 */
export interface LeadPageQuery {
  agencyId: string;
  mode: 'pipeline' | 'parked';
  /** required for `pipeline` */
  cadenceStep?: number;
  /** one project (a `locationId` filter) */
  projectId?: string;
  /** the projects a project_user key may see; undefined: all of the agency's */
  projectIds?: readonly string[];
  /** one or more campaigns (`campaignId` / `campaignIds`); an empty list matches nothing */
  campaignIds?: readonly string[];
  cadenceId?: string;
  /** lowercased substring of the lead's name, email or phone */
  search?: string;
  limit: number;
  offset: number;
}

interface Row {
  id: string;
  agency_id: string;
  project_id: string;
  campaign_id: string;
  contact_id: string;
  queue_id: string;
  cadence_id: string | null;
  cadence_step: number;
  call_status: string;
  next_call_time: string;
  timezone: string;
  first_name: string;
  full_name: string;
  email: string;
  phone: string;
  live: number;
  caller_preference: string;
  tags: string;
  location_id: string;
  business_name: string;
  pipeline: string;
  campaign_name: string;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: Row): LeadRecord => ({
  id: r.id,
  agencyId: r.agency_id,
  projectId: r.project_id,
  campaignId: r.campaign_id,
  contactId: r.contact_id,
  queueId: r.queue_id,
  cadenceId: r.cadence_id,
  cadenceStep: r.cadence_step,
  callStatus: r.call_status as LeadCallStatus,
  nextCallTime: r.next_call_time,
  timezone: r.timezone,
  firstName: r.first_name,
  fullName: r.full_name,
  email: r.email,
  phone: r.phone,
  live: r.live === 1,
  callerPreference: r.caller_preference,
  tags: parseJson<string[]>(r.tags, 'leads.tags'),
  locationId: r.location_id,
  businessName: r.business_name,
  pipeline: r.pipeline,
  campaignName: r.campaign_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The text `search` matches: names, email and phone (also its bare digits), lowercased. */
export function searchText(l: Pick<LeadRecord, 'firstName' | 'fullName' | 'email' | 'phone'>): string {
  return [l.firstName, l.fullName, l.email, l.phone, l.phone.replace(/\D/g, '')].join(' ').toLowerCase();
}

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

const COLUMNS = `id, agency_id, project_id, campaign_id, contact_id, queue_id, cadence_id, cadence_step, call_status,
  next_call_time, timezone, first_name, full_name, email, phone, live, caller_preference, tags, location_id,
  business_name, pipeline, campaign_name, created_at, updated_at`;

export function leadsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO leads (id, agency_id, project_id, campaign_id, contact_id, queue_id, cadence_id, cadence_step, call_status,
       next_call_time, timezone, first_name, full_name, email, phone, live, caller_preference, tags, location_id,
       business_name, pipeline, campaign_name, search, created_at, updated_at)
     VALUES (@id, @agencyId, @projectId, @campaignId, @contactId, @queueId, @cadenceId, @cadenceStep, @callStatus,
       @nextCallTime, @timezone, @firstName, @fullName, @email, @phone, @live, @callerPreference, @tags, @locationId,
       @businessName, @pipeline, @campaignName, @search, @createdAt, @updatedAt)
     ON CONFLICT (agency_id, campaign_id, contact_id) DO NOTHING`,
  );
  const get = db.prepare<[string, string], Row>(`SELECT ${COLUMNS} FROM leads WHERE agency_id = ? AND id = ?`);
  const byContactInCampaign = db.prepare<[string, string, string], Row>(
    `SELECT ${COLUMNS} FROM leads WHERE agency_id = ? AND campaign_id = ? AND contact_id = ?`,
  );
  const byContact = db.prepare<[string, string, string], Row>(`SELECT ${COLUMNS} FROM leads WHERE agency_id = ? AND location_id = ? AND contact_id = ?`);
  // A mirror that changes nothing writes nothing (a lead started as `leadCadenceWorkflow` mirrors
  // the state its enrolment stored; a state can repeat), and every write of these columns
  // maintains the indexes that hold them.
  const mirror = db.prepare(
    `UPDATE leads SET call_status = @callStatus, cadence_step = @cadenceStep, live = @live,
       next_call_time = coalesce(@nextCallTime, next_call_time), caller_preference = coalesce(@callerPreference, caller_preference),
       updated_at = @updatedAt
     WHERE agency_id = @agencyId AND id = @id
       AND (call_status IS NOT @callStatus OR cadence_step IS NOT @cadenceStep OR live IS NOT @live
         OR (@nextCallTime IS NOT NULL AND next_call_time IS NOT @nextCallTime)
         OR (@callerPreference IS NOT NULL AND caller_preference IS NOT @callerPreference))`,
  );
  const exists = db.prepare<[string, string]>('SELECT 1 FROM leads WHERE agency_id = ? AND id = ?').pluck();
  const beginCall = db.prepare<Record<string, unknown>, Row>(
    `UPDATE leads SET call_status = 'calling', cadence_step = @cadenceStep, next_call_time = @at, updated_at = @updatedAt
     WHERE agency_id = @agencyId AND id = @id AND live = 1
     RETURNING ${COLUMNS}`,
  );
  const refresh = db.prepare(
    `UPDATE leads SET first_name = @firstName, full_name = @fullName, email = @email, phone = @phone, timezone = @timezone,
       tags = @tags, pipeline = @pipeline, search = @search, updated_at = @updatedAt
     WHERE agency_id = @agencyId AND location_id = @locationId AND contact_id = @contactId`,
  );
  const remove = db.prepare('DELETE FROM leads WHERE agency_id = ? AND id = ?');
  const removeLiveOfCampaign = db.prepare<[string, string], { id: string }>(
    'DELETE FROM leads WHERE agency_id = ? AND campaign_id = ? AND live = 1 RETURNING id',
  );
  const removeLiveOfProject = db.prepare<[string, string], { id: string }>(
    'DELETE FROM leads WHERE agency_id = ? AND project_id = ? AND live = 1 RETURNING id',
  );

  const perStep = db.prepare<[string, string], { step: number; n: number }>(
    'SELECT cadence_step AS step, count(*) AS n FROM leads WHERE agency_id = ? AND campaign_id = ? AND live = 1 GROUP BY cadence_step ORDER BY cadence_step',
  );
  const recordContactEvent = db.prepare(
    'INSERT INTO contact_events (signature, agency_id, location_id, contact_id, type, received_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );

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
  const searchIndex = leadSearchWriter(db);
  /** After a write of leads: their search documents, noted by the triggers, follow within WRITE_BEHIND_MS. */
  const written = <T>(result: T): T => {
    searchIndex.soon();
    return result;
  };
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
    /** Inserts a lead; false when the contact is already in that campaign's queue (never twice). */
    insert(l: LeadRecord): boolean {
      return written(insert.run({ ...l, live: l.live ? 1 : 0, tags: JSON.stringify(l.tags), search: searchText(l) }).changes === 1);
    },
    get(agencyId: string, id: string): LeadRecord | undefined {
      const r = get.get(agencyId, id);
      return r ? fromRow(r) : undefined;
    },
    inCampaign(agencyId: string, campaignId: string, contactId: string): LeadRecord | undefined {
      const r = byContactInCampaign.get(agencyId, campaignId, contactId);
      return r ? fromRow(r) : undefined;
    },
    /** The contact's leads in every campaign of the agency on that CRM location. */
    ofContact: (agencyId: string, locationId: string, contactId: string) => byContact.all(agencyId, locationId, contactId).map(fromRow),
    /** The cadence workflow's view of the lead, written at each state change; false when the lead left. */
    mirror(agencyId: string, id: string, m: LeadMirror): boolean {
      const changed = mirror.run({
        agencyId,
        id,
        callStatus: m.callStatus,
        cadenceStep: m.cadenceStep,
        live: isLive(m.callStatus) ? 1 : 0,
        nextCallTime: m.nextCallTime ?? null,
        callerPreference: m.callerPreference ?? null,
        updatedAt: nowIso(),
      }).changes;
      return written(changed === 1) || exists.get(agencyId, id) !== undefined;
    },
    /** Marks a live lead `calling`; undefined when it left the queue or is finished (then no call is placed). */
    beginCall(agencyId: string, id: string, cadenceStep: number, at: string): LeadRecord | undefined {
      const r = written(beginCall.get({ agencyId, id, cadenceStep, at, updatedAt: nowIso() }));
      return r ? fromRow(r) : undefined;
    },
    /** Copies changed contact data onto every lead of the contact (of that location). */
    refreshContact(agencyId: string, locationId: string, contactId: string, f: LeadContactFields): void {
      written(refresh.run({ ...f, agencyId, locationId, contactId, tags: JSON.stringify(f.tags), search: searchText(f), updatedAt: nowIso() }));
    },
    remove: (agencyId: string, id: string) => written(remove.run(agencyId, id).changes === 1),
    /** Removes the leads a stopped campaign / project was still working; returns their ids. */
    removeLiveOfCampaign: (agencyId: string, campaignId: string) => written(removeLiveOfCampaign.all(agencyId, campaignId).map((r) => r.id)),
    removeLiveOfProject: (agencyId: string, projectId: string) => written(removeLiveOfProject.all(agencyId, projectId).map((r) => r.id)),
    page(q: LeadPageQuery): { leads: LeadRecord[]; total: number } {
      const { total, page } = choose(q);
      const rows = page ? (statement(page.sql).all(page.params) as Row[]) : [];
      return { leads: rows.map(fromRow), total };
    },
    /** What a page of `q` runs, each statement with SQLite's query plan (bench/lead-list.ts prints them). */
    plan(q: LeadPageQuery): { count: string; page: string | null } {
      const explain = (st: Step) =>
        `${st.sql.replace(COLUMNS, '<columns>').replace(/\s+/g, ' ')} => ${(db.prepare(`EXPLAIN QUERY PLAN ${st.sql}`).all(st.params) as { detail: string }[]).map((r) => r.detail).join(' | ')}`;
      const { count, page } = choose(q);
      return { count: explain(count), page: page && explain(page) };
    },
    /** Live leads of a campaign per cadence step. */
    perStep: (agencyId: string, campaignId: string) => perStep.all(agencyId, campaignId),
    /** Records a signed contact event's signature; false when it was seen before (a replay). */
    recordContactEvent(signature: string, agencyId: string, locationId: string, contactId: string, type: string): boolean {
      return recordContactEvent.run(signature, agencyId, locationId, contactId, type, nowIso()).changes === 1;
    },
    transaction: <T>(fn: () => T) => db.transaction(fn).immediate(),
    /** Writes the search documents of every lead written since the last flush (the searches do it first); how many. */
    flushSearch: () => searchIndex.flush(),
  };
}
export type LeadsRepo = ReturnType<typeof leadsRepo>;
