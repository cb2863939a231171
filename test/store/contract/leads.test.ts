import { beforeAll, describe, expect, it } from 'vitest';
import type { LeadCallStatus } from '../../../schemas/cadence.js';
import { isLive, type LeadPageQuery, type LeadRecord } from '../../../server/store/index.js';
import { searchText } from '../../../server/store/shared.js';
import { leadRecord } from '../../helpers/leads.js';
import { seededRandom } from '../../helpers/random.js';
import { DIALECTS, unique, useStore } from './dialects.js';

/**
 * Leads, and the lead lists (spec 4.7, 4.8) against what a plain filter of the leads answers, for
 * every list shape, search and page, through inserts, state changes, refreshes and removals.
 */
const NAMES = ['Ana Garcia', 'Bo Smith', 'Cy Nguyen', 'Dana García', 'Eli Garcias', 'Fay O’Brien', 'Gus Gar Ciano', 'Zoë Kim', 'Pat 100%_off'];
const STATUSES: LeadCallStatus[] = ['scheduled', 'calling', 'callback', 'waiting_for_window', 'completed', 'exhausted'];
const SEARCHES = [undefined, 'garcia', 'gar', 'garcias', 'a g', 'zoë', 'ï', 'o’b', 'ga', '5550', '+151255500', 'example.net', 'nothing-like-it', 'cia a', '100%', '%_', '_o'];

describe.each(DIALECTS)('leads and lead lists on %s', (dialect) => {
  const s = useStore(dialect);
  const random = seededRandom(11);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const campaigns: { agencyId: string; id: string; projectId: string; locationId: string; cadenceId: string | null }[] = [];
  const leads = new Map<string, LeadRecord>();
  const agencies = [unique('ag'), unique('ag')];
  let made = 0;

  beforeAll(async () => {
    for (const agencyId of agencies) {
      await s.store.agencies.ensure(agencyId, agencyId, 100);
      for (let p = 0; p < 2; p++) {
        const project = await s.store.projects.insert({ agencyId, crm: 'crm_a', locationId: unique('loc'), timezone: 'America/Chicago', agencyName: 'A', active: true, status: 'live', installed: true, businessName: 'B' });
        const agent = await s.store.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'a', agentType: 'outreach', capabilities: [], campaignId: null, postCallFields: [] });
        for (let c = 0; c < 2; c++) {
          const campaign = await s.store.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: `C${p}${c}`, activeTags: ['t'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: {} });
          campaigns.push({ agencyId, id: campaign.id, projectId: project.id, locationId: project.locationId, cadenceId: c === 0 ? 'cad_x' : null });
        }
      }
    }
  });

  async function addLeads(count: number) {
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < count; i++) {
      const campaign = pick(campaigns);
      const name = pick(NAMES);
      const n = made++;
      const lead = leadRecord({
        id: `lead_${Math.floor(random() * 1e9).toString(36)}_${n}`,
        agencyId: campaign.agencyId,
        projectId: campaign.projectId,
        campaignId: campaign.id,
        contactId: `ct_${n}`,
        cadenceId: campaign.cadenceId,
        cadenceStep: Math.floor(random() * 3),
        callStatus: pick(STATUSES),
        fullName: name,
        email: `${name.toLowerCase().replace(/[^a-z]/g, '.')}${n}@example.net`,
        phone: `+1512${String(5_550_000 + n)}`,
        locationId: campaign.locationId,
        // Several leads share a created_at, so the id decides their order.
        createdAt: new Date(base + Math.floor(random() * 50) * 1000).toISOString(),
      });
      expect(await s.store.leads.insert(lead)).toBe(true);
      leads.set(lead.id, lead);
    }
  }

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
    for (const agencyId of agencies) {
      const own = campaigns.filter((c) => c.agencyId === agencyId);
      for (const search of SEARCHES) {
        for (const [offset, limit] of [[0, 1], [0, 100], [3, 5], [40, 100]] as const) {
          for (let step = 0; step < 3; step++) out.push({ agencyId, mode: 'pipeline', cadenceStep: step, search, limit, offset });
          out.push({ agencyId, mode: 'parked', search, limit, offset });
        }
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 1, search, campaignIds: [own[0]!.id], limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, campaignIds: [own[1]!.id, own[2]!.id], limit: 10, offset: 2 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, campaignIds: [], limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 2, search, projectId: own[0]!.projectId, limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 1, search, projectIds: [own[0]!.projectId, own[3]!.projectId], limit: 10, offset: 1 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, projectIds: [own[3]!.projectId], campaignIds: [own[2]!.id, own[3]!.id], limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'parked', search, projectIds: [own[0]!.projectId], limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, projectIds: [], limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 1, search, cadenceId: 'cad_x', limit: 5, offset: 1 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 2, search, cadenceId: 'cad_x', projectIds: [own[3]!.projectId], limit: 3, offset: 1 });
        out.push({ agencyId, mode: 'parked', search, cadenceId: 'cad_x', limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'pipeline', cadenceStep: 0, search, cadenceId: 'cad_none', limit: 10, offset: 0 });
        out.push({ agencyId, mode: 'parked', search, campaignIds: [own[3]!.id], limit: 10, offset: 0 });
      }
    }
    return out;
  }

  /** Every answer exact as it is, with no sync first: a page answers for every committed write. */
  async function expectListsExact() {
    for (const q of queries()) {
      const got = await s.store.leadSearch.page(q);
      expect({ q, total: got.total, ids: got.leads.map((l) => l.id) }).toEqual({ q, ...expected(q) });
    }
  }

  it('a lead is inserted once per campaign and contact, read by id, by campaign and contact, and by contact', async () => {
    await addLeads(300);
    const lead = [...leads.values()][0]!;
    expect(await s.store.leads.get(lead.agencyId, lead.id)).toEqual(lead);
    expect(await s.store.leads.get(agencies.find((a) => a !== lead.agencyId)!, lead.id)).toBeUndefined();
    expect(await s.store.leads.inCampaign(lead.agencyId, lead.campaignId, lead.contactId)).toEqual(lead);
    expect(await s.store.leads.inCampaign(lead.agencyId, lead.campaignId, 'ct_none')).toBeUndefined();
    expect(await s.store.leads.insert({ ...lead, id: unique('lead') })).toBe(false);
    // The same contact in another campaign of the location is another lead.
    const sibling = campaigns.find((c) => c.agencyId === lead.agencyId && c.locationId === lead.locationId && c.id !== lead.campaignId)!;
    const second = { ...lead, id: unique('lead'), campaignId: sibling.id, cadenceId: sibling.cadenceId };
    expect(await s.store.leads.insert(second)).toBe(true);
    leads.set(second.id, second);
    expect((await s.store.leads.ofContact(lead.agencyId, lead.locationId, lead.contactId)).map((l) => l.id).sort()).toEqual([lead.id, second.id].sort());
    expect(await s.store.leads.ofContact(lead.agencyId, 'loc_none', lead.contactId)).toEqual([]);
  });

  it('every list shape, search and page answers what the leads hold', async () => {
    await addLeads(300);
    await expectListsExact();
  });

  it('after state changes, contact refreshes and removals', async () => {
    const ids = [...leads.keys()];
    for (let i = 0; i < 150; i++) {
      const lead = leads.get(pick(ids))!;
      if (!lead) continue;
      const callStatus = pick(STATUSES);
      const cadenceStep = Math.floor(random() * 3);
      if (await s.store.leads.mirror(lead.agencyId, lead.id, { callStatus, cadenceStep })) leads.set(lead.id, { ...(await s.store.leads.get(lead.agencyId, lead.id))! });
    }
    for (let i = 0; i < 40; i++) {
      const lead = leads.get(pick(ids));
      if (!lead) continue;
      const name = pick(NAMES);
      const fields = { firstName: name.split(' ')[0]!, fullName: name, email: `${i}@renamed.org`, phone: lead.phone, timezone: 'Europe/Paris', tags: ['t'], pipeline: 'p' };
      await s.store.leads.refreshContact(lead.agencyId, lead.locationId, lead.contactId, fields);
      for (const l of leads.values()) if (l.agencyId === lead.agencyId && l.locationId === lead.locationId && l.contactId === lead.contactId) leads.set(l.id, { ...l, ...fields, updatedAt: (await s.store.leads.get(l.agencyId, l.id))!.updatedAt });
    }
    for (let i = 0; i < 60; i++) {
      const id = pick(ids);
      const lead = leads.get(id);
      if (lead && (await s.store.leads.remove(lead.agencyId, id))) leads.delete(id);
    }
    const stopped = campaigns[1]!;
    const live = [...leads.values()].filter((l) => l.campaignId === stopped.id && l.live).map((l) => l.id);
    const removed = await s.store.leads.removeLiveOfCampaign(stopped.agencyId, stopped.id);
    expect(removed.sort()).toEqual(live.sort());
    for (const id of removed) leads.delete(id);
    const stoppedProject = campaigns[5]!;
    const liveOfProject = [...leads.values()].filter((l) => l.agencyId === stoppedProject.agencyId && l.projectId === stoppedProject.projectId && l.live).map((l) => l.id);
    const removedOfProject = await s.store.leads.removeLiveOfProject(stoppedProject.agencyId, stoppedProject.projectId);
    expect(removedOfProject.sort()).toEqual(liveOfProject.sort());
    for (const id of removedOfProject) leads.delete(id);
    for (const l of leads.values()) expect(await s.store.leads.get(l.agencyId, l.id)).toEqual(l);
    await expectListsExact();
  });

  it('a mirror that changes nothing writes nothing; one whose lead left reads false; beginCall marks a live lead calling', async () => {
    const lead = [...leads.values()].find((l) => l.callStatus === 'scheduled')!;
    const before = (await s.store.leads.get(lead.agencyId, lead.id))!;
    expect(await s.store.leads.mirror(lead.agencyId, lead.id, { callStatus: before.callStatus, cadenceStep: before.cadenceStep, nextCallTime: before.nextCallTime })).toBe(true);
    expect(await s.store.leads.get(lead.agencyId, lead.id)).toEqual(before);
    const later = new Date(Date.parse(before.nextCallTime) + 60_000).toISOString();
    expect(await s.store.leads.mirror(lead.agencyId, lead.id, { callStatus: before.callStatus, cadenceStep: before.cadenceStep, nextCallTime: later, callerPreference: 'evenings' })).toBe(true);
    const after = (await s.store.leads.get(lead.agencyId, lead.id))!;
    expect(after).toMatchObject({ nextCallTime: later, callerPreference: 'evenings', callStatus: before.callStatus });
    expect(after.updatedAt >= before.updatedAt).toBe(true);
    const other = agencies.find((a) => a !== lead.agencyId)!;
    expect(await s.store.leads.mirror(other, lead.id, { callStatus: 'completed', cadenceStep: 0 })).toBe(false);

    const begun = (await s.store.leads.beginCall(lead.agencyId, lead.id, 2, later))!;
    expect(begun).toMatchObject({ id: lead.id, callStatus: 'calling', cadenceStep: 2, nextCallTime: later, live: true });
    expect(await s.store.leads.beginCall(other, lead.id, 2, later)).toBeUndefined();
    expect(await s.store.leads.mirror(lead.agencyId, lead.id, { callStatus: 'completed', cadenceStep: 2 })).toBe(true);
    expect(await s.store.leads.get(lead.agencyId, lead.id)).toMatchObject({ callStatus: 'completed', live: false, nextCallTime: later });
    expect(await s.store.leads.beginCall(lead.agencyId, lead.id, 2, later)).toBeUndefined();
    expect(await s.store.leads.remove(lead.agencyId, lead.id)).toBe(true);
    expect(await s.store.leads.remove(lead.agencyId, lead.id)).toBe(false);
    expect(await s.store.leads.mirror(lead.agencyId, lead.id, { callStatus: 'scheduled', cadenceStep: 0 })).toBe(false);
    leads.delete(lead.id);
    for (const l of leads.values()) leads.set(l.id, (await s.store.leads.get(l.agencyId, l.id))!);
    await expectListsExact();
  });

  it('sync (SQLite: the search documents written behind; Postgres: the counts\' changes folded) changes no answer', async () => {
    await addLeads(50);
    const ids = [...leads.keys()];
    for (let i = 0; i < 30; i++) {
      const lead = leads.get(pick(ids));
      if (lead && (await s.store.leads.mirror(lead.agencyId, lead.id, { callStatus: pick(STATUSES), cadenceStep: Math.floor(random() * 3) }))) leads.set(lead.id, (await s.store.leads.get(lead.agencyId, lead.id))!);
    }
    // What it writes depends on what a background flush or fold did meanwhile; then there is nothing left.
    await s.store.leadSearch.sync();
    expect(await s.store.leadSearch.sync()).toBe(0);
    await expectListsExact();
  });

  it('perStep counts a campaign\'s live leads per step; a contact event signature is recorded once', async () => {
    for (const c of campaigns.slice(0, 4)) {
      const want = new Map<number, number>();
      for (const l of leads.values()) if (l.agencyId === c.agencyId && l.campaignId === c.id && isLive(l.callStatus)) want.set(l.cadenceStep, (want.get(l.cadenceStep) ?? 0) + 1);
      expect(await s.store.leads.perStep(c.agencyId, c.id)).toEqual([...want].sort(([a], [b]) => a - b).map(([step, n]) => ({ step, n })));
    }
    expect(await s.store.leads.perStep(agencies[0]!, 'cmp_none')).toEqual([]);
    const sig = unique('sig');
    expect(await s.store.leads.recordContactEvent(sig, agencies[0]!, 'loc', 'ct', 'contact.updated')).toBe(true);
    expect(await s.store.leads.recordContactEvent(sig, agencies[0]!, 'loc', 'ct', 'contact.updated')).toBe(false);
    expect(await s.store.leads.recordContactEvent(sig, agencies[1]!, 'loc', 'ct', 'contact.updated')).toBe(true);
  });

  it('explain names the statements a page runs', async () => {
    const plan = await s.store.leadSearch.explain({ agencyId: agencies[0]!, mode: 'pipeline', cadenceStep: 0, search: 'garcia', limit: 10, offset: 0 });
    expect(plan.count).toMatch(/count/i);
    expect(plan.count).toMatch(/=>/);
    expect(plan.page).toMatch(/ORDER BY created_at, id/);
  });
});
