import { emittableOutcomes } from '../../engine/graph/outcomes.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import { presentWorkflowWithWarnings } from '../http/present.js';
import type { Services } from '../services.js';
import { Id, ok } from '../../schemas/common.js';
import { Execution as ExecutionSchema } from '../../schemas/execution.js';
import { Workflow, Warning } from '../../schemas/workflow.js';
import { BusinessDiff, DocumentedImpactBody, ImpactBody, ImpactReport, TargetQuery, TemplateSummary, TestRunBody } from '../../schemas/workflow-tools.js';
import { resolveTarget } from '../domain/workflows.js';
import { applyTemplate, listTemplates, templateById } from '../domain/templates.js';
import { diffVersions, previewImpact, startTestRun } from '../domain/workflow-tools.js';
import { stepStatistics } from '../domain/step-stats.js';
import { StepStatsQuery, StepStatsReport } from '../../schemas/step-stats.js';
import { DocumentedStartReplayBody, Replay, ReplayParams, ReplayQuery, StartReplayBody } from '../../schemas/replay.js';
import { cancelReplay, getReplay, startReplay } from '../domain/replays.js';

const anyRole = ['agency_admin', 'project_user'] as const;
const readAccess = { scope: 'workflows:read', roles: anyRole } as const;
const writeAccess = { scope: 'workflows:write', roles: ['agency_admin'] } as const;
const base = '/api/agent-builder/agents/:agentId/campaign/workflow';
const AgentParams = { type: 'object', required: ['agentId'], properties: { agentId: Id } } as const;
const DiffParams = { type: 'object', required: ['agentId', 'from', 'to'], properties: { agentId: Id, from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } } } as const;
const TemplateParams = { type: 'object', required: ['agentId', 'templateId'], properties: { agentId: Id, templateId: { type: 'string', minLength: 1, maxLength: 100 } } } as const;

/**
 * What no peer does well: try a flow safely, read what changed between versions, see what a change
 * affects before saving it, start from a template. Agent-scoped only (the project-scoped twins are
 * deprecated and get no new operations).
 */
export function workflowToolRoutes(_s: Services): RouteDef[] {
  return [
    defineRoute({
      method: 'post', path: `${base}/test-runs`, operationId: 'startWorkflowTestRun', tag: 'Workflow tools',
      summary: 'Run the workflow of an outcome on sample data, every effect on the sandbox (nothing reaches a real contact)',
      description:
        'Runs the real post-call workflow on Temporal, on the current version of the graph, for a contact (one this product knows, by `contact.id`, or sample ' +
        'fields) and sample call fields. Every action acts on a sandbox location of its own (`test:<executionId>`): whatever the project\'s real CRM and carrier, ' +
        'no request reaches them. Recorded as a test execution (kind `test`), apart from real runs: poll `GET .../executions/{id}` to watch its steps, each with ' +
        'its rendered input (the SMS text as it would be sent, the slot it would book).',
      access: writeAccess, params: AgentParams, query: TargetQuery, body: TestRunBody,
      responses: { 202: { description: 'the test run, started', schema: ok(ExecutionSchema) } },
      handler: async ({ ctx, caller, params, query, body, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        const run = await startTestRun(services, caller, t, body as never);
        ctx.status = 202;
        return { success: true, data: run };
      },
    }),
    defineRoute({
      method: 'get', path: `${base}/versions/:from/diff/:to`, operationId: 'diffWorkflowVersions', tag: 'Workflow tools',
      summary: 'What changed between two versions, in words per outcome, derived from the graphs',
      description: 'E.g. "Call Back no longer books an appointment", "Voicemail: the SMS text changed from … to …", "No Action: new step add tag lost-lead after move stage". Version 0 is the empty workflow.',
      access: readAccess, params: DiffParams, query: TargetQuery,
      responses: { 200: { description: 'the changes', schema: ok(BusinessDiff) } },
      handler: async ({ caller, params, query, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        return { success: true, data: await diffVersions(services.store, caller, t, params.from, params.to) };
      },
    }),
    defineRoute({
      method: 'post', path: `${base}/impact`, operationId: 'previewWorkflowImpact', tag: 'Workflow tools',
      summary: 'Before saving a graph: what it changes, the runs in flight it leaves alone, the calls and leads it would meet',
      description:
        'Send the graph you are about to PUT. Answers: the runs in flight on the stored versions (each keeps its pinned graph, so none of them changes), per ' +
        'outcome whether its chain changes (with the changes in words) and how many of the campaign\'s calls ended in it over the last 7 days, and for a campaign with ' +
        'a cadence how many live leads sit at each step. Nothing is stored.',
      access: readAccess, params: AgentParams, query: TargetQuery, body: ImpactBody, documentedBody: DocumentedImpactBody,
      responses: { 200: { description: 'the impact', schema: ok(ImpactReport) } },
      handler: async ({ caller, params, query, body, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        return { success: true, data: await previewImpact(services.store, caller, t, body) };
      },
    }),
    defineRoute({
      method: 'get', path: `${base}/step-stats`, operationId: 'getWorkflowStepStats', tag: 'Workflow tools',
      summary: "What the campaign's real runs did at each step: reached, succeeded, failed, skipped, p50/p95 duration, last error",
      description:
        'For the last 24 hours, 7 days or 30 days, of one graph version or all: per step, the runs that reached it, succeeded, failed (after retries), ' +
        'skipped it as a draft or evaluated it (a branch), the median and 95th percentile of its duration (within 10%), and the last error with its run. ' +
        'Test runs are not counted. Read from an hourly rollup: the window starts at the top of its first hour.',
      access: readAccess, params: AgentParams, query: StepStatsQuery,
      responses: { 200: { description: 'the statistics', schema: ok(StepStatsReport) } },
      handler: async ({ caller, params, query, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        return { success: true, data: await stepStatistics(services.store, caller, t, query) };
      },
    }),
    defineRoute({
      method: 'post', path: `${base}/replays`, operationId: 'startWorkflowReplay', tag: 'Workflow tools',
      summary: "What-if: replay the campaign's recent real calls through two graphs, nothing sent, and see what would differ",
      description:
        'Dry-runs the campaign\'s recent real calls (the last `days`, default 7, at most `limit`, default 200, newest first; their first runs, not ' +
        'retries) through two graphs: `fromVersion` (default: the current version) and `toVersion` or `graph` (a graph not saved, as a PUT body). ' +
        'Each call is replayed from the exact input its run got (contact, call fields); each graph\'s path is evaluated with the engine\'s own ' +
        'walk and conditions and each action\'s effect recorded without being performed: no contact, CRM or carrier is reached, and the CRM is ' +
        'read (a contact, once) only for a call whose stored input lacks its contact. Runs on Temporal in batches, a few at a time; poll ' +
        '`GET .../replays/{replayId}` for its progress and results, and cancel it with `POST .../replays/{replayId}/cancel`. An agency runs at ' +
        'most 3 replays at once (409 `ReplayLimit`).',
      access: readAccess, params: AgentParams, query: TargetQuery, body: StartReplayBody, documentedBody: DocumentedStartReplayBody, idempotent: 'claim',
      responses: { 202: { description: 'the replay, started', schema: ok(Replay) } },
      handler: async ({ ctx, caller, params, query, body, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        const replay = await startReplay(services, caller, t, body);
        ctx.status = 202;
        return { success: true, data: replay };
      },
    }),
    defineRoute({
      method: 'get', path: `${base}/replays/:replayId`, operationId: 'getWorkflowReplay', tag: 'Workflow tools',
      summary: 'A replay: its progress, what would differ in words, and each call\'s path and effects under both graphs',
      access: readAccess, params: ReplayParams, query: ReplayQuery,
      responses: { 200: { description: 'the replay', schema: ok(Replay) } },
      handler: async ({ caller, params, query, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        return { success: true, data: await getReplay(services.store, caller, t, params.replayId, query.calls) };
      },
    }),
    defineRoute({
      method: 'post', path: `${base}/replays/:replayId/cancel`, operationId: 'cancelWorkflowReplay', tag: 'Workflow tools',
      summary: 'Stop a running replay; the calls replayed so far are kept',
      description: 'A replay that is not running is a 409 `ReplayNotRunning`.',
      access: readAccess, params: ReplayParams, query: TargetQuery,
      responses: { 200: { description: 'the replay, cancelled', schema: ok(Replay) } },
      handler: async ({ caller, params, query, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        return { success: true, data: await cancelReplay(services, caller, t, params.replayId) };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/workflow-templates', operationId: 'listWorkflowTemplates', tag: 'Workflow tools',
      summary: 'Starter workflows per campaign system (spec 2.7), to start an agent, a campaign or an empty workflow from',
      access: readAccess,
      query: { type: 'object', properties: { system: { type: 'string', minLength: 1, description: 'only the templates of this campaign system' }, agentId: { ...Id, description: "only the outcomes this agent can emit" } } },
      responses: { 200: { description: 'templates', schema: ok({ type: 'array', items: TemplateSummary }) } },
      handler: async ({ caller, query, services }) => {
        const emittable = query.agentId ? emittableOutcomes((await resolveTarget(services.store, caller, query.agentId, {})).agent.capabilities) : undefined;
        return { success: true, data: listTemplates(query.system, emittable) };
      },
    }),
    defineRoute({
      method: 'post', path: `${base}/templates/:templateId`, operationId: 'applyWorkflowTemplate', tag: 'Workflow tools',
      summary: "Replace the workflow with a starter template (only the outcomes the agent can emit); send expectedVersion",
      access: writeAccess, params: TemplateParams, query: TargetQuery,
      body: { type: 'object', additionalProperties: false, properties: { expectedVersion: { type: 'integer', minimum: 0 } } },
      responses: { 200: { description: 'the stored workflow', schema: ok({ ...Workflow, properties: { ...Workflow.properties, warnings: { type: 'array', items: Warning } } }) } },
      handler: async ({ caller, params, query, body, services }) => {
        const t = await resolveTarget(services.store, caller, params.agentId, query);
        const template = templateById(params.templateId);
        const stored = await applyTemplate(services.store, caller.agencyId, t, template, body.expectedVersion, caller.keyId);
        return { success: true, data: presentWorkflowWithWarnings(t, stored) };
      },
    }),
  ];
}
