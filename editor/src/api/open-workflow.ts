/**
 * The reads that open a workflow in the editor, started as early as what they need is known:
 * the workflow with the agent (unless the link names a campaign without its location), and the
 * project and its campaigns with them too when the agent's location is remembered from an earlier
 * visit. A remembered location is only a guess: the agent's own answer decides, and when it
 * differs the project reads are made again for the right location.
 */
import type { Agent, Campaign, Project, Workflow } from './types';
import type { WorkflowTarget } from './endpoints';

export interface OpenWorkflowDeps {
  agent(id: string): Promise<Agent>;
  workflow(target: WorkflowTarget): Promise<Workflow>;
  campaigns(locationId: string): Promise<Campaign[]>;
  project(locationId: string): Promise<Project>;
  /** where each agent's location is remembered between visits (localStorage in the page) */
  memory: { get(agentId: string): string | null; set(agentId: string, locationId: string): void };
}

export interface OpenWorkflowRoute {
  agentId: string;
  campaignId?: string;
  locationId?: string;
}

export interface OpenedWorkflow {
  agent: Agent;
  target: WorkflowTarget;
  workflow: Workflow;
  campaigns: Campaign[];
  project: Project | null;
}

export async function openWorkflow(route: OpenWorkflowRoute, deps: OpenWorkflowDeps): Promise<OpenedWorkflow> {
  const early: WorkflowTarget | null = !route.campaignId ? { agentId: route.agentId } : route.locationId ? { agentId: route.agentId, locationId: route.locationId, campaignId: route.campaignId } : null;
  const earlyWorkflow = early ? deps.workflow(early) : null;
  earlyWorkflow?.catch(() => {});
  const guess = route.locationId ?? deps.memory.get(route.agentId);
  // Project reads that fail are shown as missing (no name, no campaign list), not as an error.
  const projectReads = (locationId: string) => [deps.campaigns(locationId).catch((): Campaign[] => []), deps.project(locationId).catch(() => null)] as const;
  const guessed = guess ? projectReads(guess) : null;
  const agent = await deps.agent(route.agentId);
  if (guess !== agent.locationId) deps.memory.set(route.agentId, agent.locationId);
  const target: WorkflowTarget = early ?? { agentId: agent.id, locationId: agent.locationId, campaignId: route.campaignId! };
  const [campaignsRead, projectRead] = guessed && guess === agent.locationId ? guessed : projectReads(agent.locationId);
  const [workflow, campaigns, project] = await Promise.all([earlyWorkflow ?? deps.workflow(target), campaignsRead, projectRead]);
  return { agent, target, workflow, campaigns, project };
}
