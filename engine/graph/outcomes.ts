/** The six dispositions and their dashboard forms (ARCHITECTURE.md "Outcomes"; spec 2.6, 2.7, 2.11). */
import { DISPOSITIONS, type Disposition } from '../../schemas/workflow.js';

export { DISPOSITIONS, type Disposition };

export interface OutcomeForms {
  /** the raw disposition, e.g. `CALLBACK` */
  disposition: Disposition;
  /** the dashboard `type`, e.g. `callBack` */
  type: string;
  /** the dashboard label, e.g. `Call Back` */
  label: string;
  /** the dashboard colour, `#rrggbb` */
  color: string;
}

export const OUTCOMES: Readonly<Record<Disposition, OutcomeForms>> = {
  VOICEMAIL: { disposition: 'VOICEMAIL', type: 'voicemail', label: 'Voicemail', color: '#8b5cf6' },
  SUCCESS: { disposition: 'SUCCESS', type: 'success', label: 'Success', color: '#16a34a' },
  CALLBACK: { disposition: 'CALLBACK', type: 'callBack', label: 'Call Back', color: '#f59e0b' },
  NO_ACTION: { disposition: 'NO_ACTION', type: 'noAction', label: 'No Action', color: '#64748b' },
  TRANSFER: { disposition: 'TRANSFER', type: 'transfer', label: 'Transfer', color: '#0ea5e9' },
  RESCHEDULE: { disposition: 'RESCHEDULE', type: 'reschedule', label: 'Reschedule', color: '#e11d48' },
};

// Every form of one disposition squashes to the same key: "NO_ACTION", "noAction", "No Action",
// "no-action" -> "noaction". So one lookup covers raw, type and label in any case and spelling.
const squash = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');
const BY_FORM = new Map<string, Disposition>();
for (const d of DISPOSITIONS) {
  BY_FORM.set(squash(d), d);
  BY_FORM.set(squash(OUTCOMES[d].type), d);
  BY_FORM.set(squash(OUTCOMES[d].label), d);
}

export const isDisposition = (s: unknown): s is Disposition => typeof s === 'string' && (DISPOSITIONS as readonly string[]).includes(s);

/**
 * The raw disposition for a raw value, dashboard type or label, in any letter case, with spaces,
 * underscores and hyphens interchangeable ("call back", "call_back", "CallBack"); null otherwise.
 */
export function normalizeOutcome(input: unknown): Disposition | null {
  if (typeof input !== 'string') return null;
  const key = squash(input.trim());
  return key === '' ? null : (BY_FORM.get(key) ?? null);
}

/** What an outcome needs installed on the agent before a call can end in it (spec 2.11). */
export const OUTCOME_CAPABILITY: Readonly<Partial<Record<Disposition, string>>> = {
  SUCCESS: 'appointment_booking',
  RESCHEDULE: 'appointment_booking',
  TRANSFER: 'live_transfer',
};

/**
 * Outcome gating (spec 2.11): VOICEMAIL, CALLBACK and NO_ACTION always; TRANSFER only with
 * `live_transfer`; SUCCESS and RESCHEDULE only with `appointment_booking`. Canonical order.
 */
export function emittableOutcomes(capabilities: readonly string[]): Disposition[] {
  return DISPOSITIONS.filter((d) => {
    const needs = OUTCOME_CAPABILITY[d];
    return needs === undefined || capabilities.includes(needs);
  });
}
