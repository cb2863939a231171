import { describe, expect, it } from 'vitest';
import { creationOrder, DIALECTS, unique, useStore, world } from './dialects.js';

describe.each(DIALECTS)('projects, agents, campaigns and cadences on %s', (dialect) => {
  const s = useStore(dialect);

  it('a project is found by id or location, per agency; deleted ones are hidden; countLive counts live ones', async () => {
    const { agencyId, project } = await world(s.store);
    const other = await world(s.store);
    expect(await s.store.projects.get(agencyId, project.id)).toEqual(project);
    expect(await s.store.projects.find(agencyId, project.id)).toEqual(project);
    expect(await s.store.projects.find(agencyId, project.locationId)).toEqual(project);
    expect(await s.store.projects.atLocation(agencyId, project.locationId)).toEqual(project);
    expect(await s.store.projects.atLocation(agencyId, project.id)).toBeUndefined();
    expect(await s.store.projects.get(other.agencyId, project.id)).toBeUndefined();
    expect(await s.store.projects.find(other.agencyId, project.locationId)).toBeUndefined();
    expect(await s.store.projects.countLive(agencyId)).toBe(1);

    const stopped = await s.store.projects.insert({ agencyId, crm: 'crm_b', locationId: unique('loc'), timezone: null, agencyName: null, active: false, status: 'stopped', installed: true, businessName: null, crm_b: { accountId: 'acc' } });
    expect(stopped).toMatchObject({ agencyId, crm: 'crm_b', status: 'stopped', crm_b: { accountId: 'acc' } });
    expect(stopped.createdAt).toBe(stopped.updatedAt);
    expect(await s.store.projects.countLive(agencyId)).toBe(1);
    expect((await s.store.projects.list(agencyId)).map((p) => p.id)).toEqual(creationOrder([project, stopped]));

    const saved = await s.store.projects.save({ ...stopped, status: 'live', active: true, timezone: 'Europe/Paris', extra: { color: 'blue' } });
    expect(saved.updatedAt >= stopped.updatedAt).toBe(true);
    expect(await s.store.projects.get(agencyId, stopped.id)).toEqual(saved);
    expect(await s.store.projects.countLive(agencyId)).toBe(2);

    const at = new Date().toISOString();
    await s.store.projects.save({ ...saved, deletedAt: at, status: 'disconnected', active: false });
    expect(await s.store.projects.get(agencyId, stopped.id)).toBeUndefined();
    expect(await s.store.projects.find(agencyId, stopped.locationId)).toBeUndefined();
    expect((await s.store.projects.list(agencyId)).map((p) => p.id)).toEqual([project.id]);
    expect(await s.store.projects.countLive(agencyId)).toBe(1);
    // A deleted project's location can be connected again.
    const again = await s.store.projects.insert({ agencyId, crm: 'crm_a', locationId: stopped.locationId, timezone: null, agencyName: null, active: true, status: 'live', installed: true, businessName: null });
    expect(await s.store.projects.atLocation(agencyId, stopped.locationId)).toEqual(again);
    // Two live projects may not share a location.
    await expect(s.store.projects.insert({ agencyId, crm: 'crm_a', locationId: stopped.locationId, timezone: null, agencyName: null, active: true, status: 'live', installed: true, businessName: null })).rejects.toThrow();
  });

  it('reads for update inside a transaction answer what reads outside do', async () => {
    const { agencyId, project, agent, campaign } = await world(s.store);
    const cadence = await s.store.cadences.insert({ agencyId, name: 'c', steps: [{ delayMinutes: 0 }] });
    await s.store.withTransaction(async (tx) => {
      expect(await tx.projects.get(agencyId, project.id, { forUpdate: true })).toEqual(project);
      expect(await tx.projects.find(agencyId, project.locationId, { forUpdate: true })).toEqual(project);
      expect(await tx.projects.atLocation(agencyId, project.locationId, { forUpdate: true })).toEqual(project);
      expect(await tx.agents.get(agencyId, agent.id, { forUpdate: true })).toEqual(agent);
      expect(await tx.campaigns.get(agencyId, campaign.id, { forUpdate: true })).toEqual(campaign);
      expect(await tx.cadences.get(agencyId, cadence.id, { forUpdate: true })).toEqual(cadence);
      expect(await tx.projects.get(agencyId, unique('none'), { forUpdate: true })).toBeUndefined();
    });
  });

  it('agents: insert, get, list in creation order, save; per agency', async () => {
    const { agencyId, project, agent } = await world(s.store);
    const other = await world(s.store);
    expect(agent.id).toMatch(/^agt_/);
    expect(await s.store.agents.get(agencyId, agent.id)).toEqual(agent);
    expect(await s.store.agents.get(other.agencyId, agent.id)).toBeUndefined();
    const second = await s.store.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'Second', agentType: 'inbound', capabilities: [], campaignId: null, postCallFields: [{ name: 'x', type: 'text', platformManaged: false }], voice: 'v', prompt: 'p', vapiAssistantId: 'asst' });
    expect((await s.store.agents.list(agencyId)).map((a) => a.id)).toEqual(creationOrder([agent, second]));
    const saved = await s.store.agents.save({ ...second, name: 'Renamed', campaignId: 'cmp_x' });
    expect(await s.store.agents.get(agencyId, second.id)).toEqual(saved);
    expect(saved.name).toBe('Renamed');
    expect(await s.store.agents.list(unique('none'))).toEqual([]);
  });

  it('campaigns: insert, get, list by project and by agent in creation order, save', async () => {
    const { agencyId, project, agent, campaign } = await world(s.store);
    const other = await world(s.store);
    expect(campaign.id).toMatch(/^cmp_/);
    const second = await s.store.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: 'Second', activeTags: [], inactiveTags: ['dnc'], dialing: null, agentType: 'x', fromNumbers: ['+15125550100'], active: false, callingWindow: { days: [1] }, config: { cadenceId: 'cad_1' } });
    expect(await s.store.campaigns.get(agencyId, second.id)).toEqual(second);
    expect(await s.store.campaigns.get(other.agencyId, second.id)).toBeUndefined();
    expect((await s.store.campaigns.listByProject(agencyId, project.id)).map((c) => c.id)).toEqual(creationOrder([campaign, second]));
    expect((await s.store.campaigns.listByAgent(agencyId, agent.id)).map((c) => c.id)).toEqual(creationOrder([campaign, second]));
    expect(await s.store.campaigns.listByProject(other.agencyId, project.id)).toEqual([]);
    expect(await s.store.campaigns.listByAgent(other.agencyId, agent.id)).toEqual([]);
    const saved = await s.store.campaigns.save({ ...second, active: true, fromNumbers: [] });
    expect(await s.store.campaigns.get(agencyId, second.id)).toEqual(saved);
  });

  it('cadences: insert, get, list in creation order, save; per agency', async () => {
    const { agencyId } = await world(s.store);
    const other = await world(s.store);
    const a = await s.store.cadences.insert({ agencyId, name: 'A', steps: [{ delayMinutes: 0, label: 'now' }] });
    const b = await s.store.cadences.insert({ agencyId, name: 'B', steps: [{ delayMinutes: 0 }, { delayMinutes: 0, at: '10:00', dayOffset: 1 }] });
    expect(a).toMatchObject({ agencyId, name: 'A', steps: [{ delayMinutes: 0, label: 'now' }] });
    expect(await s.store.cadences.get(agencyId, a.id)).toEqual(a);
    expect(await s.store.cadences.get(other.agencyId, a.id)).toBeUndefined();
    expect((await s.store.cadences.list(agencyId)).map((c) => c.id)).toEqual(creationOrder([a, b]));
    const saved = await s.store.cadences.save({ ...b, name: 'B2' });
    expect(await s.store.cadences.get(agencyId, b.id)).toEqual(saved);
    expect(await s.store.cadences.list(other.agencyId)).toEqual([]);
  });
});
