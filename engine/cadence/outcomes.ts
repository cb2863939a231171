/** The raw call outcomes (dispositions) a cadence reacts to. */
export const OUTCOMES = ['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'TRANSFER', 'RESCHEDULE'] as const;
export type Outcome = (typeof OUTCOMES)[number];

const BY_SQUASHED = new Map<string, Outcome>(OUTCOMES.map((o) => [o.replace(/_/g, ''), o]));

/**
 * The outcome named by any of its forms, in any letter case: raw (`NO_ACTION`), dashboard type
 * (`noAction`, `callBack`) or label (`No Action`, `Call Back`). Null for anything else.
 */
export function normalizeOutcome(raw: unknown): Outcome | null {
  if (typeof raw !== 'string') return null;
  return BY_SQUASHED.get(raw.replace(/[^A-Za-z]/g, '').toUpperCase()) ?? null;
}
