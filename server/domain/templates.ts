import { describeChange } from '../../engine/graph/describe-change.js';
import { emittableOutcomes, type Disposition } from '../../engine/graph/outcomes.js';
import { validateGraph } from '../../engine/graph/validate.js';
import type { Store, StoredWorkflow } from '../store/index.js';
import { findTemplate, templateGraph, WORKFLOW_TEMPLATES, type WorkflowTemplate } from '../workflow-templates.js';
import { invalid, notFound } from './errors.js';
import { graphError, type WorkflowTarget } from './workflow-target.js';

/** A template as listed: its outcomes, only those the agent can emit when one is named. */
export function templateSummary(t: WorkflowTemplate, emittable?: readonly Disposition[]) {
  const outcomes = (Object.keys(t.chains) as Disposition[]).filter((d) => !emittable || emittable.includes(d));
  return { id: t.id, name: t.name, description: t.description, system: t.system, outcomes };
}

export const listTemplates = (system: string | undefined, emittable?: readonly Disposition[]) =>
  WORKFLOW_TEMPLATES.filter((t) => !system || t.system === system).map((t) => templateSummary(t, emittable));

/** A template an agent or campaign is created from (invalid input when it is not one). */
export function templateNamed(id: string | undefined, field: string): WorkflowTemplate | undefined {
  if (id === undefined) return undefined;
  const template = findTemplate(id);
  if (!template) throw invalid(`${field} "${id}" is not a template; GET /api/agent-builder/workflow-templates lists them`);
  return template;
}

export function templateById(id: string): WorkflowTemplate {
  const template = findTemplate(id);
  if (!template) throw notFound(`template ${id} not found; GET /api/agent-builder/workflow-templates lists them`);
  return template;
}

/** Writes a template's graph on a campaign's workflow, as a PUT would (one version, validated). */
export async function applyTemplate(store: Store, agencyId: string, t: WorkflowTarget, template: WorkflowTemplate, expectedVersion: number | undefined, keyId: string | null): Promise<StoredWorkflow> {
  try {
    return await store.workflows.write({
      agencyId,
      campaignId: t.campaign.id,
      expectedVersion,
      keyId,
      apply: (current) => {
        const graph = templateGraph(template, emittableOutcomes(t.agent.capabilities));
        validateGraph(graph);
        return { graph, summary: `started from template ${template.id}: ${describeChange(current, graph)}` };
      },
    });
  } catch (err) {
    throw graphError(err);
  }
}
