import type { CalendarInfo, Contact, CustomField, CustomValue, LocationInfo, Pipeline } from '../../../engine/ports.js';

/**
 * Pure translation between LeadConnector v2 payloads and our port shapes. Vendor payloads are read
 * defensively: the published schemas mark almost nothing required and real answers omit fields.
 */

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strOrNull = (v: unknown): string | null => str(v) ?? null;

/** A location custom field as the vendor lists it. */
export interface GhlField {
  id: string;
  name: string;
  /** `contact.callback_time` */
  fieldKey: string;
  dataType: string;
}

export function toGhlFields(payload: unknown): GhlField[] {
  return arr(obj(payload).customFields)
    .map(obj)
    .filter((f) => str(f.id) && str(f.fieldKey))
    .map((f) => ({ id: f.id as string, name: str(f.name) ?? (f.fieldKey as string), fieldKey: f.fieldKey as string, dataType: str(f.dataType) ?? 'TEXT' }));
}

/**
 * Our key for a field, whichever way a workflow wrote it: `callback_time`, `contact.callback_time`
 * or the token `{{contact.callback_time}}` all mean the contact field `callback_time`.
 */
export function fieldKeyOf(field: string): string {
  return field
    .trim()
    .replace(/^\{\{\s*/, '')
    .replace(/\s*\}\}$/, '')
    .replace(/^contact\./, '');
}

export function findField(fields: GhlField[], field: string): GhlField | undefined {
  const key = fieldKeyOf(field);
  return fields.find((f) => f.fieldKey === `contact.${key}` || f.fieldKey === key || f.id === field);
}

/** Contact fields only (the list may include opportunity fields); spec 2.9 shapes. */
export function toCustomFields(fields: GhlField[]): CustomField[] {
  return fields
    .filter((f) => f.fieldKey.startsWith('contact.'))
    .map((f) => ({ id: f.id, name: f.name, fieldKey: f.fieldKey, placeholder: `{{${f.fieldKey}}}`, dataType: f.dataType }));
}

/** GoHighLevel writes the token with spaces (`{{ custom_values.x }}`); ours has none. */
export function toCustomValues(payload: unknown): CustomValue[] {
  return arr(obj(payload).customValues)
    .map(obj)
    .filter((v) => str(v.id))
    .map((v) => {
      const token = (str(v.fieldKey) ?? '').replace(/^\{\{\s*/, '').replace(/\s*\}\}$/, '').trim();
      const placeholder = token || `custom_values.${slug(str(v.name) ?? (v.id as string))}`;
      return { id: v.id as string, name: str(v.name) ?? placeholder, fieldKey: `{{${placeholder}}}`, placeholder, value: typeof v.value === 'string' ? v.value : String(v.value ?? '') };
    });
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** A vendor contact as our Contact; custom fields keyed by our key (`callback_time`), else by their id. */
export function toContact(raw: unknown, fields: GhlField[], locationId: string): Contact | null {
  const c = obj(raw);
  const id = str(c.id);
  if (!id) return null;
  const keyById = new Map(fields.map((f) => [f.id, fieldKeyOf(f.fieldKey)]));
  const values: Record<string, unknown> = {};
  for (const f of arr(c.customFields ?? c.customField).map(obj)) {
    const fid = str(f.id);
    if (!fid) continue;
    values[keyById.get(fid) ?? fid] = f.value ?? f.fieldValue ?? f.field_value ?? null;
  }
  const firstName = str(c.firstName);
  const lastName = str(c.lastName);
  const fullName = str(c.name) ?? str(c.contactName) ?? (([firstName, lastName].filter(Boolean).join(' ') || undefined) as string | undefined);
  return {
    id,
    locationId: str(c.locationId) ?? locationId,
    ...(firstName && { firstName }),
    ...(lastName && { lastName }),
    ...(fullName && { fullName }),
    ...(str(c.email) && { email: str(c.email) }),
    ...(str(c.phone) && { phone: str(c.phone) }),
    ...(str(c.timezone) && { timezone: str(c.timezone) }),
    tags: arr(c.tags).filter((t): t is string => typeof t === 'string'),
    fields: values,
  };
}

/** What GoHighLevel stores for a field value: text for scalars (its number fields take "42" too). */
export function toFieldValue(v: unknown): unknown {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return v;
}

export function toLocation(payload: unknown, locationId: string): LocationInfo {
  const l = obj(obj(payload).location);
  const b = obj(l.business);
  return {
    id: str(l.id) ?? locationId,
    name: strOrNull(l.name) ?? strOrNull(b.name),
    timezone: strOrNull(l.timezone) ?? strOrNull(b.timezone),
    country: strOrNull(l.country) ?? strOrNull(b.country),
    phone: strOrNull(l.phone),
    address: strOrNull(l.address) ?? strOrNull(b.address),
    city: strOrNull(l.city) ?? strOrNull(b.city),
    state: strOrNull(l.state) ?? strOrNull(b.state),
    postalCode: strOrNull(l.postalCode) ?? strOrNull(b.postalCode),
    email: strOrNull(l.email),
    website: strOrNull(l.website) ?? strOrNull(b.website),
  };
}

/** Stages without an id and a name are dropped (the published schema even types them as arrays). */
export function toPipelines(payload: unknown): Pipeline[] {
  return arr(obj(payload).pipelines)
    .map(obj)
    .filter((p) => str(p.id))
    .map((p) => ({
      id: p.id as string,
      name: str(p.name) ?? (p.id as string),
      stages: arr(p.stages)
        .map(obj)
        .filter((s) => str(s.id))
        .map((s) => ({ id: s.id as string, name: str(s.name) ?? (s.id as string) })),
    }));
}

export function toCalendars(payload: unknown): CalendarInfo[] {
  return arr(obj(payload).calendars)
    .map(obj)
    .filter((c) => str(c.id))
    .map((c) => ({ id: c.id as string, name: str(c.name) ?? (c.id as string) }));
}

/** Free-slot answers are `{ "2024-10-28": { slots: [iso, ...] }, ... }`: every slot start, in epoch ms. */
export function slotStarts(payload: unknown): number[] {
  const out: number[] = [];
  for (const day of Object.values(obj(payload))) {
    for (const s of arr(obj(day).slots)) {
      const at = typeof s === 'string' ? Date.parse(s) : Date.parse(str(obj(s).from) ?? '');
      if (!Number.isNaN(at)) out.push(at);
    }
  }
  return out;
}

const HTML_TAG = /<\/?(p|br|div|span|a|b|i|u|strong|em|ul|ol|li|table|thead|tbody|tr|td|th|h[1-6]|img|html|body|blockquote|hr)\b[^>]*>/i;

/** Email bodies are authored as text; GoHighLevel sends `html`. HTML the author wrote passes as is. */
export function emailHtml(body: string): string {
  if (HTML_TAG.test(body)) return body;
  return body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, '<br>');
}

/** Text of a body for comparing what we sent with what the vendor lists (tags, entities, spacing ignored). */
export function plainText(s: string): string {
  return s
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
