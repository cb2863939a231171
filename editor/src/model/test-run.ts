/**
 * The test-run form: sample values for the agent's post-call fields, and the request body built
 * from what the admin typed (values parsed by the field's type). Pure.
 */
import type { PostCallField, TestRunBody } from '../api/types';

export type SampleValue = string | number | boolean | null;

/** The form's state: the outcome, each call field as typed, the sample contact as typed. */
export interface TestRunForm {
  outcome: string;
  /** per post-call field: a string (text, number, datetime, enum) or a boolean */
  fields: Record<string, string | boolean>;
  callSummary: string;
  /** `existing`: a contact this product holds, by id; `sample`: the fields below (empty ones take the sample) */
  contactMode: 'sample' | 'existing';
  contactId: string;
  contact: { firstName: string; lastName: string; phone: string; email: string };
  /** extra contact fields, one `key=value` per line */
  contactFields: string;
}

/** Recorded by the platform from what the form asks anyway: the outcome, the call summary. */
const ASKED_APART = new Set(['call_outcome', 'call_summary']);

/** The post-call fields the form asks for one by one. */
export const sampleFieldsOf = (fields: readonly PostCallField[]): PostCallField[] => fields.filter((f) => !ASKED_APART.has(f.name));

/** Tomorrow at 15:00 UTC, on the minute: a slot a booking step can take. */
export function sampleSlot(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 15, 0, 0));
  return d.toISOString().replace('.000Z', 'Z');
}

/** A sensible sample for a field of this type (what the form starts with). */
export function sampleValue(field: PostCallField, now: Date): string | boolean {
  switch (field.type) {
    case 'boolean':
      return true;
    case 'number':
      return '1';
    case 'datetime':
      return sampleSlot(now);
    default:
      return `sample ${field.name.replace(/_/g, ' ')}`;
  }
}

export function initialTestRunForm(outcomes: readonly string[], fields: readonly PostCallField[], now: Date): TestRunForm {
  return {
    outcome: outcomes[0] ?? 'VOICEMAIL',
    fields: Object.fromEntries(fields.map((f) => [f.name, sampleValue(f, now)])),
    callSummary: 'A test call.',
    contactMode: 'sample',
    contactId: '',
    contact: { firstName: '', lastName: '', phone: '', email: '' },
    contactFields: '',
  };
}

/** A typed value for a field, or an error to show under it. Empty text leaves the field out. */
export function parseFieldValue(field: PostCallField, raw: string | boolean): { value?: SampleValue; error?: string } {
  if (typeof raw === 'boolean') return { value: raw };
  const v = raw.trim();
  if (v === '') return {};
  if (field.type === 'number') {
    const n = Number(v);
    return Number.isFinite(n) ? { value: n } : { error: `${field.name}: a number, e.g. 3` };
  }
  if (field.type === 'datetime' && Number.isNaN(Date.parse(v))) return { error: `${field.name}: a date and time, e.g. 2031-03-04T15:00:00Z` };
  return { value: v };
}

/** `key=value` lines as contact fields; a line without `=` is an error. */
export function parseContactFields(text: string): { fields: Record<string, string>; error?: string } {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const i = line.indexOf('=');
    if (i <= 0) return { fields, error: `“${line}”: write key=value` };
    fields[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return { fields };
}

/** The request body, or the errors per input (keyed by field name, `contactFields`). */
export function testRunBody(form: TestRunForm, callFields: readonly PostCallField[]): { body?: TestRunBody; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const fields: Record<string, SampleValue> = {};
  for (const f of callFields) {
    const raw = form.fields[f.name];
    if (raw === undefined) continue;
    const r = parseFieldValue(f, raw);
    if (r.error) errors[f.name] = r.error;
    else if (r.value !== undefined) fields[f.name] = r.value;
  }
  const existing = form.contactMode === 'existing';
  const extra = existing ? { fields: {} } : parseContactFields(form.contactFields);
  if ('error' in extra && extra.error) errors.contactFields = extra.error;
  if (existing && !form.contactId.trim()) errors.contactId = 'The id of a contact of this project, e.g. from its CRM';
  if (Object.keys(errors).length) return { errors };
  const contact: NonNullable<TestRunBody['contact']> = {};
  if (existing) contact.id = form.contactId.trim();
  else {
    for (const k of ['firstName', 'lastName', 'phone', 'email'] as const) if (form.contact[k].trim()) contact[k] = form.contact[k].trim();
    if (Object.keys(extra.fields).length) contact.fields = extra.fields;
  }
  return {
    errors,
    body: {
      outcome: form.outcome,
      fields,
      ...(form.callSummary.trim() && { callSummary: form.callSummary.trim() }),
      ...(Object.keys(contact).length > 0 && { contact }),
    },
  };
}
