import { callsApi } from '../api/calls';
import { projectsApi, workflowApi } from '../api/endpoints';
import type { CallRecord, Campaign, Execution } from '../api/types';
import { useResource } from './use-resource';

/** How many of the agent's latest runs are searched for the call's post-call runs (the list's most). */
export const RUNS_SEARCHED = 100;

export interface CallRuns {
  campaign: Campaign | null;
  locationId: string | null;
  /** the call's post-call runs (the first one and its retries), newest first; null when they could not be looked up */
  runs: Execution[] | null;
  /** why the runs could not be looked up */
  why?: string;
}

/** The call's post-call runs: its campaign's agent's latest runs that name this call. */
async function runsOf(call: CallRecord): Promise<CallRuns> {
  let projects;
  try {
    projects = await projectsApi.list();
  } catch (err) {
    return { campaign: null, locationId: null, runs: null, why: `the call's campaign could not be looked up (${(err as Error).message})` };
  }
  const project = projects.find((p) => p.campaigns.some((c) => c.id === call.campaignId));
  const campaign = project?.campaigns.find((c) => c.id === call.campaignId) ?? null;
  if (!campaign || !project) return { campaign: null, locationId: null, runs: null, why: `campaign ${call.campaignId ?? '?'} is not among the projects this key can see` };
  try {
    const runs = await workflowApi({ agentId: campaign.agentId }).executions('run', RUNS_SEARCHED);
    return { campaign, locationId: project.locationId, runs: runs.filter((e) => e.callId === call.callId && e.campaignId === campaign.id) };
  } catch (err) {
    return { campaign, locationId: project.locationId, runs: null, why: `the runs could not be read (${(err as Error).message})` };
  }
}

/** One call, and its post-call runs. */
export function useCall(callId: string) {
  return useResource(async () => {
    const call = await callsApi.get(callId);
    return { call, ...(await runsOf(call)) };
  }, [callId]);
}
