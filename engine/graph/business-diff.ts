import { describeConditions } from './conditions.js';
import { describeNode, excerpt } from './digest.js';
import { DISPOSITIONS, OUTCOMES, type Disposition } from './outcomes.js';
import type { Graph, GraphNode, IfConfig, SwitchConfig } from './types.js';
import { isDraft } from './types.js';
import { successor } from './walk.js';

/** One change between two versions of a workflow, in words a business owner reads. */
export interface BusinessChange {
  outcome: Disposition;
  kind: 'started' | 'stopped' | 'added' | 'removed' | 'changed' | 'condition' | 'reordered';
  /** the step concerned, when one is */
  nodeId?: string;
  text: string;
}

/** What a step does, as a verb phrase: `books an appointment`, `adds tag vm-left`. */
function doesPhrase(n: GraphNode): string {
  const c = n.config as Record<string, unknown>;
  const tags = Array.isArray(c.tags) ? (c.tags as unknown[]).map(String).join(', ') : '';
  switch (n.type) {
    case 'add-tag':
      return tags ? `adds tag ${tags}` : 'adds a tag';
    case 'remove-tag':
      return tags ? `removes tag ${tags}` : 'removes a tag';
    case 'set-field':
      return c.field ? `sets ${String(c.field)}` : 'sets a field';
    case 'move-stage':
      return 'moves the pipeline stage';
    case 'add-note':
      return 'adds a note';
    case 'send-sms':
      return 'sends an SMS';
    case 'send-email':
      return 'sends an email';
    case 'book-appointment':
      return 'books an appointment';
    case 'if':
    case 'switch':
      return `branches (${n.type})`;
    default:
      return `runs ${n.type}`;
  }
}

/** The short name of a step, for "after …": `move stage`, `send SMS`. */
const shortName = (n: GraphNode) => describeNode({ ...n, config: {} }).replace(/ \(draft, skipped\)$/, '');

/** Which setting of a step changed, in words: `the SMS text`, `the tags added`, `the stage`. */
const FIELD_WORDS: Record<string, Record<string, string>> = {
  'send-sms': { body: 'the SMS text', fromNumber: 'the SMS sender' },
  'send-email': { subject: 'the email subject', body: 'the email text', to: 'the email recipient' },
  'add-note': { body: 'the note' },
  'add-tag': { tags: 'the tags added' },
  'remove-tag': { tags: 'the tags removed' },
  'set-field': { field: 'the field set', value: 'the value set' },
  'move-stage': { pipelineId: 'the pipeline', stageId: 'the stage' },
  'book-appointment': { calendarId: 'the calendar', startField: 'the call field with the time', durationMinutes: 'the appointment length' },
};

const shown = (v: unknown): string => {
  if (v === undefined || v === null || v === '') return 'nothing';
  if (Array.isArray(v)) return v.map(String).join(', ') || 'nothing';
  if (typeof v === 'string') return `"${v.length <= 160 ? v : excerpt(v, 160)}"`;
  return JSON.stringify(v);
};

/** A step of an outcome's flow: the node and the branch arm it sits in (`if callback_time exists`). */
interface Placed {
  node: GraphNode;
  /** the arm's identity (branch ids and handles), stable when a condition's wording changes */
  armKey: string;
  /** the arm in words */
  arm: string;
  /** the step before it on its path, for "after …" */
  previous: GraphNode | null;
}

function armWords(branch: GraphNode, handle: string): string {
  if (branch.type === 'if') {
    const cfg = branch.config as Partial<IfConfig>;
    const cond = describeConditions(cfg.match ?? 'all', cfg.conditions ?? []);
    return handle === 'true' ? `if ${cond}` : `if not (${cond})`;
  }
  const cfg = branch.config as Partial<SwitchConfig>;
  const c = (cfg.cases ?? []).find((k) => k.id === handle);
  return c ? `in case "${c.label}"` : 'otherwise';
}

function handlesOf(n: GraphNode): string[] {
  if (n.type === 'if') return ['true', 'false'];
  if (n.type === 'switch') return [...((n.config as Partial<SwitchConfig>).cases ?? []).map((c) => c.id), 'default'];
  return [];
}

/** Every step an outcome's flow can take, with the arm it is in. */
function flowOf(graph: Graph, outcome: Disposition): Placed[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const out: Placed[] = [];
  const seen = new Set<string>();
  const walk = (start: string | null, armKey: string, arm: string, previous: GraphNode | null) => {
    let cur = start;
    let prev = previous;
    while (cur !== null && !seen.has(cur)) {
      seen.add(cur);
      const n = byId.get(cur);
      if (!n) return;
      out.push({ node: n, armKey, arm, previous: prev });
      if (n.type === 'if' || n.type === 'switch') {
        for (const h of handlesOf(n)) walk(successor(graph, n.id, h), `${armKey}/${n.id}:${h}`, [arm, armWords(n, h)].filter(Boolean).join(', '), n);
        return;
      }
      prev = n;
      cur = successor(graph, n.id);
    }
  };
  walk(graph.dispositionEntries[outcome] ?? null, '', '', null);
  return out;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The changes from `before` to `after`, per outcome in canonical order, derived from the graphs
 * themselves: `Call Back no longer books an appointment`, `Voicemail: the SMS text changed from
 * "…" to "…"`, `No Action: new step add tag lost-lead after move stage`. Steps are matched by id
 * (ids are stable across edits); a step in a different branch arm counts as removed and added.
 * Layout (positions) is not a change.
 */
export function businessDiff(before: Graph, after: Graph, outcomes: readonly Disposition[] = DISPOSITIONS): BusinessChange[] {
  const changes: BusinessChange[] = [];
  for (const outcome of outcomes) {
    const label = OUTCOMES[outcome].label;
    const old = flowOf(before, outcome);
    const now = flowOf(after, outcome);
    if (old.length === 0 && now.length === 0) continue;
    if (old.length === 0) {
      changes.push({ outcome, kind: 'started', text: `${label} now ${now.filter((p) => !isDraft(p.node)).map((p) => doesPhrase(p.node)).join(', then ') || 'has a draft step'}` });
      continue;
    }
    if (now.length === 0) {
      changes.push({ outcome, kind: 'stopped', text: `${label} no longer does anything (it ${old.map((p) => doesPhrase(p.node)).join(', then ')} before)` });
      continue;
    }
    const oldById = new Map(old.map((p) => [p.node.id, p]));
    const nowById = new Map(now.map((p) => [p.node.id, p]));
    const at = (p: Placed) => (p.arm ? ` (${p.arm})` : '');
    for (const p of old) {
      const kept = nowById.get(p.node.id);
      if (!kept || kept.node.type !== p.node.type || kept.armKey !== p.armKey) {
        changes.push({ outcome, kind: 'removed', nodeId: p.node.id, text: `${label} no longer ${doesPhrase(p.node)}${at(p)}` });
      }
    }
    for (const p of now) {
      const was = oldById.get(p.node.id);
      if (!was || was.node.type !== p.node.type || was.armKey !== p.armKey) {
        const where = p.previous ? `after ${shortName(p.previous)}` : 'first';
        changes.push({ outcome, kind: 'added', nodeId: p.node.id, text: `${label}: new step ${describeNode(p.node)} ${where}${at(p)}` });
        continue;
      }
      if (p.node.type === 'if' || p.node.type === 'switch') {
        if (!sameJson(p.node.config, was.node.config)) {
          const words = (n: GraphNode) => (n.type === 'if' ? describeConditions((n.config as IfConfig).match, (n.config as IfConfig).conditions) : `${((n.config as SwitchConfig).cases ?? []).length} cases`);
          changes.push({ outcome, kind: 'condition', nodeId: p.node.id, text: `${label}: the ${p.node.type === 'if' ? 'condition' : 'switch'}${at(p)} changed from ${words(was.node)} to ${words(p.node)}` });
        }
        continue;
      }
      const a = was.node.config as Record<string, unknown>;
      const b = p.node.config as Record<string, unknown>;
      for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
        if (sameJson(a[key], b[key])) continue;
        const what = FIELD_WORDS[p.node.type]?.[key] ?? `${shortName(p.node)} setting ${key}`;
        changes.push({ outcome, kind: 'changed', nodeId: p.node.id, text: `${label}: ${what}${at(p)} changed from ${shown(a[key])} to ${shown(b[key])}` });
      }
      if ((p.node.label ?? '') !== (was.node.label ?? '')) {
        changes.push({ outcome, kind: 'changed', nodeId: p.node.id, text: `${label}: the step ${shortName(p.node)} was renamed from ${shown(was.node.label)} to ${shown(p.node.label)}` });
      }
    }
    // Steps kept in the same arm but run in another order.
    for (const armKey of new Set(now.map((p) => p.armKey))) {
      const keptIds = (flow: Placed[], other: Map<string, Placed>) => flow.filter((p) => p.armKey === armKey && other.get(p.node.id)?.armKey === armKey).map((p) => p.node.id);
      const a = keptIds(old, nowById);
      const b = keptIds(now, oldById);
      if (a.length > 1 && !sameJson(a, b)) {
        const arm = now.find((p) => p.armKey === armKey)!.arm;
        changes.push({ outcome, kind: 'reordered', text: `${label}: the steps${arm ? ` (${arm})` : ''} now run in the order ${b.map((id) => shortName(nowById.get(id)!.node)).join(', then ')}` });
      }
    }
  }
  return changes;
}
