/**
 * A dry run of a post-call chain: the path a run would take through a graph for a stored call, and
 * the effects each action on it would have, computed without performing any. The walk is the
 * post-call workflow's (engine/workflows/post-call.ts): the outcome's entry (`entryOf`), branches
 * evaluated by the same pure evaluator (`nextStep` over engine/graph/conditions.ts), drafts skipped,
 * a node visited at most once, each action's config rendered with the same templates
 * (engine/templates/render.ts). Where the workflow reads the contact again before a branch (to see
 * what earlier steps did to it), the dry run applies its own tags and field changes to its copy of
 * the contact instead. Pure: no clock, no I/O, no randomness.
 *
 * What it does not predict: a vendor refusing an action (a taken slot, a contact without a phone);
 * every action is taken to succeed. Custom values (`{{custom_values.x}}`) are left as tokens: the
 * dry run reads nothing from the CRM.
 */
import { entryOf, nextStep } from '../graph/walk.js';
import { isActionType, isDraft, type ActionType, type Graph, type GraphNode } from '../graph/types.js';
import { renderConfig } from '../templates/render.js';
import type { CallSnapshot } from '../workflows/post-call-types.js';

export interface DryRunInput {
  graph: Graph;
  outcome: string;
  call: CallSnapshot;
  /** the contact as the run's input held it: its fields, `tags`, and `fields` */
  contact: Record<string, unknown>;
  campaign: { callerId: string | null; calendarId: string | null };
}

export interface DryRunStep {
  nodeId: string;
  type: string;
  label?: string;
  /** `acted`: an action it would perform; `evaluated`: a branch; `skipped`: a draft */
  status: 'acted' | 'evaluated' | 'skipped';
  /** a branch: the handle taken (`true`, `false`, a case id, `default`) */
  handle?: string;
}

export interface DryRunEffect {
  nodeId: string;
  type: ActionType;
  /** what the effect is, for comparing two runs: `send-sms`, `add-tag:vm-left`, `move-stage:st_won` */
  key: string;
  /** in words: `SMS "Hi Ana, …"`, `tag vm-left` */
  text: string;
  /** what in it may differ between versions with the same key: the SMS text, the value set */
  detail: string;
}

export interface DryRun {
  path: DryRunStep[];
  effects: DryRunEffect[];
}

const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const tagsOf = (v: unknown) => (Array.isArray(v) ? v.map(str).filter((t) => t !== '') : []);
const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** `{{custom_values.x}}` stays `{{custom_values.x}}`: the dry run does not read the CRM's values. */
function keptCustomValues(config: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of JSON.stringify(config ?? {}).matchAll(/\{\{\s*custom_values\.([a-zA-Z0-9_.-]+)\s*\}\}/g)) out[m[1]!] = `{{custom_values.${m[1]}}}`;
  return out;
}

/** The effects of one action with its rendered config, and what they do to the dry run's contact. */
function effectsOf(node: GraphNode, c: Record<string, unknown>, input: DryRunInput, contact: Record<string, unknown>): DryRunEffect[] {
  const type = node.type as ActionType;
  const one = (key: string, text: string, detail = '') => ({ nodeId: node.id, type, key, text, detail });
  switch (type) {
    case 'add-tag': {
      const tags = tagsOf(c.tags);
      contact.tags = [...new Set([...tagsOf(contact.tags), ...tags])];
      return tags.map((t) => one(`add-tag:${t}`, `tag ${t}`));
    }
    case 'remove-tag': {
      const tags = tagsOf(c.tags);
      contact.tags = tagsOf(contact.tags).filter((t) => !tags.includes(t));
      return tags.map((t) => one(`remove-tag:${t}`, `remove tag ${t}`));
    }
    case 'set-field': {
      const field = str(c.field).replace(/^contact\./, '');
      contact[field] = c.value;
      contact.fields = { ...((contact.fields as Record<string, unknown> | undefined) ?? {}), [field]: c.value };
      return [one(`set-field:${field}`, `set ${field} to ${clip(str(c.value), 40)}`, str(c.value))];
    }
    case 'move-stage':
      return [one(`move-stage:${str(c.stageId)}`, `move to stage ${str(c.stageId)}`, str(c.pipelineId))];
    case 'add-note':
      return [one('add-note', `note "${clip(str(c.body))}"`, str(c.body))];
    case 'send-sms':
      return [one('send-sms', `SMS "${clip(str(c.body))}"`, `${str(c.fromNumber ?? input.campaign.callerId)}\n${str(c.body)}`)];
    case 'send-email':
      return [one('send-email', `email "${clip(str(c.subject), 60)}"`, `${str(c.to)}\n${str(c.subject)}\n${str(c.body)}`)];
    case 'book-appointment': {
      const field = str(c.startField) || 'appointment_time';
      const start = str(input.call.fields[field]);
      const calendar = str(c.calendarId) || str(input.campaign.calendarId);
      const minutes = typeof c.durationMinutes === 'number' ? c.durationMinutes : 30;
      return [one('book-appointment', `book ${minutes} min${start ? ` at ${start}` : ''}${calendar ? ` on ${calendar}` : ''}`, `${calendar}\n${start}\n${minutes}`)];
    }
  }
}

/** The path and the effects of the outcome's chain for this call, nothing performed. */
export function dryRun(input: DryRunInput): DryRun {
  const { graph } = input;
  const contact: Record<string, unknown> = { ...input.contact, tags: tagsOf(input.contact.tags) };
  const ctx = { call: { ...input.call, fields: input.call.fields }, contact };
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const path: DryRunStep[] = [];
  const effects: DryRunEffect[] = [];
  const visited = new Set<string>();
  let nodeId: string | null = entryOf(graph, input.outcome);
  while (nodeId !== null && !visited.has(nodeId)) {
    visited.add(nodeId);
    const node = byId.get(nodeId);
    if (!node) break;
    const at = { nodeId: node.id, type: node.type, ...(node.label && { label: node.label }) };
    if (node.type === 'if' || node.type === 'switch') {
      const { handle, next } = nextStep(graph, node, ctx);
      path.push({ ...at, status: 'evaluated', handle: handle! });
      nodeId = next;
      continue;
    }
    nodeId = nextStep(graph, node, ctx).next;
    if (isDraft(node) || !isActionType(node.type)) {
      path.push({ ...at, status: 'skipped' });
      continue;
    }
    const config = renderConfig(node.config as Record<string, unknown>, { ...ctx, custom_values: keptCustomValues(node.config) });
    path.push({ ...at, status: 'acted' });
    effects.push(...effectsOf(node, config, input, contact));
  }
  return { path, effects };
}
