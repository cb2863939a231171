import { businessDiff } from '../../engine/graph/business-diff.js';
import { DISPOSITIONS, emittableOutcomes, normalizeOutcome, OUTCOMES } from '../../engine/graph/outcomes.js';
import { prepareGraph } from '../../engine/graph/validate.js';
import type { Graph } from '../../engine/graph/types.js';
import type { Contact } from '../../engine/ports.js';
import type { PostCallInput } from '../../engine/workflows/post-call-types.js';
import { TEST_LOCATION_PREFIX } from '../providers/registry.js';
import type { Services } from '../services.js';
import { newId } from '../ids.js';
import type { Execution, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import { invalid, notFound, unavailable } from './errors.js';
import { graphError, type WorkflowTarget } from './workflow-target.js';

/** A sample contact for a test run that names none. */
const SAMPLE_CONTACT = { firstName: 'Test', lastName: 'Contact', phone: '+15555550123', email: 'test.contact@example.com' };

export interface TestRunRequest {
  outcome: string;
  contact?: Record<string, unknown>;
  fields?: Record<string, unknown>;
  duration?: number;
  callSummary?: string;
  transcript?: string;
}

/** The contact a test run acts on, copied into the run's own sandbox location (in the caller's transaction). */
async function testContact(tx: Store, actor: Actor, t: WorkflowTarget, given: Record<string, unknown>, location: string): Promise<Contact> {
  let base: Partial<Contact> = SAMPLE_CONTACT;
  if (typeof given.id === 'string') {
    // Only what this product holds: a test run never reads the real CRM.
    const known = await tx.crm.getContact(actor.agencyId, t.project.locationId, given.id);
    const lead = known ? undefined : (await tx.leads.ofContact(actor.agencyId, t.project.locationId, given.id))[0];
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
  await tx.crm.saveContact(actor.agencyId, contact);
  // Templates render with the location's custom values: the sandbox's own are copied in.
  for (const v of await tx.crm.customValues(actor.agencyId, t.project.locationId)) {
    await tx.crm.addCustomValue(actor.agencyId, location, v.name, v.placeholder.replace(/^custom_values\./, ''), v.value);
  }
  return contact;
}

/**
 * Runs the real post-call workflow of an outcome on sample data, on the current graph, every
 * effect on a sandbox location of its own: nothing reaches a real CRM, carrier or contact. The
 * execution, its input and the sandbox contact are stored in one transaction, then the run starts.
 */
export async function startTestRun(s: Services, actor: Actor, t: WorkflowTarget, body: TestRunRequest): Promise<Execution> {
  const outcome = normalizeOutcome(body.outcome);
  if (!outcome) throw invalid(`body.outcome "${body.outcome}" is not a known outcome`);
  const emittable = emittableOutcomes(t.agent.capabilities);
  if (!emittable.includes(outcome)) throw invalid(`body.outcome: agent ${t.agent.id} can never end a call in ${outcome} (it can: ${emittable.join(', ')})`);
  if (!s.temporal) throw unavailable('the workflow engine is not connected');
  const stored = await s.store.workflows.get(actor.agencyId, t.campaign.id);
  const executionId = newId('exe');
  const location = `${TEST_LOCATION_PREFIX}${executionId}`;
  const workflowId = `test-run:${actor.agencyId}:${executionId}`;
  const callId = `test-${executionId}`;
  const input = await s.store.withTransaction(async (tx): Promise<PostCallInput> => {
    const contact = await testContact(tx, actor, t, body.contact ?? {}, location);
    await tx.executions.create({ id: executionId, agencyId: actor.agencyId, workflowId, campaignId: t.campaign.id, agentId: t.agent.id, callId, outcome, graphVersion: stored.version, kind: 'test' });
    const run: PostCallInput = {
      agencyId: actor.agencyId,
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
        fields: body.fields ?? {},
        dateTime: new Date().toISOString(),
      },
      campaign: { callerId: t.campaign.fromNumbers[0] ?? null, calendarId: (t.campaign.config.calendarId as string | undefined) ?? null },
      contact: { ...contact.fields, ...contact, tags: contact.tags },
      actionTimeoutSeconds: s.config.actionTimeoutSeconds,
      effectScope: workflowId,
    };
    await tx.runInputs.put(actor.agencyId, workflowId, run);
    return run;
  });
  try {
    await s.temporal.startPostCall(workflowId, input);
  } catch (err) {
    await s.store.executions.finish(executionId, 'failed', 'the test run could not be started');
    s.logger.error({ err, executionId }, 'starting a test run failed');
    throw unavailable('the test run could not be started; try again shortly', 5);
  }
  return (await s.store.executions.get(actor.agencyId, executionId))!;
}

/** What changed between two versions, in words per outcome; version 0 is the empty workflow. */
export async function diffVersions(store: Store, actor: Actor, t: WorkflowTarget, from: number, to: number) {
  const graphOf = async (v: number): Promise<Graph> => {
    if (v === 0) return { nodes: [], edges: [], dispositionEntries: {} };
    const stored = await store.workflows.version(actor.agencyId, t.campaign.id, v);
    if (!stored) throw notFound(`version ${v} of this workflow not found`);
    return stored.graph;
  };
  const changes = businessDiff(await graphOf(from), await graphOf(to));
  return { from, to, changes: changes.map((c) => ({ ...c, label: OUTCOMES[c.outcome].label })) };
}

/**
 * Before saving a graph: what it changes, the runs in flight it leaves alone, the calls and leads
 * it would meet. Nothing is stored.
 */
export async function previewImpact(store: Store, actor: Actor, t: WorkflowTarget, body: unknown) {
  let proposed;
  try {
    proposed = prepareGraph(body as never);
  } catch (err) {
    throw graphError(err);
  }
  const stored = await store.workflows.get(actor.agencyId, t.campaign.id);
  const changes = businessDiff(stored.graph, proposed);
  const since = new Date(Date.now() - 7 * 86_400_000).toISOString();
  const calls = await store.calls.countByDisposition(actor.agencyId, t.campaign.id, since);
  const emittable = emittableOutcomes(t.agent.capabilities);
  const inFlight = await store.executions.inFlight(actor.agencyId, t.campaign.id);
  const cadenceId = typeof t.campaign.config.cadenceId === 'string' ? t.campaign.config.cadenceId : null;
  const cadence = cadenceId ? await store.cadences.get(actor.agencyId, cadenceId) : undefined;
  const perStep = new Map((await store.leads.perStep(actor.agencyId, t.campaign.id)).map((r) => [r.step, r.n]));
  const runs = inFlight.reduce((n, r) => n + r.n, 0);
  return {
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
    cadence: cadence ? { cadenceId: cadence.id, name: cadence.name, steps: cadence.steps.map((_step, i) => ({ step: i, leads: perStep.get(i) ?? 0 })) } : null,
  };
}
