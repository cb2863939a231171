/** The path one post-call run took, as canvas highlights: a status per step, the edges it followed. Pure. */
import type { Execution, ExecutionStep, StepStatus } from '../api/types';
import type { Graph } from './types';
import { entryEdgeId } from './types';

export interface RunView {
  execution: Execution;
  /** the last status each step reached in this run */
  statusByNode: Record<string, StepStatus>;
  /** what each step did (or would do), in one line: the SMS as sent, the slot booked (`stepHeadline`) */
  textByNode: Record<string, string>;
  /** edges (and the lane's entry edge) the run went along */
  edgeIds: Record<string, true>;
  /** steps the run visited that are not on the canvas (the run used another version) */
  missing: string[];
}

export function runView(execution: Execution, g: Graph): RunView {
  const steps = [...execution.steps].sort((a, b) => a.seq - b.seq);
  const statusByNode: Record<string, StepStatus> = {};
  const textByNode: Record<string, string> = {};
  for (const s of steps) {
    statusByNode[s.nodeId] = s.status;
    const text = stepHeadline(s);
    if (text) textByNode[s.nodeId] = text;
    else delete textByNode[s.nodeId];
  }
  const edgeIds: Record<string, true> = {};
  const first = steps[0];
  if (first && g.dispositionEntries[execution.outcome] === first.nodeId) edgeIds[entryEdgeId(execution.outcome)] = true;
  // A retry repeats a step: consecutive distinct nodes are the path.
  const path = steps.map((s) => s.nodeId).filter((id, i, all) => i === 0 || all[i - 1] !== id);
  for (let i = 1; i < path.length; i++) {
    const edge = g.edges.find((e) => e.source === path[i - 1] && e.target === path[i]);
    if (edge) edgeIds[edge.id] = true;
  }
  const ids = new Set(g.nodes.map((n) => n.id));
  return { execution, statusByNode, textByNode, edgeIds, missing: [...new Set(path.filter((id) => !ids.has(id)))] };
}

/** A test run: on the sandbox, nothing reaches a real contact. */
export const isTestRun = (e: Pick<Execution, 'kind'>): boolean => e.kind === 'test';

const pad = (n: number) => String(n).padStart(2, '0');
/** `2031-03-04 15:00 UTC`: the same for every viewer (a slot is a moment, shown in UTC). */
export function utcMinute(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** `2031-03-04 15:00–15:45 UTC` (the end's date too when it is another day). */
export function slotText(starts: string, ends: string | null): string {
  const a = utcMinute(starts);
  if (!ends) return a;
  const b = utcMinute(ends);
  return a.slice(0, 10) === b.slice(0, 10) ? `${a.slice(0, 16)}–${b.slice(11)}` : `${a.slice(0, 16)} – ${b}`;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const list = (v: unknown): string | null => (Array.isArray(v) && v.length ? v.map(String).join(', ') : null);

/**
 * What a step did (or would do), in one line, from its rendered input and output: the SMS text as
 * sent, the slot booked, the tags, the note. Null when there is nothing to say beyond the status.
 */
export function stepHeadline(step: ExecutionStep): string | null {
  const input = (step.input && typeof step.input === 'object' ? step.input : {}) as Record<string, unknown>;
  const output = (step.output && typeof step.output === 'object' ? step.output : {}) as Record<string, unknown>;
  switch (step.nodeType) {
    case 'send-sms': {
      const body = text(output.body) ?? text(input.body);
      return body && `SMS: ${body}`;
    }
    case 'send-email': {
      const subject = text(input.subject);
      const body = text(input.body);
      return subject || body ? `Email: ${[subject, body].filter(Boolean).join(' — ')}` : null;
    }
    case 'add-note':
      return text(input.body) && `Note: ${text(input.body)}`;
    case 'add-tag':
      return list(input.tags) && `Adds tag ${list(input.tags)}`;
    case 'remove-tag':
      return list(input.tags) && `Removes tag ${list(input.tags)}`;
    case 'set-field':
      return text(input.field) && `Sets ${text(input.field)} to ${JSON.stringify(input.value ?? null)}`;
    case 'move-stage':
      return text(input.stageId) && `Moves to stage ${text(input.stageId)}${text(input.pipelineId) ? ` (pipeline ${text(input.pipelineId)})` : ''}`;
    case 'book-appointment': {
      const starts = text(output.startsAt);
      if (!starts) return null;
      const ends = text(output.endsAt);
      const calendar = text(output.calendarId) ?? text(input.calendarId);
      return `Books ${slotText(starts, ends)}${calendar ? ` on calendar ${calendar}` : ''}`;
    }
    case 'if':
    case 'switch': {
      const handle = text(output.handle);
      return handle && `Took the “${handle}” branch`;
    }
    default:
      return null;
  }
}
