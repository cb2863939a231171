/**
 * The template tokens a text field can hold, grouped for the token picker: the contact's standard
 * and custom CRM fields, the location's custom values (spec 2.9) and what the call recorded.
 */
import type { Agent, CustomField, CustomValue } from '../api/types';

export interface Token {
  /** what is inserted, e.g. `{{contact.firstName}}` */
  token: string;
  label: string;
}
export interface TokenGroup {
  label: string;
  tokens: Token[];
}

const wrap = (path: string) => `{{${path.replace(/^\{\{\s*|\s*\}\}$/g, '')}}}`;

const CONTACT_STANDARD: Token[] = [
  { token: '{{contact.firstName}}', label: 'First name' },
  { token: '{{contact.lastName}}', label: 'Last name' },
  { token: '{{contact.phone}}', label: 'Phone' },
  { token: '{{contact.email}}', label: 'Email' },
];

const CALL_STANDARD: Token[] = [
  { token: '{{call.callSummary}}', label: 'Call summary' },
  { token: '{{call.leadName}}', label: 'Lead name' },
  { token: '{{call.duration}}', label: 'Duration (seconds)' },
  { token: '{{call.dateTime}}', label: 'Call time' },
];

/** A custom field's path under `contact.` (the CRM may give the key with or without it). */
export const contactPath = (f: Pick<CustomField, 'fieldKey'>) => (f.fieldKey.startsWith('contact.') ? f.fieldKey : `contact.${f.fieldKey}`);

export function tokenGroups(agent: Pick<Agent, 'postCallFields'> | null, values: readonly CustomValue[], fields: readonly CustomField[]): TokenGroup[] {
  const contact = [...CONTACT_STANDARD, ...fields.map((f) => ({ token: wrap(contactPath(f)), label: f.name }))];
  const custom = values.map((v) => ({ token: wrap(v.fieldKey || v.placeholder), label: v.name }));
  const call = [...CALL_STANDARD, ...(agent?.postCallFields ?? []).map((f) => ({ token: `{{call.fields.${f.name}}}`, label: `Call field: ${f.name}` }))];
  const groups: TokenGroup[] = [
    { label: 'Contact', tokens: dedupe(contact) },
    { label: 'Custom values', tokens: dedupe(custom) },
    { label: 'Call', tokens: dedupe(call) },
  ];
  return groups.filter((g) => g.tokens.length > 0);
}

/** Field paths for branch conditions and set-field (no braces). */
export function fieldPaths(agent: Pick<Agent, 'postCallFields'> | null, fields: readonly CustomField[]): string[] {
  return dedupeStrings([
    ...(agent?.postCallFields ?? []).map((f) => `call.fields.${f.name}`),
    'call.duration',
    'call.disposition',
    'contact.tags',
    'contact.firstName',
    'contact.email',
    ...fields.map(contactPath),
  ]);
}

function dedupe(tokens: Token[]): Token[] {
  const seen = new Set<string>();
  return tokens.filter((t) => (seen.has(t.token) ? false : (seen.add(t.token), true)));
}
function dedupeStrings(list: string[]): string[] {
  return [...new Set(list)];
}

/** Inserts `token` into `text` at the selection, returning the new text and caret. */
export function insertAt(text: string, token: string, start: number | null, end: number | null): { text: string; caret: number } {
  const s = start ?? text.length;
  const e = end ?? s;
  return { text: text.slice(0, s) + token + text.slice(e), caret: s + token.length };
}
