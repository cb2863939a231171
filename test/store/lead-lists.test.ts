import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadCallStatus } from '../../schemas/cadence.js';
import { sqliteRepositories } from '../../server/store/sqlite/store.js';
import { openDb, type Db } from '../../server/store/sqlite/db.js';
import { isLive, type LeadPageQuery, type LeadRecord } from '../../server/store/index.js';
import { searchText } from '../../server/store/sqlite/leads.js';
import { backfillLeads } from '../../server/store/sqlite/migrations/backfill-leads.js';
import { FILL_012 } from '../../server/store/sqlite/migrations/012-lead-search-cadences.js';
import { leadRecord } from '../helpers/leads.js';
import { seededRandom } from '../helpers/random.js';

/**
 * Lead lists (migration 010): counts kept by triggers, and the FTS5 search index, must answer
 * exactly what a plain filter of the table answers, through inserts, state changes, contact
 * refreshes and removals, for two agencies side by side.
 */
const NAMES = ['Ana Garcia', 'Bo Smith', 'Cy Nguyen', 'Dana García', 'Eli Garcias', 'Fay O’Brien', 'Gus Gar Ciano', 'Zoë Kim'];
const STATUSES: LeadCallStatus[] = ['scheduled', 'calling', 'callback', 'waiting_for_window', 'completed', 'exhausted'];

let dir: string;
let db: Db;
let repos: ReturnType<typeof sqliteRepositories>;
const campaigns: { agencyId: string; id: string; projectId: string; locationId: string; cadenceId: string | null }[] = [];
const leads = new Map<string, LeadRecord>();

const random = seededRandom(7);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-lead-lists-'));
  db = openDb(path.join(dir, 'app.db'));
  repos = sqliteRepositories(db);
  for (const agencyId of ['ag_one', 'ag_two']) {
    repos.agencies.ensure(agencyId, agencyId, 100);
    for (let p = 0; p < 2; p++) {
      const project = repos.projects.insert({ agencyId, crm: 'crm_a', locationId: `loc_${agencyId}_${p}`, timezone: 'America/Chicago', agencyName: 'A', active: true, status: 'live', installed: true, businessName: 'B' });
      const agent = repos.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'a', agentType: 'outreach', capabilities: [], campaignId: null, postCallFields: [] } as never);
      for (let c = 0; c < 2; c++) {
        const campaign = repos.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: `C${p}${c}`, activeTags: ['t'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: {} });
        campaigns.push({ agencyId, id: campaign.id, projectId: project.id, locationId: project.locationId, cadenceId: c === 0 ? 'cad_x' : null });
      }
    }
  }
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function addLeads(count: number) {
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < count; i++) {
    const campaign = pick(campaigns);
    const name = pick(NAMES);
    const status = pick(STATUSES);
    const n = leads.size;
    // Several leads share a created_at, so the id decides their order.
    const at = new Date(base + Math.floor(random() * 50) * 1000).toISOString();
    const lead = leadRecord({
      id: `lead_${Math.floor(random() * 1e9).toString(36)}_${n}`,
      agencyId: campaign.agencyId,
      projectId: campaign.projectId,
      campaignId: campaign.id,
      contactId: `ct_${n}`,
      cadenceId: campaign.cadenceId,
      cadenceStep: Math.floor(random() * 3),
      callStatus: status,
      fullName: name,
      email: `${name.toLowerCase().replace(/[^a-z]/g, '.')}${n}@example.net`,
      phone: `+1512${String(5_550_000 + n)}`,
      locationId: campaign.locationId,
      createdAt: at,
    });
    expect(repos.leads.insert(lead)).toBe(true);
    leads.set(lead.id, lead);
  }
}

/** What the list must answer: the table filtered in JavaScript, oldest first, then by id. */
function expected(q: LeadPageQuery) {
  const all = [...leads.values()]
    .filter((l) => l.agencyId === q.agencyId)
    .filter((l) => (q.mode === 'pipeline' ? ['scheduled', 'calling', 'callback'].includes(l.callStatus) && l.cadenceStep === q.cadenceStep : l.callStatus === 'waiting_for_window'))
    .filter((l) => q.projectId === undefined || l.projectId === q.projectId)
    .filter((l) => q.projectId !== undefined || q.projectIds === undefined || q.projectIds.includes(l.projectId))
    .filter((l) => q.campaignIds === undefined || q.campaignIds.includes(l.campaignId))
    .filter((l) => q.cadenceId === undefined || l.cadenceId === q.cadenceId)
    .filter((l) => !q.search || searchText(l).includes(q.search))
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { total: all.length, ids: all.slice(q.offset, q.offset + q.limit).map((l) => l.id) };
}

function queries(): LeadPageQuery[] {
  const out: LeadPageQuery[] = [];
  const searches = [undefined, 'garcia', 'gar', 'garcias', 'a g', 'zoë', 'ï', 'o’b', 'ga', '5550', '+151255500', 'example.net', 'nothing-like-it', 'cia a'];
  for (const agencyId of ['ag_one', 'ag_two']) {
    const own = campaigns.filter((c) => c.agencyId === agencyId);
    for (const search of searches) {
      for (const offset of [0, 3, 40]) {
        for (const limit of [1, 5, 100]) {
          for (let step = 0; step < 3; step++) out.push({ agencyId, mode: 'pipeline', cadenceStep: step, search, limit, offset });
          out.push({ agencyId, mode: 'parked', search, limit, offset });
        }
      }
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 1, search, campaignIds: [own[0]!.id], limit: 10, offset: 0 });
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, campaignIds: [own[1]!.id, own[2]!.id], limit: 10, offset: 2 });
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 2, search, projectId: own[0]!.projectId, limit: 10, offset: 0 });
      // A project_user key's view: its projects, alone or with a campaign; none at all sees nothing.
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 1, search, projectIds: [own[0]!.projectId, own[3]!.projectId], limit: 10, offset: 1 });
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, projectIds: [own[3]!.projectId], campaignIds: [own[2]!.id, own[3]!.id], limit: 10, offset: 0 });
      out.push({ agencyId, mode: 'parked', search, projectIds: [own[0]!.projectId], limit: 10, offset: 0 });
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, projectIds: [], limit: 10, offset: 0 });
      // A cadence's leads (its word in the documents since migration 012), at several pages, with
      // other filters, parked, and a cadence no lead follows.
      for (const [offset, limit] of [[0, 1], [1, 10], [7, 5], [40, 100]] as const) {
        out.push({ agencyId, mode: 'pipeline', cadenceStep: offset % 3, search, cadenceId: 'cad_x', limit, offset });
      }
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 1, search, cadenceId: 'cad_x', campaignIds: [own[0]!.id, own[1]!.id], limit: 10, offset: 0 });
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 2, search, cadenceId: 'cad_x', projectIds: [own[3]!.projectId], limit: 3, offset: 1 });
      out.push({ agencyId, mode: 'parked', search, cadenceId: 'cad_x', limit: 10, offset: 0 });
      out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, cadenceId: 'cad_none', limit: 10, offset: 0 });
      out.push({ agencyId, mode: 'parked', search, campaignIds: [own[3]!.id], limit: 10, offset: 0 });
    }
  }
  return out;
}

function expectListsExact() {
  for (const q of queries()) {
    const got = repos.leadSearch.page(q);
    const want = expected(q);
    expect({ q, total: got.total, ids: got.leads.map((l) => l.id) }).toEqual({ q, ...want });
  }
}

describe('lead lists: counts and the search index stay exact', () => {
  it('after inserts, for both agencies, every list shape, search and page', () => {
    addLeads(600);
    expectListsExact();
  });

  it('after cadence state changes, contact refreshes and removals (the triggers)', () => {
    const ids = [...leads.keys()];
    for (let i = 0; i < 200; i++) {
      const lead = leads.get(pick(ids))!;
      const callStatus = pick(STATUSES);
      const cadenceStep = Math.floor(random() * 3);
      if (repos.leads.mirror(lead.agencyId, lead.id, { callStatus, cadenceStep })) leads.set(lead.id, { ...lead, callStatus, cadenceStep, live: isLive(callStatus) });
    }
    for (let i = 0; i < 60; i++) {
      const lead = leads.get(pick(ids))!;
      const name = pick(NAMES);
      const fields = { firstName: name.split(' ')[0]!, fullName: name, email: `${i}@renamed.org`, phone: lead.phone, timezone: lead.timezone, tags: [], pipeline: '' };
      repos.leads.refreshContact(lead.agencyId, lead.locationId, lead.contactId, fields);
      for (const l of leads.values()) if (l.agencyId === lead.agencyId && l.locationId === lead.locationId && l.contactId === lead.contactId) leads.set(l.id, { ...l, ...fields });
    }
    for (let i = 0; i < 80; i++) {
      const id = pick(ids);
      const lead = leads.get(id);
      if (lead && repos.leads.remove(lead.agencyId, id)) leads.delete(id);
    }
    const stopped = campaigns[1]!;
    for (const id of repos.leads.removeLiveOfCampaign(stopped.agencyId, stopped.id)) leads.delete(id);
    expectListsExact();
    // A lead beginning a call moves to `calling` at its step: still listed, same counts.
    const live = [...leads.values()].find((l) => l.callStatus === 'scheduled')!;
    const begun = repos.leads.beginCall(live.agencyId, live.id, 2, live.nextCallTime)!;
    leads.set(live.id, { ...live, callStatus: begun.callStatus, cadenceStep: 2 });
    expectListsExact();
  });

  it('after the index is rewritten in batches, as an upgrade rewrites it, telling how far it is', () => {
    // Documents still behind their rows (migration 013) would come back with the next search.
    repos.leadSearch.sync();
    db.exec("INSERT INTO lead_search (lead_search) VALUES ('delete-all')");
    const q: LeadPageQuery = { agencyId: 'ag_one', mode: 'pipeline', cadenceStep: 0, search: 'garcia', limit: 10, offset: 0 };
    expect(expected(q).total).toBeGreaterThan(0);
    expect(repos.leadSearch.page(q).total).toBe(0);
    const total = db.prepare('SELECT count(*) FROM leads').pluck().get() as number;
    const told: [number, number, string][] = [];
    db.transaction(() => backfillLeads(db, FILL_012, (done, of, unit) => told.push([done, of, unit]), 97))();
    expect(told).toEqual(Array.from({ length: Math.ceil(total / 97) }, (_, i) => [Math.min(total, (i + 1) * 97), total, 'leads']));
    expectListsExact();
  });

  it('a mirror that changes nothing writes nothing; one whose lead left reads false', () => {
    const changes = db.prepare('SELECT total_changes()').pluck() as { get(): number };
    const lead = [...leads.values()].find((l) => l.callStatus === 'scheduled')!;
    const before = repos.leads.get(lead.agencyId, lead.id)!;
    const written = changes.get();
    // A mirror of the state the row already holds (what a `leadCadenceWorkflow` lead's first mirror sends).
    expect(repos.leads.mirror(lead.agencyId, lead.id, { callStatus: before.callStatus, cadenceStep: before.cadenceStep, nextCallTime: before.nextCallTime })).toBe(true);
    expect(changes.get()).toBe(written);
    expect(repos.leads.get(lead.agencyId, lead.id)).toEqual(before);
    // Any field that differs is written, with the row's updatedAt.
    const later = new Date(Date.parse(before.nextCallTime) + 60_000).toISOString();
    expect(repos.leads.mirror(lead.agencyId, lead.id, { callStatus: before.callStatus, cadenceStep: before.cadenceStep, nextCallTime: later })).toBe(true);
    expect(changes.get()).toBe(written + 1);
    expect(repos.leads.get(lead.agencyId, lead.id)).toMatchObject({ nextCallTime: later, callStatus: before.callStatus });
    expect(repos.leads.get(lead.agencyId, lead.id)!.updatedAt).not.toBe(before.updatedAt);
    expect(repos.leads.mirror(lead.agencyId, lead.id, { callStatus: before.callStatus, cadenceStep: before.cadenceStep, callerPreference: 'evenings' })).toBe(true);
    expect(repos.leads.get(lead.agencyId, lead.id)!.callerPreference).toBe('evenings');
    leads.set(lead.id, { ...lead, nextCallTime: later, callerPreference: 'evenings' });
    // The same call for another agency's id finds no lead: false, nothing written.
    const other = lead.agencyId === 'ag_one' ? 'ag_two' : 'ag_one';
    expect(repos.leads.mirror(other, lead.id, { callStatus: 'completed', cadenceStep: 0 })).toBe(false);
    expect(repos.leads.remove(lead.agencyId, lead.id)).toBe(true);
    leads.delete(lead.id);
    expect(repos.leads.mirror(lead.agencyId, lead.id, { callStatus: before.callStatus, cadenceStep: before.cadenceStep })).toBe(false);
    expectListsExact();
  });

  it('reads the index and the counts, not a walk of the list (query plans)', () => {
    const plan = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan('SELECT count(*) FROM lead_search WHERE lead_search MATCH ?', '"x"')).toMatch(/VIRTUAL TABLE INDEX/);
    // A search of some campaigns, projects (migration 011) or a cadence (012) is counted from the
    // index too, not by walking their leads; a search too short for the index still walks.
    const own = campaigns.filter((c) => c.agencyId === 'ag_one');
    const q = { agencyId: 'ag_one', mode: 'pipeline', cadenceStep: 0, search: 'garcia', limit: 10, offset: 0 } as const;
    const fromIndex = /^SELECT count\(\*\) FROM lead_search WHERE lead_search MATCH @phrase => .*VIRTUAL TABLE INDEX/;
    expect(repos.leadSearch.explain({ ...q, campaignIds: [own[0]!.id, own[2]!.id] }).count).toMatch(fromIndex);
    expect(repos.leadSearch.explain({ ...q, projectId: own[0]!.projectId }).count).toMatch(fromIndex);
    expect(repos.leadSearch.explain({ ...q, projectIds: [own[0]!.projectId, own[3]!.projectId], campaignIds: [own[3]!.id] }).count).toMatch(fromIndex);
    expect(repos.leadSearch.explain({ ...q, cadenceId: 'cad_x' }).count).toMatch(fromIndex);
    expect(repos.leadSearch.explain({ ...q, cadenceId: 'cad_x', campaignIds: [own[0]!.id] }).count).toMatch(fromIndex);
    expect(repos.leadSearch.explain({ ...q, cadenceId: 'cad_x', search: 'ga' }).count).toMatch(/instr\(search, @search\)/);
    expect(plan("SELECT coalesce(sum(n), 0) FROM lead_list_counts WHERE agency_id = ? AND list = 'p' AND cadence_step = ?", 'a', 0)).toMatch(
      /SEARCH lead_list_counts USING PRIMARY KEY \(agency_id=\? AND list=\? AND cadence_step=\?\)/,
    );
  });
});
