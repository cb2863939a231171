import type { Graph } from '../graph/types.js';

/** Names shared by the workflow, the worker and the client: written once, here. */
export const POST_CALL_WORKFLOW = 'postCallWorkflow';
export const postCallWorkflowId = (callId: string) => `post-call:${callId}`;

export const ACTION_TYPES = [
  'add-tag',
  'remove-tag',
  'set-field',
  'move-stage',
  'add-note',
  'send-sms',
  'send-email',
  'book-appointment',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

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
  /** how long one action attempt may take before Temporal retries it elsewhere */
  actionTimeoutSeconds?: number;
  retryOf?: string;
}

export interface ActionInput {
  agencyId: string;
  locationId: string;
  executionId: string;
  workflowId: string;
  seq: number;
  node: { id: string; type: ActionType; config: Record<string, unknown> };
  call: CallSnapshot;
  campaign: PostCallInput['campaign'];
}

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
