/**
 * How a call is shown: its transcript as turns, its recording as a link only when it is a web
 * address, its length and cost in words. Pure. The transcript and recording URL are the voice
 * platform's data (a tenant's, or a vendor's): they are shown as text, never as markup.
 */
import { normalizeOutcome, OUTCOMES } from '../../../engine/graph/outcomes';
import type { CallRecord } from '../api/types';

export interface Turn {
  speaker: 'agent' | 'lead' | 'other';
  /** the label as written (`Agent`, `Lead`), or '' for a line without one */
  label: string;
  text: string;
}

const SPEAKER = /^(Agent|Lead)\s*:\s?(.*)$/;

/**
 * The stored transcript's turns: one `Agent: …` or `Lead: …` line per spoken turn (the form every
 * call event and Vapi report is stored in). A line without a label continues the turn before it;
 * one before any label is a turn of its own.
 */
export function transcriptTurns(transcript: string | undefined): Turn[] {
  const turns: Turn[] = [];
  for (const raw of (transcript ?? '').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = SPEAKER.exec(line);
    if (m) turns.push({ speaker: m[1] === 'Agent' ? 'agent' : 'lead', label: m[1]!, text: m[2]! });
    else if (turns.length > 0) turns[turns.length - 1]!.text += `\n${line}`;
    else turns.push({ speaker: 'other', label: '', text: line });
  }
  return turns;
}

/** The address when it is an http(s) URL (safe to link to); null for anything else (`javascript:`, `data:`, not a URL). */
export function webUrl(text: string | undefined): string | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Seconds as `m:ss` (or `h:mm:ss`). */
export function durationText(seconds: number | undefined): string {
  if (seconds === undefined) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** US dollars, to the cent (a fraction of a cent shown as such). */
export function costText(dollars: number | undefined): string {
  if (dollars === undefined) return '—';
  return dollars > 0 && dollars < 0.01 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`;
}

/** The outcome's label and colour from our own table (the record's colour is data, not style). */
export function outcomeOf(call: Pick<CallRecord, 'disposition'>): { label: string; color: string } {
  const d = normalizeOutcome(call.disposition.type) ?? normalizeOutcome(call.disposition.label);
  return d ? { label: OUTCOMES[d].label, color: OUTCOMES[d].color } : { label: call.disposition.label || call.disposition.type, color: '#64748b' };
}

/** A recorded field's value as text. */
export const fieldText = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/** A date input (yyyy-mm-dd) as the instant the day starts or ends in this browser's zone, for the list's from/to. */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return (end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d)).toISOString();
}
