/**
 * The reads that open a workflow, started by the entry module before the editor's own code has
 * loaded and compiled (in a private window, where nothing comes compiled, that is most of the
 * wait: docs/editor.md, Performance). The editor page takes them when it opens the same route, once;
 * any other route, or a later opening of the same one, reads afresh.
 */
import { agentsApi, projectsApi, workflowApi } from './endpoints';
import { openWorkflow, type OpenedWorkflow, type OpenWorkflowRoute } from './open-workflow';

/** Each agent's location, kept between visits so the project reads start with the agent's. */
const agentLocations = {
  get: (agentId: string) => {
    try {
      return localStorage.getItem(`vc.agentLocation.${agentId}`);
    } catch {
      return null;
    }
  },
  set: (agentId: string, locationId: string) => {
    try {
      localStorage.setItem(`vc.agentLocation.${agentId}`, locationId);
    } catch {
      // storage full or blocked: the next visit reads the agent first, as without it
    }
  },
};

function read(route: OpenWorkflowRoute): Promise<OpenedWorkflow> {
  return openWorkflow(route, {
    agent: agentsApi.get,
    workflow: (target) => workflowApi(target).get(),
    campaigns: projectsApi.campaigns,
    project: projectsApi.get,
    memory: agentLocations,
  });
}

const keyOf = (r: OpenWorkflowRoute) => JSON.stringify([r.agentId, r.campaignId ?? null, r.locationId ?? null]);
let started: { key: string; opened: Promise<OpenedWorkflow> } | null = null;

export function startOpening(route: OpenWorkflowRoute) {
  const opened = read(route);
  // Rejections are the page's to show when it takes them; unhandled until then is not an error.
  opened.catch(() => {});
  started = { key: keyOf(route), opened };
}

export function takeOpening(route: OpenWorkflowRoute): Promise<OpenedWorkflow> {
  const early = started;
  started = null;
  return early?.key === keyOf(route) ? early.opened : read(route);
}
