import { describeConditions } from './conditions.js';
import { DISPOSITIONS, OUTCOMES, type Disposition } from './outcomes.js';
import type { Graph, GraphNode, IfConfig, SwitchConfig } from './types.js';
import { isDraft } from './types.js';
import { reachable, successor } from './walk.js';

const TYPE_WORDS: Record<string, string> = {
  'add-tag': 'add tag',
  'remove-tag': 'remove tag',
  'set-field': 'set field',
  'move-stage': 'move stage',
  'add-note': 'add note',
  'send-sms': 'send SMS',
  'send-email': 'send email',
  'book-appointment': 'book appointment',
  if: 'if',
  switch: 'switch',
};

/**
 * A short quotable piece of a text: whole when it is short; otherwise up to its first clause break
 * (`,` `.` `;` `:` `!` `?` `—`) or word boundary, never cutting a `{{token}}`, followed by `…`.
 */
export function excerpt(text: string, max = 40): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const insideToken = (i: number) => t.lastIndexOf('{{', i - 1) > t.lastIndexOf('}}', i - 1);
  for (let i = 8; i <= max; i++) {
    if (',.;:!?—'.includes(t[i]!) && !insideToken(i)) return `${t.slice(0, i).trimEnd()}…`;
  }
  for (let i = max; i > 0; i--) {
    if (t[i] === ' ' && !insideToken(i)) return `${t.slice(0, i).trimEnd()}…`;
  }
  return `${t.slice(0, max)}…`;
}

const quote = (v: unknown) => (typeof v === 'string' ? `"${excerpt(v)}"` : JSON.stringify(v) ?? 'nothing');
const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : String(v));

/** One action node in words, e.g. `send SMS "Hi {{contact.firstName}}…"`, `add tag vm-left`. */
export function describeNode(n: GraphNode): string {
  const words = TYPE_WORDS[n.type] ?? n.type;
  if (isDraft(n)) return `${words} (draft, skipped)`;
  const c = n.config as Record<string, unknown>;
  switch (n.type) {
    case 'add-tag':
    case 'remove-tag': {
      const tags = Array.isArray(c.tags) ? c.tags : [];
      return `${n.type === 'add-tag' ? 'add' : 'remove'} tag${tags.length === 1 ? '' : 's'} ${list(tags)}`;
    }
    case 'set-field':
      return `set field ${String(c.field)} to ${quote(c.value)}`;
    case 'move-stage':
      return `move to stage ${String(c.stageId)} of pipeline ${String(c.pipelineId)}`;
    case 'add-note':
      return `add note ${quote(c.body)}`;
    case 'send-sms':
      return `send SMS ${quote(c.body)}${c.fromNumber ? ` from ${String(c.fromNumber)}` : ''}`;
    case 'send-email':
      return `send email ${quote(c.subject)}${c.to ? ` to ${String(c.to)}` : ''}`;
    case 'book-appointment': {
      const parts = ['book appointment'];
      if (c.startField) parts.push(`at call.fields.${String(c.startField)}`);
      if (c.durationMinutes) parts.push(`for ${String(c.durationMinutes)} min`);
      if (c.calendarId) parts.push(`on calendar ${String(c.calendarId)}`);
      return parts.join(' ');
    }
    default:
      return words;
  }
}

/** What fires from `start` on, in order; branches in words with their arms. */
function describeFrom(graph: Graph, byId: Map<string, GraphNode>, start: string | null, onPath: ReadonlySet<string>, nested: boolean): string {
  const parts: string[] = [];
  const path = new Set(onPath);
  let cur = start;
  while (cur !== null && !path.has(cur)) {
    path.add(cur);
    const n = byId.get(cur);
    if (!n) break;
    if ((n.type === 'if' || n.type === 'switch') && isDraft(n)) {
      // runs skip a draft branch along `false` / `default`
      parts.push(describeNode(n));
      cur = successor(graph, n.id, n.type === 'if' ? 'false' : 'default');
      continue;
    }
    const arm = (handle: string) => describeFrom(graph, byId, successor(graph, n.id, handle), path, true) || 'nothing';
    if (n.type === 'if') {
      const cfg = n.config as IfConfig;
      const text = `if ${describeConditions(cfg.match, cfg.conditions)}: ${arm('true')}; otherwise: ${arm('false')}`;
      parts.push(nested ? `(${text})` : text);
      break;
    }
    if (n.type === 'switch') {
      const cfg = n.config as SwitchConfig;
      const cases = (cfg.cases ?? []).map((k) => `"${k.label}" when ${describeConditions(k.match ?? cfg.match, k.conditions)}: ${arm(k.id)}`);
      const text = `switch: ${[...cases, `otherwise: ${arm('default')}`].join('; ')}`;
      parts.push(nested ? `(${text})` : text);
      break;
    }
    parts.push(describeNode(n));
    cur = successor(graph, n.id);
  }
  return parts.join(' → ');
}

/** The text of one outcome's chain, `nothing happens` when it has none. */
export function describeOutcome(graph: Graph, outcome: Disposition): string {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  return describeFrom(graph, byId, graph.dispositionEntries[outcome] ?? null, new Set(), false) || 'nothing happens';
}

/**
 * Plain text, one line per outcome in canonical order with its dashboard label: what fires, in
 * order, with branch conditions in words, e.g.
 * `Voicemail: send SMS "Hi {{contact.firstName}}…" → add tag vm-left` and
 * `Call Back: if call.fields.callback_time exists: set field contact.callback_time to "…"; otherwise: add tag callback-unscheduled`.
 * `ctx.outcomes` (the agent's emittable outcomes) limits the lines; an outcome outside it that
 * still has a chain gets a line saying it never runs. Nodes no outcome reaches are listed last.
 */
export function digestGraph(graph: Graph, ctx: { outcomes?: readonly Disposition[] } = {}): string {
  const shown = ctx.outcomes ?? DISPOSITIONS;
  const lines: string[] = [];
  for (const d of DISPOSITIONS) {
    const listed = shown.includes(d);
    const hasChain = graph.dispositionEntries[d] !== undefined;
    if (!listed && !hasChain) continue;
    const label = listed ? OUTCOMES[d].label : `${OUTCOMES[d].label} (this agent never ends a call here, so it never runs)`;
    lines.push(`${label}: ${describeOutcome(graph, d)}`);
  }
  const live = reachable(graph);
  const stray = graph.nodes.filter((n) => !live.has(n.id));
  if (stray.length > 0) lines.push(`Not reached by any outcome: ${stray.map((n) => `${describeNode(n)} (${n.id})`).join('; ')}`);
  return `${lines.join('\n')}\n`;
}
