/**
 * Names for the request and response shapes the app reads, each taken from the types generated
 * from the OpenAPI document (schema.gen.ts): nothing here declares a field. A schema change
 * reaches these names through `npm run api-types`, and the compiler then shows every use it breaks.
 */
import type { paths } from './schema.gen';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Success<R> = R extends { 200: infer A } ? A : R extends { 201: infer A } ? A : R extends { 202: infer A } ? A : never;

/** The JSON body of an operation's success answer. */
export type Answer<P extends keyof paths, M extends Method = 'get'> = Operation<P, M> extends { responses: infer R } ? Json<Success<R>> : never;
/** The JSON body an operation takes. */
export type Body<P extends keyof paths, M extends Method> = Operation<P, M> extends { requestBody?: infer B } ? Json<NonNullable<B>> : never;
/** The query parameters an operation takes. */
export type Query<P extends keyof paths, M extends Method = 'get'> = Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

type Data<P extends keyof paths, M extends Method = 'get'> = Answer<P, M> extends { data: infer D } ? D : never;
type Item<T> = T extends readonly (infer I)[] ? I : never;

type WORKFLOW = '/api/agent-builder/agents/{agentId}/campaign/workflow';
type WorkflowPath<S extends string> = `${WORKFLOW}${S}` & keyof paths;

/** A stored workflow as GET/PUT/PATCH/DELETE answer it (`warnings` on reads and writes). */
export type Workflow = Data<WORKFLOW>;
export type ApiNode = Item<Workflow['nodes']>;
export type ApiEdge = Item<Workflow['edges']>;
export type Warning = Item<NonNullable<Workflow['warnings']>>;
export type Disposition = NonNullable<Warning['outcome']>;
export type AppendRequestNode = Item<Body<WorkflowPath<'/outcomes/{outcome}/nodes'>, 'post'>['nodes']>;
export type GraphBody = Omit<Body<WORKFLOW, 'put'>, 'expectedVersion'>;
export type PatchNodeBody = Item<Body<WORKFLOW, 'patch'>['nodes']>;
export type VersionSummary = Item<Data<WorkflowPath<'/versions'>>>;
export type BusinessDiff = Data<WorkflowPath<'/versions/{from}/diff/{to}'>>;
export type BusinessChange = Item<BusinessDiff['changes']>;
export type ImpactReport = Data<WorkflowPath<'/impact'>, 'post'>;
export type TestRunBody = Body<WorkflowPath<'/test-runs'>, 'post'>;
export type Execution = Data<WorkflowPath<'/executions/{executionId}'>>;
export type ExecutionStep = Item<Execution['steps']>;
export type StepStatus = ExecutionStep['status'];
export type StepStatsReport = Data<WorkflowPath<'/step-stats'>>;
export type StepStat = Item<StepStatsReport['steps']>;
export type StepStatsWindow = StepStatsReport['window'];
export type Replay = Data<WorkflowPath<'/replays/{replayId}'>>;
export type ReplayCall = Item<Replay['calls']>;
export type DryRun = NonNullable<ReplayCall['before']>;
export type DryRunEffect = Item<DryRun['effects']>;
export type StartReplayBody = Body<WorkflowPath<'/replays'>, 'post'>;
export type TemplateSummary = Item<Data<'/api/agent-builder/workflow-templates'>>;
export type FailedRun = Item<Data<'/api/agent-builder/failed-runs'>>;
export type RetryResult = Item<Data<'/api/agent-builder/failed-runs/retry', 'post'>>;

export type Project = Data<'/api/v2/projects/{id}'>;
export type ProjectStatus = Project['status'];
export type ConnectProjectBody = Body<'/api/v2/projects', 'post'>;
export type CrmCredentials = Body<'/api/v2/projects/{id}/reconnect', 'post'>['credentials'];
export type Campaign = Item<Data<'/api/agent-builder/projects/{locationId}/campaigns'>>;
export type CallingWindow = Extract<NonNullable<Campaign['callingWindow']>, { tz: string }>;
export type Agent = Data<'/api/agent-builder/agents/{id}'>;
export type PostCallField = Item<Agent['postCallFields']>;

export type CustomValue = Item<Answer<'/api/agent-builder/agents/{id}/crm-custom-values'>['values']>;
export type CustomField = Item<Answer<'/api/agent-builder/agents/{id}/crm-custom-fields'>['fields']>;
export type Pipeline = Item<Data<'/api/agent-builder/agents/{id}/crm/pipelines'>>;
export type CrmCalendar = Item<Data<'/api/agent-builder/agents/{id}/crm/calendars'>>;

export type Agency = Data<'/api/agency'>;
export type CredentialSummary = Item<Agency['credentials']>;
export type Alert = Item<Data<'/api/agency/alerts'>>;
export type TwilioCredentials = Body<'/api/agency/credentials/twilio', 'put'>;
export type VapiCredentials = Body<'/api/agency/credentials/vapi', 'put'>;
export type VapiConnected = Data<'/api/agency/credentials/vapi', 'put'>;
export type SigningSecret = Data<'/api/agency/signing-secret/rotate', 'post'>;

export type CallRecord = Data<'/api/call-history/by-call-id/{callId}'>;
export type CallPage = Data<'/api/call-history'>;
export type CallFilters = Query<'/api/call-history'>;

export type Cadence = Data<'/api/power-dialer/cadences/{id}'>;
export type CadenceStep = Item<Cadence['steps']>;
export type PipelineLead = Data<'/api/power-dialer/leads/{leadId}'>;
export type LeadPage = Data<'/api/power-dialer/pipeline/leads'>;
export type LeadQuery = Query<'/api/power-dialer/pipeline/s2l-parked'>;
export type EnrolLeadBody = Body<'/api/power-dialer/leads', 'post'>;

export type ApiKey = Item<Data<'/api/keys'>>;
export type Role = ApiKey['role'];
export type Scope = Item<ApiKey['scopes']>;
export type CreateApiKeyBody = Body<'/api/keys', 'post'>;
export type CreatedApiKey = Data<'/api/keys', 'post'>;
