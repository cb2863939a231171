import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { renderConfig } from '../templates/render.js';
import { PermanentPortError, RateLimitedError, type Contact, type EffectContext, type Ports } from '../ports.js';
import { effectKey, type ActionInput, type ActionType, type RunContext } from '../workflows/post-call-types.js';

type Config = Record<string, unknown>;

/** Failures that retrying cannot fix become non-retryable, so a run fails fast with a clear step error. */
function permanent(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, 'PermanentActionError');
}

/** Whether any template in the config can reach `custom_values` (every token naming it contains the word). */
const usesCustomValues = (config: unknown): boolean => JSON.stringify(config ?? {}).includes('custom_values');

async function buildRunContext(ports: Ports, input: ActionInput): Promise<{ contact: Contact; ctx: RunContext }> {
  const contact = await ports.crm.getContact(input.agencyId, input.locationId, input.call.contactId);
  if (!contact) throw permanent(`contact ${input.call.contactId} not found in location ${input.locationId}`);
  // Most steps name no custom value: reading them anyway cost each step a location lookup and a
  // query (the sandbox) or a cache lookup (a real CRM, whose reads the registry keeps briefly).
  const values = usesCustomValues(input.node.config) ? await ports.crm.customValues(input.agencyId, input.locationId) : [];
  const customValues = Object.fromEntries(values.map((v) => [v.placeholder.replace(/^custom_values\./, ''), v.value]));
  return {
    contact,
    ctx: {
      call: { ...input.call, fields: input.call.fields },
      contact: { ...contact.fields, ...contact, fields: contact.fields },
      custom_values: customValues,
    },
  };
}

type Perform = (ports: Ports, effect: EffectContext, config: Config, contact: Contact, input: ActionInput) => Promise<unknown>;

const str = (v: unknown, name: string): string => {
  if (typeof v !== 'string' || v.trim() === '') throw permanent(`config.${name} is empty after rendering`);
  return v;
};

/** What each action type does against the ports, given its rendered config. */
const perform: Record<ActionType, Perform> = {
  'add-tag': (p, e, c, contact) => p.crm.addTags(e, contact.id, c.tags as string[]),
  'remove-tag': (p, e, c, contact) => p.crm.removeTags(e, contact.id, c.tags as string[]),
  'set-field': (p, e, c, contact) => p.crm.setField(e, contact.id, str(c.field, 'field'), c.value),
  'move-stage': (p, e, c, contact) => p.crm.moveStage(e, contact.id, str(c.pipelineId, 'pipelineId'), str(c.stageId, 'stageId')),
  'add-note': (p, e, c, contact) => p.crm.addNote(e, contact.id, str(c.body, 'body')),
  'send-sms': (p, e, c, contact, input) => {
    if (!contact.phone) throw permanent(`contact ${contact.id} has no phone number`);
    const from = (c.fromNumber as string | undefined) ?? input.campaign.callerId ?? null;
    return p.messaging.sendSms(e, { contactId: contact.id, to: contact.phone, from, body: str(c.body, 'body') });
  },
  'send-email': (p, e, c, contact) => {
    const to = (c.to as string | undefined) || contact.email;
    if (!to) throw permanent(`contact ${contact.id} has no email address and config.to is empty`);
    return p.messaging.sendEmail(e, { contactId: contact.id, to, subject: str(c.subject, 'subject'), body: str(c.body, 'body') });
  },
  'book-appointment': (p, e, c, contact, input) => {
    const calendarId = (c.calendarId as string | undefined) || input.campaign.calendarId;
    if (!calendarId) throw permanent('no calendar: set config.calendarId or the campaign config.calendarId');
    const field = (c.startField as string | undefined) || 'appointment_time';
    const start = input.call.fields[field];
    if (typeof start !== 'string' || Number.isNaN(Date.parse(start))) {
      throw permanent(`the call recorded no valid time in field "${field}"`);
    }
    return p.calendar.book(e, {
      calendarId,
      contactId: contact.id,
      startsAt: new Date(start).toISOString(),
      durationMinutes: (c.durationMinutes as number | undefined) ?? 30,
    });
  },
};

/**
 * Activity factory (dependency injection, as in Temporal's samples): the worker wires real ports,
 * tests wire flaky ones. Each action is its own (local) activity, so the retry policy applies to it
 * alone and the run's history records each action's result.
 */
export function createPostCallActivities(ports: Ports) {
  async function runAction(input: ActionInput): Promise<unknown> {
    const attempt = Context.current().info.attempt;
    const base = { executionId: input.executionId, seq: input.seq, nodeId: input.node.id, nodeType: input.node.type, attempt };
    await ports.executionLog.stepStarted({ ...base, input: input.node.config });
    try {
      const { contact, ctx } = await buildRunContext(ports, input);
      const config = renderConfig(input.node.config as Config, ctx);
      const effect: EffectContext = { agencyId: input.agencyId, locationId: input.locationId, idempotencyKey: effectKey(input, input.node.id) };
      const output = await perform[input.node.type](ports, effect, config, contact, input);
      await ports.executionLog.stepFinished({ ...base, status: 'succeeded', input: config, output });
      if (input.closesExecution) await ports.executionLog.executionFinished({ executionId: input.executionId, status: 'succeeded' });
      return output;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await ports.executionLog.stepFinished({ ...base, status: 'failed', error: message });
      if (err instanceof PermanentPortError) throw permanent(message);
      // The vendor said when to come back: the next attempt waits that long, not the policy's backoff.
      if (err instanceof RateLimitedError) throw ApplicationFailure.create({ message, type: 'RateLimited', nextRetryDelay: err.retryAfterMs });
      throw err;
    }
  }

  return {
    addTag: runAction,
    removeTag: runAction,
    setField: runAction,
    moveStage: runAction,
    addNote: runAction,
    sendSms: runAction,
    sendEmail: runAction,
    bookAppointment: runAction,
    async recordStep(s: Parameters<Ports['executionLog']['stepFinished']>[0]): Promise<void> {
      await ports.executionLog.stepFinished(s);
    },
    /** The contact as it is now, for branch conditions that read it (earlier steps may have changed it). */
    async loadContact(req: { agencyId: string; locationId: string; contactId: string }): Promise<RunContext['contact'] | null> {
      const c = await ports.crm.getContact(req.agencyId, req.locationId, req.contactId);
      return c ? { ...c.fields, ...c, tags: c.tags } : null;
    },
    async finishExecution(e: Parameters<Ports['executionLog']['executionFinished']>[0]): Promise<void> {
      await ports.executionLog.executionFinished(e);
    },
  };
}
export type PostCallActivities = ReturnType<typeof createPostCallActivities>;
