import { appendNodes } from '../../engine/graph/append.js';
import { describeChange } from '../../engine/graph/describe-change.js';
import { emittableOutcomes, normalizeOutcome, type Disposition } from '../../engine/graph/outcomes.js';
import { patchNodes } from '../../engine/graph/patch.js';
import { deleteNode } from '../../engine/graph/relink.js';
import { switchOutcome } from '../../engine/graph/switch-outcome.js';
import { prepareGraph } from '../../engine/graph/validate.js';
import type { Graph } from '../../engine/graph/types.js';
import type { Store, StoredWorkflow } from '../store/index.js';
import type { Actor } from './actor.js';
import { loadAgent } from './agents.js';
import { invalid, notFound } from './errors.js';
import { graphError, type WorkflowTarget } from './workflow-target.js';

export { warningsFor, type WorkflowTarget } from './workflow-target.js';

/**
 * The workflow an agent-scoped path names: the `locationId`+`campaignId` pair when given (both or
 * neither, spec 4.12; each alone is accepted too, a rule OpenAPI can state): locationId alone checks
 * the agent's location and selects its primary campaign, campaignId alone that campaign of the agent.
 */
export async function resolveTarget(store: Store, actor: Actor, agentId: string, query: { locationId?: string | undefined; campaignId?: string | undefined }): Promise<WorkflowTarget> {
  const agent = await loadAgent(store, actor, agentId);
  const project = await store.projects.get(actor.agencyId, agent.projectId);
  if (!project) throw notFound(`agent ${agentId} not found`);
  if (query.locationId !== undefined && query.locationId !== project.locationId && query.locationId !== project.id) {
    throw notFound(`agent ${agentId} does not belong to location ${query.locationId}`);
  }
  const campaignId = query.campaignId ?? agent.campaignId;
  const campaign = campaignId ? await store.campaigns.get(actor.agencyId, campaignId) : undefined;
  if (!campaign || campaign.agentId !== agent.id) throw notFound(`campaign ${campaignId ?? '(primary)'} not found for agent ${agentId}`);
  return { agent, campaign, project };
}

/** The deprecated project-scoped paths name location and campaign: the same target, found from the campaign. */
export async function resolveProjectScopedTarget(store: Store, actor: Actor, locationId: string, campaignId: string): Promise<WorkflowTarget> {
  const campaign = await store.campaigns.get(actor.agencyId, campaignId);
  if (!campaign) throw notFound(`campaign ${campaignId} not found`);
  return resolveTarget(store, actor, campaign.agentId, { locationId, campaignId });
}

/**
 * The one write path: a pure operation, a stored version. Each operation (`appendNodes`,
 * `prepareGraph`, `patchNodes`, `deleteNode`, `switchOutcome`) validates the graph it returns, so
 * it is not validated here a second time (at 1,000 steps a validation costs milliseconds).
 */
export async function writeGraph(store: Store, actor: Actor, t: WorkflowTarget, expectedVersion: number | undefined, op: (g: Graph) => { graph: Graph; summary?: string }): Promise<StoredWorkflow> {
  try {
    return await store.workflows.write({
      agencyId: actor.agencyId,
      campaignId: t.campaign.id,
      expectedVersion,
      keyId: actor.keyId,
      apply: (current) => {
        const { graph, summary } = op(current);
        return { graph, summary: summary ?? describeChange(current, graph) };
      },
    });
  } catch (err) {
    throw graphError(err);
  }
}

/** `gated: false` accepts an outcome the agent can no longer emit (clearing its entry cleans the graph up). */
export function outcomeOf(t: WorkflowTarget, raw: string, gated = true): Disposition {
  const outcome = normalizeOutcome(raw);
  if (!outcome) throw invalid(`params.outcome "${raw}" is not a known outcome; use VOICEMAIL, SUCCESS, CALLBACK, NO_ACTION, TRANSFER or RESCHEDULE (any case) or a dashboard label`);
  if (!gated) return outcome;
  const emittable = emittableOutcomes(t.agent.capabilities);
  if (!emittable.includes(outcome)) {
    throw invalid(`agent ${t.agent.id} can never end a call in ${outcome} (its capabilities allow ${emittable.join(', ')}); install the capability first`);
  }
  return outcome;
}

export const readWorkflow = (store: Store, actor: Actor, t: WorkflowTarget) => store.workflows.get(actor.agencyId, t.campaign.id);

export function appendToOutcome(store: Store, actor: Actor, t: WorkflowTarget, rawOutcome: string, nodes: unknown[], expectedVersion: number | undefined) {
  const outcome = outcomeOf(t, rawOutcome);
  return writeGraph(store, actor, t, expectedVersion, (g) => ({
    graph: appendNodes(g, outcome, nodes as never),
    summary: `appended ${nodes.length} node${nodes.length === 1 ? '' : 's'} to ${outcome}`,
  }));
}

/** PUT: prepareGraph validates, copies to the stored shape and places nodes sent without a position. */
export const replaceGraph = (store: Store, actor: Actor, t: WorkflowTarget, body: { expectedVersion?: number }) =>
  writeGraph(store, actor, t, body.expectedVersion, () => ({ graph: prepareGraph(body as never) }));

export const patchGraph = (store: Store, actor: Actor, t: WorkflowTarget, body: { expectedVersion?: number; nodes: unknown }) =>
  writeGraph(store, actor, t, body.expectedVersion, (g) => ({ graph: patchNodes(g, body.nodes as never) }));

export const deleteStep = (store: Store, actor: Actor, t: WorkflowTarget, nodeId: string, expectedVersion: number | undefined) =>
  writeGraph(store, actor, t, expectedVersion, (g) => ({ graph: deleteNode(g, nodeId), summary: `deleted ${nodeId}` }));

export function switchEntry(store: Store, actor: Actor, t: WorkflowTarget, rawOutcome: string, nodeId: string | null | undefined, expectedVersion: number | undefined) {
  const outcome = outcomeOf(t, rawOutcome, nodeId != null);
  return writeGraph(store, actor, t, expectedVersion, (g) => ({
    graph: switchOutcome(g, outcome, nodeId ?? null),
    summary: nodeId ? `${outcome} now starts at ${nodeId}` : `${outcome} cleared`,
  }));
}

export async function workflowVersion(store: Store, actor: Actor, t: WorkflowTarget, n: number): Promise<StoredWorkflow> {
  const v = await store.workflows.version(actor.agencyId, t.campaign.id, n);
  if (!v) throw notFound(`version ${n} of this workflow not found`);
  return v;
}
