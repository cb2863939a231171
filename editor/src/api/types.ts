/**
 * Response shapes the editor reads. Workflow shapes come from schemas/ (the single source of
 * truth); the rest are the few fields the editor uses of larger resources.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { Disposition, Warning as WarningShape, WorkflowEdge, WorkflowNode } from '../../../schemas/workflow';
import type { BusinessDiff as BusinessDiffSchema, ImpactReport as ImpactReportSchema, TemplateSummary as TemplateSummarySchema, TestRunBody as TestRunBodySchema } from '../../../schemas/workflow-tools';

export type { Disposition };
export type Warning = WarningShape;
export type ApiNode = WorkflowNode;
export type ApiEdge = WorkflowEdge;

/** A stored workflow as GET/PUT/PATCH/DELETE answer it (`warnings` on reads and writes). */
export interface Workflow {
  agentId: string;
  campaignId: string;
  locationId: string;
  version: number;
  nodes: ApiNode[];
  edges: ApiEdge[];
  dispositionEntries: Partial<Record<string, string>>;
  updatedAt: string;
  warnings?: Warning[];
}

export interface Project {
  id: string;
  locationId: string;
  businessName?: string | null;
  agencyName?: string | null;
  status: string;
  campaigns?: Campaign[];
}

export interface Campaign {
  id: string;
  name: string;
  agentId: string;
  active: boolean;
  fromNumbers: string[];
  config: { calendarId?: string; [k: string]: unknown };
}

export interface PostCallField {
  name: string;
  type: string;
  description?: string;
  platformManaged?: boolean;
}

export interface Agent {
  id: string;
  name: string;
  agentType: string;
  locationId: string;
  projectId: string;
  campaignId: string | null;
  capabilities: string[];
  /** outcomes a call with this agent can end in, canonical order */
  outcomes: Disposition[];
  postCallFields: PostCallField[];
}

export interface VersionSummary {
  version: number;
  createdAt: string;
  keyId: string | null;
  summary: string;
}

export type StepStatus = 'running' | 'succeeded' | 'failed' | 'skipped' | 'evaluated';

export interface ExecutionStep {
  seq: number;
  nodeId: string;
  nodeType: string;
  status: StepStatus;
  attempts: number;
  input?: unknown;
  output?: unknown;
  error?: string | null;
  startedAt: string;
  finishedAt?: string | null;
}

export interface Execution {
  id: string;
  workflowId: string;
  campaignId: string;
  agentId: string;
  callId: string;
  outcome: string;
  graphVersion: number;
  status: 'running' | 'succeeded' | 'failed';
  error?: string | null;
  startedAt: string;
  finishedAt?: string | null;
  /** `test`: a test run, every effect on the sandbox */
  kind?: 'run' | 'test';
  retryOf?: string | null;
  retriedBy?: string | null;
  steps: ExecutionStep[];
  /** the run in the Temporal Web UI; null when the server has no UI address */
  temporalUrl?: string | null;
}

/** A failed real run in the agency-wide view (`GET /api/agent-builder/failed-runs`). */
export interface FailedRun extends Execution {
  agentName: string;
  campaignName: string;
  locationId: string;
  /** the run in the editor */
  link: string;
}

/** One run's answer to a bulk retry: 202 started (`retry`), or the refusal for that run. */
export interface RetryResult {
  executionId: string;
  status: number;
  retry?: Execution;
  error?: string;
  code?: string;
}

export type TestRunBody = FromSchema<typeof TestRunBodySchema>;
export type BusinessDiff = FromSchema<typeof BusinessDiffSchema>;
export type BusinessChange = BusinessDiff['changes'][number];
export type ImpactReport = FromSchema<typeof ImpactReportSchema>;
export type TemplateSummary = FromSchema<typeof TemplateSummarySchema>;

export interface CustomValue {
  id: string;
  name: string;
  fieldKey: string;
  placeholder: string;
  value: string;
}

export interface CustomField {
  id: string;
  name: string;
  fieldKey: string;
  placeholder: string;
  dataType: string;
}

/** A pipeline of the project's CRM location with its stages (`GET …/agents/{id}/crm/pipelines`). */
export interface Pipeline {
  id: string;
  name: string;
  stages: { id: string; name: string }[];
}

/** A calendar of the project's CRM location (`GET …/agents/{id}/crm/calendars`). */
export interface CrmCalendar {
  id: string;
  name: string;
}
