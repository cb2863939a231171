import type { Graph } from '../graph/types.js';
import type { ActionType } from '../../schemas/workflow.js';

/** Names shared by the workflow, the worker and the client: written once, here. */
/**
 * The workflow type post-call runs start as. `postCallWorkflow` and `postCallRun`, the types of
 * runs started before it, stay registered for those runs (workflows/post-call.ts).
 */
export const POST_CALL_WORKFLOW = 'postCallLocalRun';
/**
 * Call ids come from the voice platform, so they are unique per agency only: the agency is part of
 * the id (runs started before schema 4 keep their `post-call:<callId>` ids; see executions).
 */
export const postCallWorkflowId = (agencyId: string, callId: string) => `post-call:${agencyId}:${callId}`;

/** The action step types, as the workflow schemas define them (one list, schemas/workflow.ts). */
export { ACTION_TYPES, type ActionType } from '../../schemas/workflow.js';

/** The call as the run sees it: what templates and conditions may read. */
export interface CallSnapshot {
  callId: string;
  contactId: string;
  phoneNumber: string;
  leadName: string;
  duration: number;
  disposition: string;
  callSummary: string;
  transcript: string;
  /** recorded post-call fields, by key */
  fields: Record<string, unknown>;
  dateTime: string;
}

export interface PostCallInput {
  agencyId: string;
  locationId: string;
  executionId: string;
  campaignId: string;
  outcome: string;
  graphVersion: number;
  /** the graph as it was when the call ended: edits never change a run in flight */
  graph: Graph;
  call: CallSnapshot;
  campaign: { callerId: string | null; calendarId: string | null };
  /** contact data for branch conditions, read when the call ended */
  contact: { tags: string[]; [field: string]: unknown };
  /** a retry resumes here (the failed step) instead of at the outcome's entry */
  startNodeId?: string;
  /** how long one action attempt may take before Temporal retries it */
  actionTimeoutSeconds?: number;
  retryOf?: string;
  /**
   * What effect idempotency keys derive from: the workflow id of the call's first run, kept by
   * every retry of it, so a node acts at most once per call however many runs reach it. Absent on
   * runs started before it existed (their keys derive from their own workflow id).
   */
  effectScope?: string;
}

export interface ActionInput {
  agencyId: string;
  locationId: string;
  executionId: string;
  workflowId: string;
  /** see PostCallInput.effectScope */
  effectScope?: string;
  seq: number;
  node: { id: string; type: ActionType; config: Record<string, unknown> };
  call: CallSnapshot;
  campaign: PostCallInput['campaign'];
  /**
   * The run's last step: when it succeeds, the activity also records the execution succeeded, so
   * the run needs no local activity of its own to close it (workflows/post-call.ts, its patch).
   */
  closesExecution?: boolean;
}

/** The idempotency key of a node's effect: one per call and node (see PostCallInput.effectScope). */
export const effectKey = (input: Pick<ActionInput, 'effectScope' | 'workflowId'>, nodeId: string) => `${input.effectScope ?? input.workflowId}:${nodeId}`;

export interface RunContext {
  call: Record<string, unknown> & { fields: Record<string, unknown> };
  contact: Record<string, unknown>;
  custom_values?: Record<string, string>;
}

export interface PostCallResult {
  status: 'succeeded' | 'failed';
  steps: number;
  failedNodeId?: string;
}
