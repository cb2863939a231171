import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sqliteRepositories } from '../../server/store/sqlite/store.js';
import { openDb, type Db } from '../../server/store/sqlite/db.js';
import { WRITE_BEHIND_MS } from '../../server/store/sqlite/lead-search-flush.js';
import type { LeadPageQuery, LeadRecord } from '../../server/store/index.js';
import { leadSearchPhrase } from '../../server/store/sqlite/lead-search.js';
import { leadRecord } from '../helpers/leads.js';

/**
 * A lead's search document is written behind its row (migration 013): the write notes the lead,
 * a flush a moment later (or before any search) writes the documents. What must hold: a search
 * sees every committed write, whichever connection made it and whether or not it was flushed;
 * a crash loses no document; a flush with no search behind it comes on its own.
 */
const AGENCY = 'ag_wb';
let dir: string;
let file: string;
let db: Db;
let repos: ReturnType<typeof sqliteRepositories>;
let campaign: { id: string; projectId: string; locationId: string };
let n = 0;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-lead-search-wb-'));
  file = path.join(dir, 'app.db');
  db = openDb(file);
  repos = sqliteRepositories(db);
  repos.agencies.ensure(AGENCY, AGENCY, 100);
  const project = repos.projects.insert({ agencyId: AGENCY, crm: 'crm_a', locationId: 'loc_wb', timezone: 'America/Chicago', agencyName: 'A', active: true, status: 'live', installed: true, businessName: 'B' });
  const agent = repos.agents.insert({ agencyId: AGENCY, projectId: project.id, locationId: project.locationId, name: 'a', agentType: 'outreach', capabilities: [], campaignId: null, postCallFields: [] } as never);
  const c = repos.campaigns.insert({ agencyId: AGENCY, projectId: project.id, agentId: agent.id, name: 'C', activeTags: ['t'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: {} });
  campaign = { id: c.id, projectId: project.id, locationId: project.locationId };
});
afterEach(() => {
  vi.useRealTimers();
  if (db.open) db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function lead(fullName: string): LeadRecord {
  n++;
  const at = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  return leadRecord({ id: `lead_wb_${n}`, agencyId: AGENCY, projectId: campaign.projectId, locationId: campaign.locationId, campaignId: campaign.id, contactId: `ct_wb_${n}`, fullName, phone: `+1512555${String(1000 + n)}`, createdAt: at });
}

const query = (search: string): LeadPageQuery => ({ agencyId: AGENCY, mode: 'pipeline', cadenceStep: 0, search, limit: 25, offset: 0 });
const found = (search: string, r = repos) => r.leadSearch.page(query(search)).leads.map((l) => l.fullName);
const noted = (d = db) => d.prepare('SELECT count(*) FROM lead_search_pending').pluck().get() as number;
/** What the index alone holds for a search, with no flush in front of it. */
const indexed = (search: string) => {
  const agencyNo = db.prepare('SELECT rowid FROM agencies WHERE id = ?').pluck().get(AGENCY) as number;
  return db.prepare('SELECT count(*) FROM lead_search WHERE lead_search MATCH ?').pluck().get(leadSearchPhrase(agencyNo, 'p', 0, search)) as number;
};

describe('lead search documents written behind their rows', () => {
  it('a new lead is noted, not indexed, until a search flushes it first: the search finds it', () => {
    expect(repos.leads.insert(lead('Ana Garcia'))).toBe(true);
    expect(noted()).toBe(1);
    expect(indexed('garcia')).toBe(0);
    expect(found('garcia')).toEqual(['Ana Garcia']);
    expect(noted()).toBe(0);
    expect(indexed('garcia')).toBe(1);
  });

  it('with no search, the writes of a burst are flushed together WRITE_BEHIND_MS later', () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    for (const name of ['Ana Garcia', 'Bo Garcia', 'Cy Garcia']) repos.leads.insert(lead(name));
    expect(noted()).toBe(3);
    vi.advanceTimersByTime(WRITE_BEHIND_MS - 1);
    expect(noted()).toBe(3);
    vi.advanceTimersByTime(1);
    expect(noted()).toBe(0);
    expect(indexed('garcia')).toBe(3);
  });

  it('a rename, a move out of the list and a removal before the flush leave no stale document', () => {
    const [a, b, c] = ['Ana Garcia', 'Bo Garcia', 'Cy Garcia'].map(lead);
    for (const l of [a!, b!, c!]) repos.leads.insert(l);
    expect(found('garcia')).toHaveLength(3);
    repos.leads.refreshContact(AGENCY, campaign.locationId, a!.contactId, { firstName: 'Ana', fullName: 'Ana Moreno', email: '', phone: a!.phone, timezone: a!.timezone, tags: [], pipeline: '' });
    repos.leads.mirror(AGENCY, b!.id, { callStatus: 'completed', cadenceStep: 0 });
    repos.leads.remove(AGENCY, c!.id);
    expect(noted()).toBe(3);
    expect(found('garcia')).toEqual([]);
    expect(found('moreno')).toEqual(['Ana Moreno']);
    expect(indexed('garcia')).toBe(0);
  });

  it('a lead that takes a removed lead’s rowid before the flush gets its own document', () => {
    const old = lead('Zelda Quinn');
    repos.leads.insert(old);
    expect(found('zelda')).toEqual(['Zelda Quinn']);
    const rowid = (id: string) => db.prepare('SELECT rowid FROM leads WHERE id = ?').pluck().get(id);
    const oldRowid = rowid(old.id);
    repos.leads.remove(AGENCY, old.id);
    const next = lead('Yorick Pell');
    repos.leads.insert(next);
    // SQLite gives the next row the highest rowid plus one: the removed lead's.
    expect(rowid(next.id)).toBe(oldRowid);
    expect(found('zelda')).toEqual([]);
    expect(found('yorick')).toEqual(['Yorick Pell']);
  });

  it('notes outlive the process that wrote them: another connection’s search writes their documents', () => {
    repos.leads.insert(lead('Ana Garcia'));
    repos.leads.insert(lead('Bo Smith'));
    // The writer goes away before its flush is due (a crash, or a process that exits).
    db.close();
    const other = openDb(file);
    try {
      const otherRepos = sqliteRepositories(other);
      expect(noted(other)).toBe(2);
      expect(found('garcia', otherRepos)).toEqual(['Ana Garcia']);
      expect(found('smith', otherRepos)).toEqual(['Bo Smith']);
      expect(noted(other)).toBe(0);
    } finally {
      other.close();
    }
  });

  it('a search from one connection sees what another wrote and did not flush', () => {
    const reader = openDb(file);
    try {
      const readerRepos = sqliteRepositories(reader);
      expect(found('garcia', readerRepos)).toEqual([]);
      repos.leads.insert(lead('Ana Garcia'));
      expect(found('garcia', readerRepos)).toEqual(['Ana Garcia']);
    } finally {
      reader.close();
    }
  });
});
