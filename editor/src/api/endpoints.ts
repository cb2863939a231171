/** Every public endpoint the editor calls, typed. Nothing here knows about React. */
import { api, apiText } from './client';
import type { Agent, BusinessDiff, Campaign, CrmCalendar, CustomField, CustomValue, Execution, FailedRun, ImpactReport, Pipeline, Project, RetryResult, TemplateSummary, TestRunBody, VersionSummary, Warning, Workflow } from './types';
import type { PatchNode, PutEdge, PutNode } from '../../../schemas/workflow';

const enc = encodeURIComponent;

export const projectsApi = {
  list: () => api<{ data: Project[] }>('GET', '/api/v2/projects').then((r) => r.data),
  get: (idOrLocation: string) => api<{ data: Project }>('GET', `/api/v2/projects/${enc(idOrLocation)}`).then((r) => r.data),
  campaigns: (locationId: string) => api<{ data: Campaign[] }>('GET', `/api/agent-builder/projects/${enc(locationId)}/campaigns`).then((r) => r.data),
};

export const agentsApi = {
  list: (locationId?: string) => api<{ data: Agent[] }>('GET', `/api/agent-builder/agents${locationId ? `?locationId=${enc(locationId)}` : ''}`).then((r) => r.data),
  get: (id: string) => api<{ data: Agent }>('GET', `/api/agent-builder/agents/${enc(id)}`).then((r) => r.data),
};

/**
 * Reads of the agent's project's CRM (scope `crm:read`): the real location when the project is
 * connected to one, the sandbox otherwise. A project that must be reconnected answers 409 with
 * `code: "Disconnected"` (`ApiError.isDisconnected`).
 */
export function crmApi(agentId: string) {
  const agent = `/api/agent-builder/agents/${enc(agentId)}`;
  return {
    pipelines: () => api<{ data: Pipeline[] }>('GET', `${agent}/crm/pipelines`).then((r) => r.data),
    calendars: () => api<{ data: CrmCalendar[] }>('GET', `${agent}/crm/calendars`).then((r) => r.data),
    customFields: () => api<{ fields: CustomField[] }>('GET', `${agent}/crm-custom-fields`).then((r) => r.fields),
    customValues: () => api<{ values: CustomValue[] }>('GET', `${agent}/crm-custom-values`).then((r) => r.values),
  };
}
export type CrmApi = ReturnType<typeof crmApi>;

/** Which workflow: the agent's primary campaign, or a named one (locationId and campaignId go together). */
export interface WorkflowTarget {
  agentId: string;
  locationId?: string;
  campaignId?: string;
}

export interface AppendRequestNode {
  type: string;
  label?: string;
  config: Record<string, unknown>;
}

export interface GraphBody {
  nodes: PutNode[];
  edges: PutEdge[];
  dispositionEntries: Record<string, string>;
}

/** The workflow family of endpoints (spec 4.12) for one target. Every write carries `expectedVersion`. */
export function workflowApi(target: WorkflowTarget) {
  const base = `/api/agent-builder/agents/${enc(target.agentId)}/campaign/workflow`;
  const query = target.locationId && target.campaignId ? `locationId=${enc(target.locationId)}&campaignId=${enc(target.campaignId)}` : '';
  const url = (suffix = '', extra = '') => {
    const q = [query, extra].filter(Boolean).join('&');
    return `${base}${suffix}${q ? `?${q}` : ''}`;
  };
  return {
    get: () => api<{ data: Workflow }>('GET', url()).then((r) => r.data),
    append: (outcome: string, nodes: AppendRequestNode[], expectedVersion: number) =>
      api<{ workflow: Workflow; warnings?: Warning[] }>('POST', url(`/outcomes/${enc(outcome)}/nodes`), { nodes, expectedVersion }).then((r) => ({ ...r.workflow, warnings: r.warnings ?? [] })),
    put: (graph: GraphBody, expectedVersion: number) => api<{ data: Workflow }>('PUT', url(), { ...graph, expectedVersion }).then((r) => r.data),
    patch: (nodes: PatchNode[], expectedVersion: number) => api<{ data: Workflow }>('PATCH', url(), { nodes, expectedVersion }).then((r) => r.data),
    remove: (nodeId: string, expectedVersion: number) => api<{ data: Workflow }>('DELETE', url(`/nodes/${enc(nodeId)}`, `expectedVersion=${expectedVersion}`)).then((r) => r.data),
    setEntry: (outcome: string, nodeId: string | null, expectedVersion: number) =>
      api<{ data: Workflow }>('PUT', url(`/outcomes/${enc(outcome)}/entry`), { nodeId, expectedVersion }).then((r) => r.data),
    digest: () => apiText('GET', url('/digest')),
    versions: () => api<{ data: VersionSummary[] }>('GET', url('/versions')).then((r) => r.data),
    version: (n: number) => api<{ data: Workflow }>('GET', url(`/versions/${n}`)).then((r) => r.data),
    /** what changed from one version to another, in words per outcome (version 0 is the empty workflow) */
    diff: (from: number, to: number) => api<{ data: BusinessDiff }>('GET', url(`/versions/${from}/diff/${to}`)).then((r) => r.data),
    /** what saving `graph` would affect; nothing is stored */
    impact: (graph: GraphBody) => api<{ data: ImpactReport }>('POST', url('/impact'), graph).then((r) => r.data),
    applyTemplate: (templateId: string, expectedVersion: number) => api<{ data: Workflow }>('POST', url(`/templates/${enc(templateId)}`), { expectedVersion }).then((r) => r.data),
    /** a run of the current version on sample data, every effect on the sandbox */
    testRun: (body: TestRunBody) => api<{ data: Execution }>('POST', url('/test-runs'), body).then((r) => r.data),
    // Execution history is per agent; the caller filters by campaign.
    executions: (kind: 'run' | 'test' = 'run') => api<{ data: Execution[] }>('GET', `${base}/executions?limit=50${kind === 'test' ? '&kind=test' : ''}`).then((r) => r.data),
    execution: (id: string) => api<{ data: Execution }>('GET', `${base}/executions/${enc(id)}`).then((r) => r.data),
  };
}

/** Starter workflows, with only the outcomes the agent can emit. */
export const templatesApi = {
  list: (agentId: string) => api<{ data: TemplateSummary[] }>('GET', `/api/agent-builder/workflow-templates?agentId=${enc(agentId)}`).then((r) => r.data),
};

/** The agency's failed real runs across campaigns, and bulk retry from each one's failed step. */
export const failedRunsApi = {
  list: () => api<{ data: FailedRun[] }>('GET', '/api/agent-builder/failed-runs?limit=200').then((r) => r.data),
  retry: (executionIds: string[]) => api<{ data: RetryResult[] }>('POST', '/api/agent-builder/failed-runs/retry', { executionIds }).then((r) => r.data),
};
export type WorkflowApi = ReturnType<typeof workflowApi>;
