/**
 * The reads that open a workflow in the editor (editor/src/api/open-workflow.ts), against fakes
 * that record when each read starts and answer when told: which reads wait for the agent, which
 * start with it once its location is remembered, and what a wrong remembered location costs.
 */
import { describe, expect, it } from 'vitest';
import { openWorkflow, type OpenWorkflowDeps } from '../../editor/src/api/open-workflow.js';
import type { Agent, Campaign, Project, Workflow } from '../../editor/src/api/types.js';

const AT = '2026-11-26T00:00:00Z';
const agentAt = (locationId: string): Agent => ({ id: 'agt_1', name: 'Front desk', agentType: 'outreach', locationId, projectId: `prj_${locationId}`, campaignId: 'cmp_1', capabilities: [], outcomes: [], postCallFields: [], createdAt: AT, updatedAt: AT });
const workflowOf = (campaignId: string, locationId: string): Workflow => ({ agentId: 'agt_1', campaignId, locationId, version: 3, nodes: [], edges: [], dispositionEntries: {}, updatedAt: '2026-11-26T00:00:00Z' });

/** Fakes whose agent read answers only when `answerAgent` is called; every read is logged as it starts. */
function fakes(opts: { agentLocation: string; remembered?: string; failProject?: boolean }) {
  const log: string[] = [];
  const memory = new Map<string, string>(opts.remembered ? [['agt_1', opts.remembered]] : []);
  let answerAgent!: () => void;
  const agentAnswered = new Promise<void>((r) => (answerAgent = r));
  const deps: OpenWorkflowDeps = {
    agent: async (id) => {
      log.push(`agent ${id}`);
      await agentAnswered;
      return agentAt(opts.agentLocation);
    },
    workflow: async (t) => {
      log.push(`workflow ${t.locationId ?? '-'} ${t.campaignId ?? '-'}`);
      return workflowOf(t.campaignId ?? 'cmp_1', t.locationId ?? opts.agentLocation);
    },
    campaigns: async (loc) => {
      log.push(`campaigns ${loc}`);
      if (loc !== opts.agentLocation) throw new Error('404');
      return [{ id: 'cmp_1', name: 'Reactivation', agentId: 'agt_1', active: true, fromNumbers: [], config: {}, activeTags: [], inactiveTags: [], dialing: 'pd', createdAt: AT, updatedAt: AT } satisfies Campaign];
    },
    project: async (loc) => {
      log.push(`project ${loc}`);
      if (opts.failProject || loc !== opts.agentLocation) throw new Error('404');
      return { id: `prj_${loc}`, crm: 'crm_a', locationId: loc, businessName: 'Smile Dental', status: 'live', active: true, installed: true, campaigns: [], createdAt: AT, updatedAt: AT } satisfies Project;
    },
    memory: { get: (id) => memory.get(id) ?? null, set: (id, loc) => void memory.set(id, loc) },
  };
  return { deps, log, memory, answerAgent };
}

/** Lets every read that can start before the agent answers do so. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('opening a workflow', () => {
  it('on a first visit reads the agent and the workflow together, then the project, and remembers the location', async () => {
    const f = fakes({ agentLocation: 'loc_a' });
    const opened = openWorkflow({ agentId: 'agt_1' }, f.deps);
    await settle();
    expect(f.log).toEqual(['workflow - -', 'agent agt_1']);
    f.answerAgent();
    const r = await opened;
    expect(f.log.slice(2).sort()).toEqual(['campaigns loc_a', 'project loc_a']);
    expect(r.project?.businessName).toBe('Smile Dental');
    expect(r.campaigns.map((c) => c.id)).toEqual(['cmp_1']);
    expect(r.target).toEqual({ agentId: 'agt_1' });
    expect(f.memory.get('agt_1')).toBe('loc_a');
  });

  it('on a return visit starts the project reads with the agent read, once each', async () => {
    const f = fakes({ agentLocation: 'loc_a', remembered: 'loc_a' });
    const opened = openWorkflow({ agentId: 'agt_1' }, f.deps);
    await settle();
    expect(f.log.sort()).toEqual(['agent agt_1', 'campaigns loc_a', 'project loc_a', 'workflow - -']);
    f.answerAgent();
    const r = await opened;
    expect(f.log).toHaveLength(4);
    expect(r.project?.locationId).toBe('loc_a');
    expect(r.campaigns).toHaveLength(1);
  });

  it('when the remembered location is wrong, reads the project again where the agent is, and remembers that', async () => {
    const f = fakes({ agentLocation: 'loc_b', remembered: 'loc_a' });
    const opened = openWorkflow({ agentId: 'agt_1' }, f.deps);
    await settle();
    f.answerAgent();
    const r = await opened;
    expect(f.log.filter((l) => /^(campaigns|project)/.test(l)).sort()).toEqual(['campaigns loc_a', 'campaigns loc_b', 'project loc_a', 'project loc_b']);
    expect(r.project?.locationId).toBe('loc_b');
    expect(r.campaigns.map((c) => c.id)).toEqual(['cmp_1']);
    expect(f.memory.get('agt_1')).toBe('loc_b');
  });

  it('for a link naming a campaign but not its location, reads that workflow at the agent\'s location after the agent', async () => {
    const f = fakes({ agentLocation: 'loc_a' });
    const opened = openWorkflow({ agentId: 'agt_1', campaignId: 'cmp_2' }, f.deps);
    await settle();
    expect(f.log).toEqual(['agent agt_1']);
    f.answerAgent();
    const r = await opened;
    expect(f.log).toContain('workflow loc_a cmp_2');
    expect(r.target).toEqual({ agentId: 'agt_1', locationId: 'loc_a', campaignId: 'cmp_2' });
    expect(r.workflow.campaignId).toBe('cmp_2');
  });

  it('a link with the location uses it at once for every read', async () => {
    const f = fakes({ agentLocation: 'loc_a' });
    const opened = openWorkflow({ agentId: 'agt_1', campaignId: 'cmp_2', locationId: 'loc_a' }, f.deps);
    await settle();
    expect(f.log.sort()).toEqual(['agent agt_1', 'campaigns loc_a', 'project loc_a', 'workflow loc_a cmp_2']);
    f.answerAgent();
    await opened;
    expect(f.log).toHaveLength(4);
  });

  it('shows a project that cannot be read as missing, not as an error', async () => {
    const f = fakes({ agentLocation: 'loc_a', remembered: 'loc_a', failProject: true });
    const opened = openWorkflow({ agentId: 'agt_1' }, f.deps);
    f.answerAgent();
    const r = await opened;
    expect(r.project).toBeNull();
    expect(r.workflow.version).toBe(3);
  });
});
