import { businessDiff } from '../../engine/graph/business-diff.js';
import { describeChange } from '../../engine/graph/describe-change.js';
import { DISPOSITIONS, emittableOutcomes, normalizeOutcome, OUTCOMES, type Disposition } from '../../engine/graph/outcomes.js';
import { prepareGraph, validateGraph } from '../../engine/graph/validate.js';
import type { Contact } from '../../engine/ports.js';
import type { PostCallInput } from '../../engine/workflows/post-call-types.js';
import { AppError, notFound } from '../http/errors.js';
import { defineRoute, type RouteDef } from '../http/route.js';
import type { Caller } from '../http/request-context.js';
import type { Services } from '../services.js';
import { newId } from '../store/ids.js';
import { TEST_LOCATION_PREFIX } from '../providers/registry.js';
import { Id, ok } from '../../schemas/common.js';
import { Execution as ExecutionSchema } from '../../schemas/execution.js';
import { Workflow, Warning } from '../../schemas/workflow.js';
import { BusinessDiff, DocumentedImpactBody, ImpactBody, ImpactReport, TemplateSummary, TestRunBody } from '../../schemas/workflow-tools.js';
import { asAppError, presentWorkflow, resolveTarget, warningsFor, type WorkflowTarget } from './workflow-target.js';
import { findTemplate, templateGraph, WORKFLOW_TEMPLATES, type WorkflowTemplate } from '../workflow-templates.js';

const anyRole = ['agency_admin', 'project_user'] as const;
const readAccess = { scope: 'workflows:read', roles: anyRole } as const;
const writeAccess = { scope: 'workflows:write', roles: ['agency_admin'] } as const;
const base = '/api/agent-builder/agents/:agentId/campaign/workflow';
const TargetQuery = { type: 'object', properties: { locationId: Id, campaignId: Id } } as const;
const AgentParams = { type: 'object', required: ['agentId'], properties: { agentId: Id } } as const;
const DiffParams = { type: 'object', required: ['agentId', 'from', 'to'], properties: { agentId: Id, from: { type: 'integer', minimum: 0 }, to: { type: 'integer', minimum: 0 } } } as const;
const TemplateParams = { type: 'object', required: ['agentId', 'templateId'], properties: { agentId: Id, templateId: { type: 'string', minLength: 1, maxLength: 100 } } } as const;

/** A sample contact for a test run that names none. */
const SAMPLE_CONTACT = { firstName: 'Test', lastName: 'Contact', phone: '+15555550123', email: 'test.contact@example.com' };

export function presentTemplate(t: WorkflowTemplate, emittable?: readonly Disposition[]) {
  const outcomes = (Object.keys(t.chains) as Disposition[]).filter((d) => !emittable || emittable.includes(d));
  return { id: t.id, name: t.name, description: t.description, system: t.system, outcomes };
}

/** Writes a template's graph on a campaign's workflow, as a PUT would (one version, validated). */
export function applyTemplate(s: Services, agencyId: string, t: WorkflowTarget, template: WorkflowTemplate, expectedVersion: number | undefined, keyId: string | null) {
  try {
    return s.repos.workflows.write({
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
    throw asAppError(err);
  }
}

/**
 * What no peer does well: try a flow safely, read what changed between versions, see what a change
 * affects before saving it, start from a template. Agent-scoped only (the project-scoped twins are
 * deprecated and get no new operations).
 */
export function workflowToolRoutes(s: Services): RouteDef[] {
  const target = (caller: Caller, agentId: string, query: { locationId?: string; campaignId?: string }) => resolveTarget(s, caller, agentId, query);

  /** The contact a test run acts on, copied into the run's own sandbox location. */
  function testContact(caller: Caller, t: WorkflowTarget, body: { contact?: Record<string, unknown> }, location: string): Contact {
    const given = body.contact ?? {};
    let base: Partial<Contact> = SAMPLE_CONTACT;
    if (typeof given.id === 'string') {
      // Only what this product holds: a test run never reads the real CRM.
      const known = s.repos.crm.getContact(caller.agencyId, t.project.locationId, given.id);
      const lead = known ? undefined : s.repos.leads.ofContact(caller.agencyId, t.project.locationId, given.id)[0];
      if (!known && !lead) throw notFound(`contact ${given.id} is not known to this product in location ${t.project.locationId}; send its fields instead`);
      base = known ?? { firstName: lead!.firstName, fullName: lead!.fullName, email: lead!.email, phone: lead!.phone, tags: lead!.tags };
    }
    const { id: _id, fields, tags, ...rest } = given as { id?: string; fields?: Record<string, unknown>; tags?: string[] };
    const contact: Contact = {
      ...base,
      ...rest,
      id: typeof given.id === 'string' ? given.id : 'test-contact',
      locationId: location,
      tags: [...(tags ?? base.tags ?? [])],
      fields: { ...(base.fields ?? {}), ...(fields ?? {}) },
    } as Contact;
    if (!contact.fullName) contact.fullName = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
    s.repos.crm.saveContact(caller.agencyId, contact);
    // Templates render with the location's custom values: the sandbox's own are copied in.
    for (const v of s.repos.crm.customValues(caller.agencyId, t.project.locationId)) {
      s.repos.crm.addCustomValue(caller.agencyId, location, v.name, v.placeholder.replace(/^custom_values\./, ''), v.value);
    }
    return contact;
  }

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
      handler: async ({ ctx, caller, params, query, body }) => {
        const t = target(caller, params.agentId, query);
        const outcome = normalizeOutcome(body.outcome);
        if (!outcome) throw new AppError('VALIDATION', `body.outcome "${body.outcome}" is not a known outcome`);
        const emittable = emittableOutcomes(t.agent.capabilities);
        if (!emittable.includes(outcome)) throw new AppError('VALIDATION', `body.outcome: agent ${t.agent.id} can never end a call in ${outcome} (it can: ${emittable.join(', ')})`);
        if (!s.temporal) throw new AppError('UNAVAILABLE', 'the workflow engine is not connected');
        const stored = s.repos.workflows.get(caller.agencyId, t.campaign.id);
        const executionId = newId('exe');
        const location = `${TEST_LOCATION_PREFIX}${executionId}`;
        const workflowId = `test-run:${caller.agencyId}:${executionId}`;
        const callId = `test-${executionId}`;
        const input = s.db.transaction((): PostCallInput => {
          const contact = testContact(caller, t, body as never, location);
          const fields = (body.fields ?? {}) as Record<string, unknown>;
          s.repos.executions.create({ id: executionId, agencyId: caller.agencyId, workflowId, campaignId: t.campaign.id, agentId: t.agent.id, callId, outcome, graphVersion: stored.version, kind: 'test' });
          const run: PostCallInput = {
            agencyId: caller.agencyId,
            locationId: location,
            executionId,
            campaignId: t.campaign.id,
            outcome,
            graphVersion: stored.version,
            graph: stored.graph,
            call: {
              callId,
              contactId: contact.id,
              phoneNumber: contact.phone ?? SAMPLE_CONTACT.phone,
              leadName: contact.fullName ?? '',
              duration: body.duration ?? 60,
              disposition: outcome,
              callSummary: body.callSummary ?? 'A test call.',
              transcript: body.transcript ?? '',
              fields,
              dateTime: new Date().toISOString(),
            },
            campaign: { callerId: t.campaign.fromNumbers[0] ?? null, calendarId: (t.campaign.config.calendarId as string | undefined) ?? null },
            contact: { ...contact.fields, ...contact, tags: contact.tags },
            actionTimeoutSeconds: s.config.actionTimeoutSeconds,
            effectScope: workflowId,
          };
          s.repos.runInputs.put(caller.agencyId, workflowId, run);
          return run;
        }).immediate();
        try {
          await s.temporal.startPostCall(workflowId, input);
        } catch (err) {
          s.repos.executions.finish(executionId, 'failed', 'the test run could not be started');
          s.logger.error({ err, executionId }, 'starting a test run failed');
          throw new AppError('UNAVAILABLE', 'the test run could not be started; try again shortly', { headers: { 'Retry-After': '5' } });
        }
        ctx.status = 202;
        return { success: true, data: s.repos.executions.get(caller.agencyId, executionId)! };
      },
    }),
    defineRoute({
      method: 'get', path: `${base}/versions/:from/diff/:to`, operationId: 'diffWorkflowVersions', tag: 'Workflow tools',
      summary: 'What changed between two versions, in words per outcome, derived from the graphs',
      description: 'E.g. "Call Back no longer books an appointment", "Voicemail: the SMS text changed from … to …", "No Action: new step add tag lost-lead after move stage". Version 0 is the empty workflow.',
      access: readAccess, params: DiffParams, query: TargetQuery,
      responses: { 200: { description: 'the changes', schema: ok(BusinessDiff) } },
      handler: ({ caller, params, query }) => {
        const t = target(caller, params.agentId, query);
        const { from, to } = params;
        const graphOf = (v: number) => {
          if (v === 0) return { nodes: [], edges: [], dispositionEntries: {} };
          const stored = s.repos.workflows.version(caller.agencyId, t.campaign.id, v);
          if (!stored) throw notFound(`version ${v} of this workflow not found`);
          return stored.graph;
        };
        const changes = businessDiff(graphOf(from), graphOf(to));
        return { success: true, data: { from, to, changes: changes.map((c) => ({ ...c, label: OUTCOMES[c.outcome].label })) } };
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
      handler: ({ caller, params, query, body }) => {
        const t = target(caller, params.agentId, query);
        let proposed;
        try {
          proposed = prepareGraph(body as never);
        } catch (err) {
          throw asAppError(err);
        }
        const stored = s.repos.workflows.get(caller.agencyId, t.campaign.id);
        const changes = businessDiff(stored.graph, proposed);
        const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
        const calls = s.repos.calls.countByDisposition(caller.agencyId, t.campaign.id, since);
        const emittable = emittableOutcomes(t.agent.capabilities);
        const inFlight = s.repos.executions.inFlight(caller.agencyId, t.campaign.id);
        const cadenceId = typeof t.campaign.config.cadenceId === 'string' ? t.campaign.config.cadenceId : null;
        const cadence = cadenceId ? s.repos.cadences.get(caller.agencyId, cadenceId) : undefined;
        const perStep = new Map(s.repos.leads.perStep(caller.agencyId, t.campaign.id).map((r) => [r.step, r.n]));
        const runs = inFlight.reduce((n, r) => n + r.n, 0);
        return {
          success: true,
          data: {
            currentVersion: stored.version,
            runsInFlight: {
              total: runs,
              byVersion: inFlight.map((r) => ({ version: r.version, runs: r.n })),
              note: runs > 0 ? `${runs} run${runs === 1 ? '' : 's'} in flight keep the graph they started with; only calls that end after saving use the new one` : 'no run is in flight',
            },
            outcomes: DISPOSITIONS.filter((d) => emittable.includes(d) || changes.some((c) => c.outcome === d)).map((d) => {
              const mine = changes.filter((c) => c.outcome === d);
              return { outcome: d, label: OUTCOMES[d].label, changed: mine.length > 0, changes: mine.map((c) => c.text), callsLast7Days: calls[OUTCOMES[d].type] ?? 0 };
            }),
            cadence: cadence
              ? { cadenceId: cadence.id, name: cadence.name, steps: cadence.steps.map((_step, i) => ({ step: i, leads: perStep.get(i) ?? 0 })) }
              : null,
          },
        };
      },
    }),
    defineRoute({
      method: 'get', path: '/api/agent-builder/workflow-templates', operationId: 'listWorkflowTemplates', tag: 'Workflow tools',
      summary: 'Starter workflows per campaign system (spec 2.7), to start an agent, a campaign or an empty workflow from',
      access: readAccess,
      query: { type: 'object', properties: { system: { type: 'string', minLength: 1, description: 'only the templates of this campaign system' }, agentId: { ...Id, description: "only the outcomes this agent can emit" } } },
      responses: { 200: { description: 'templates', schema: ok({ type: 'array', items: TemplateSummary }) } },
      handler: ({ caller, query }) => {
        const emittable = query.agentId ? emittableOutcomes(target(caller, query.agentId, {}).agent.capabilities) : undefined;
        return { success: true, data: WORKFLOW_TEMPLATES.filter((t) => !query.system || t.system === query.system).map((t) => presentTemplate(t, emittable)) };
      },
    }),
    defineRoute({
      method: 'post', path: `${base}/templates/:templateId`, operationId: 'applyWorkflowTemplate', tag: 'Workflow tools',
      summary: "Replace the workflow with a starter template (only the outcomes the agent can emit); send expectedVersion",
      access: writeAccess, params: TemplateParams, query: TargetQuery,
      body: { type: 'object', additionalProperties: false, properties: { expectedVersion: { type: 'integer', minimum: 0 } } },
      responses: { 200: { description: 'the stored workflow', schema: ok({ ...Workflow, properties: { ...Workflow.properties, warnings: { type: 'array', items: Warning } } }) } },
      handler: ({ caller, params, query, body }) => {
        const t = target(caller, params.agentId, query);
        const template = findTemplate(params.templateId);
        if (!template) throw notFound(`template ${params.templateId} not found; GET /api/agent-builder/workflow-templates lists them`);
        const stored = applyTemplate(s, caller.agencyId, t, template, body.expectedVersion, caller.keyId);
        return { success: true, data: { ...presentWorkflow(t, stored), warnings: warningsFor(t, stored) } };
      },
    }),
  ];
}
