/** The workflow editor's endpoints, over the typed client. Nothing here knows about React. */
import { answer, client } from './client';
import type { AppendRequestNode, ConnectProjectBody, CrmCredentials, GraphBody, PatchNodeBody, StartReplayBody, StepStatsWindow, TestRunBody } from './types';

export type { AppendRequestNode, GraphBody };

export const projectsApi = {
  list: () => answer(client.GET('/api/v2/projects')).then((r) => r.data),
  get: (idOrLocation: string) => answer(client.GET('/api/v2/projects/{id}', { params: { path: { id: idOrLocation } } })).then((r) => r.data),
  campaigns: (locationId: string) => answer(client.GET('/api/agent-builder/projects/{locationId}/campaigns', { params: { path: { locationId } } })).then((r) => r.data),
  campaign: (locationId: string, campaignId: string) =>
    answer(client.GET('/api/agent-builder/projects/{locationId}/campaigns/{campaignId}', { params: { path: { locationId, campaignId } } })).then((r) => r.data),
  /** connects a CRM location as a project; with credentials, verified against the real location first */
  connect: (body: ConnectProjectBody) => answer(client.POST('/api/v2/projects', { body })).then((r) => r.data),
  /** new credentials for the same project (a disconnected one goes back to live or stopped) */
  reconnect: (id: string, credentials: CrmCredentials) => answer(client.POST('/api/v2/projects/{id}/reconnect', { params: { path: { id } }, body: { credentials } })).then((r) => r.data),
};

export const agentsApi = {
  list: (locationId?: string) => answer(client.GET('/api/agent-builder/agents', { params: { query: locationId ? { locationId } : {} } })).then((r) => r.data),
  get: (id: string) => answer(client.GET('/api/agent-builder/agents/{id}', { params: { path: { id } } })).then((r) => r.data),
};

/**
 * Reads of the agent's project's CRM (scope `crm:read`): the real location when the project is
 * connected to one, the sandbox otherwise. A project that must be reconnected answers 409 with
 * `code: "Disconnected"` (`ApiError.isDisconnected`).
 */
export function crmApi(agentId: string) {
  const params = { path: { id: agentId } };
  return {
    pipelines: () => answer(client.GET('/api/agent-builder/agents/{id}/crm/pipelines', { params })).then((r) => r.data),
    calendars: () => answer(client.GET('/api/agent-builder/agents/{id}/crm/calendars', { params })).then((r) => r.data),
    customFields: () => answer(client.GET('/api/agent-builder/agents/{id}/crm-custom-fields', { params })).then((r) => r.fields),
    customValues: () => answer(client.GET('/api/agent-builder/agents/{id}/crm-custom-values', { params })).then((r) => r.values),
  };
}
export type CrmApi = ReturnType<typeof crmApi>;

/** Which workflow: the agent's primary campaign, or a named one (locationId and campaignId go together). */
export interface WorkflowTarget {
  agentId: string;
  locationId?: string;
  campaignId?: string;
}

/** The workflow family of endpoints (spec 4.12) for one target. Every write carries `expectedVersion`. */
export function workflowApi(target: WorkflowTarget) {
  const agentId = target.agentId;
  const query = target.locationId && target.campaignId ? { locationId: target.locationId, campaignId: target.campaignId } : {};
  const on = <P extends object>(path: P) => ({ params: { path: { agentId, ...path }, query } });
  const W = '/api/agent-builder/agents/{agentId}/campaign/workflow' as const;
  return {
    get: () => answer(client.GET(W, on({}))).then((r) => r.data),
    append: (outcome: string, nodes: AppendRequestNode[], expectedVersion: number) =>
      answer(client.POST(`${W}/outcomes/{outcome}/nodes`, { ...on({ outcome }), body: { nodes, expectedVersion } })).then((r) => ({ ...r.workflow!, warnings: r.warnings ?? [] })),
    put: (graph: GraphBody, expectedVersion: number) => answer(client.PUT(W, { ...on({}), body: { ...graph, expectedVersion } })).then((r) => r.data),
    patch: (nodes: PatchNodeBody[], expectedVersion: number) => answer(client.PATCH(W, { ...on({}), body: { nodes, expectedVersion } })).then((r) => r.data),
    remove: (nodeId: string, expectedVersion: number) =>
      answer(client.DELETE(`${W}/nodes/{nodeId}`, { params: { path: { agentId, nodeId }, query: { ...query, expectedVersion } } })).then((r) => r.data),
    setEntry: (outcome: string, nodeId: string | null, expectedVersion: number) =>
      answer(client.PUT(`${W}/outcomes/{outcome}/entry`, { ...on({ outcome }), body: { nodeId, expectedVersion } })).then((r) => r.data),
    digest: () => answer(client.GET(`${W}/digest`, { ...on({}), parseAs: 'text' })).then((text) => text as string),
    versions: () => answer(client.GET(`${W}/versions`, on({}))).then((r) => r.data),
    version: (version: number) => answer(client.GET(`${W}/versions/{version}`, on({ version }))).then((r) => r.data),
    /** what changed from one version to another, in words per outcome (version 0 is the empty workflow) */
    diff: (from: number, to: number) => answer(client.GET(`${W}/versions/{from}/diff/{to}`, on({ from, to }))).then((r) => r.data),
    /** what saving `graph` would affect; nothing is stored */
    impact: (graph: GraphBody) => answer(client.POST(`${W}/impact`, { ...on({}), body: graph })).then((r) => r.data),
    applyTemplate: (templateId: string, expectedVersion: number) => answer(client.POST(`${W}/templates/{templateId}`, { ...on({ templateId }), body: { expectedVersion } })).then((r) => r.data),
    /** what the campaign's real runs did at each step over a window, of one version or all (null) */
    stepStats: (window: StepStatsWindow, version: number | null) =>
      answer(client.GET(`${W}/step-stats`, { params: { path: { agentId }, query: { ...query, window, ...(version !== null && { version }) } } })).then((r) => r.data),
    /** a what-if replay of the campaign's recent real calls through two graphs (nothing is sent) */
    startReplay: (body: StartReplayBody) => answer(client.POST(`${W}/replays`, { ...on({}), body })).then((r) => r.data),
    replay: (replayId: string, calls: 'all' | 'changed' | 'none' = 'all') =>
      answer(client.GET(`${W}/replays/{replayId}`, { params: { path: { agentId, replayId }, query: { ...query, calls } } })).then((r) => r.data),
    cancelReplay: (replayId: string) => answer(client.POST(`${W}/replays/{replayId}/cancel`, on({ replayId }))).then((r) => r.data),
    /** a run of the current version on sample data, every effect on the sandbox */
    testRun: (body: TestRunBody) => answer(client.POST(`${W}/test-runs`, { ...on({}), body })).then((r) => r.data),
    // Execution history is per agent; the caller filters by campaign.
    executions: (kind: 'run' | 'test' = 'run', limit = 50) =>
      answer(client.GET(`${W}/executions`, { params: { path: { agentId }, query: { limit, ...(kind === 'test' && { kind: 'test' as const }) } } })).then((r) => r.data),
    execution: (executionId: string) => answer(client.GET(`${W}/executions/{executionId}`, { params: { path: { agentId, executionId } } })).then((r) => r.data),
  };
}
export type WorkflowApi = ReturnType<typeof workflowApi>;

/** Starter workflows, with only the outcomes the agent can emit. */
export const templatesApi = {
  list: (agentId: string) => answer(client.GET('/api/agent-builder/workflow-templates', { params: { query: { agentId } } })).then((r) => r.data),
};

/** The agency's failed real runs across campaigns, and bulk retry from each one's failed step. */
export const failedRunsApi = {
  list: () => answer(client.GET('/api/agent-builder/failed-runs', { params: { query: { limit: 200 } } })).then((r) => r.data),
  retry: (executionIds: string[]) => answer(client.POST('/api/agent-builder/failed-runs/retry', { body: { executionIds } })).then((r) => r.data),
};
