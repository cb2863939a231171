import type { Warning } from '../../schemas/workflow.js';
import { DISPOSITIONS, OUTCOME_CAPABILITY, OUTCOMES, type Disposition } from './outcomes.js';
import type { Graph, GraphNode } from './types.js';
import { isBranch, isDraft } from './types.js';
import { handlesOf, outcomeOfNodes, successor } from './walk.js';

export type { Warning };

export interface WarningContext {
  /** the outcomes the agent can end a call in (`emittableOutcomes(capabilities)`) */
  emittable: readonly Disposition[];
  /** the campaign has at least one caller ID (`fromNumbers`) */
  hasCallerId: boolean;
  /** the campaign names a calendar (`config.calendarId`) */
  hasCalendar: boolean;
}

/**
 * What a campaign contributes to the warnings, read one way for the server's answers and the
 * editor's live warnings alike: a caller ID among its `fromNumbers`, a calendar in its config.
 */
export function campaignWarningContext(campaign: { fromNumbers: readonly string[]; config?: { calendarId?: unknown } | null }): Pick<WarningContext, 'hasCallerId' | 'hasCalendar'> {
  const calendarId = campaign.config?.calendarId;
  return { hasCallerId: campaign.fromNumbers.length > 0, hasCalendar: typeof calendarId === 'string' && calendarId !== '' };
}

const handleName = (node: GraphNode, handle: string) => {
  if (node.type === 'if') return handle === 'true' ? 'when true' : 'otherwise (false)';
  if (handle === 'default') return 'default';
  const c = ((node.config as { cases?: { id: string; label?: string }[] }).cases ?? []).find((x) => x.id === handle);
  return c?.label ? `case "${c.label}" (${handle})` : `case ${handle}`;
};

const tagsOf = (n: GraphNode): string[] => {
  const tags = (n.config as { tags?: unknown }).tags;
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
};

/**
 * Issues worth knowing that were not refused: a 200 means the graph was stored, not that every
 * node will act. Codes are stable; the order is deterministic (outcomes, then nodes in graph
 * order, then tag conflicts per outcome). Empty on a clean graph.
 *
 * - OUTCOME_NOT_EMITTABLE: an outcome has a chain but the agent can never end a call in it.
 * - UNREACHABLE_NODE: no outcome's chain reaches the node; it never runs.
 * - DRAFT_NODE_SKIPPED: the node has an empty config; runs skip it (a draft `if` goes to `false`,
 *   a draft `switch` to `default`).
 * - SMS_WITHOUT_CALLER_ID: a send-sms without `fromNumber` while the campaign has no caller ID.
 * - APPOINTMENT_WITHOUT_CALENDAR: a book-appointment without `calendarId` while the campaign has none.
 * - BRANCH_HANDLE_UNCONNECTED: a branch handle leads nowhere; runs taking it end there.
 * - TAG_ADDED_AND_REMOVED: along one path of an outcome's chain, a tag is added and removed.
 */
export function computeWarnings(graph: Graph, ctx: WarningContext): Warning[] {
  const warnings: Warning[] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const owner = outcomeOfNodes(graph);
  const withOutcome = (id: string) => {
    const o = owner.get(id);
    return o ? { outcome: o } : {};
  };

  for (const d of DISPOSITIONS) {
    const entry = graph.dispositionEntries[d];
    if (entry === undefined || ctx.emittable.includes(d)) continue;
    const needs = OUTCOME_CAPABILITY[d];
    warnings.push({
      code: 'OUTCOME_NOT_EMITTABLE',
      outcome: d,
      nodeId: entry,
      message: `${OUTCOMES[d].label} (${d}) has a chain, but this agent can never end a call in ${d}${needs ? ` without the ${needs} capability` : ''}; the chain will not run`,
    });
  }

  for (const n of graph.nodes) {
    const what = `node ${n.id} (${n.type}${n.label ? ` "${n.label}"` : ''})`;
    if (!owner.has(n.id)) {
      warnings.push({ code: 'UNREACHABLE_NODE', nodeId: n.id, message: `${what} is not reached from any outcome and will never run` });
    }
    if (isDraft(n)) {
      const path = n.type === 'if' ? '; runs continue on its false branch' : n.type === 'switch' ? '; runs continue on its default branch' : '';
      warnings.push({ code: 'DRAFT_NODE_SKIPPED', nodeId: n.id, ...withOutcome(n.id), message: `${what} has no settings yet; runs skip it${path}` });
      continue;
    }
    if (n.type === 'send-sms' && !ctx.hasCallerId && !(n.config as { fromNumber?: unknown }).fromNumber) {
      warnings.push({
        code: 'SMS_WITHOUT_CALLER_ID',
        nodeId: n.id,
        ...withOutcome(n.id),
        message: `${what} sends an SMS, but the campaign has no caller ID and the node names no fromNumber; buy or assign a number to the campaign`,
      });
    }
    if (n.type === 'book-appointment' && !ctx.hasCalendar && !(n.config as { calendarId?: unknown }).calendarId) {
      warnings.push({
        code: 'APPOINTMENT_WITHOUT_CALENDAR',
        nodeId: n.id,
        ...withOutcome(n.id),
        message: `${what} books an appointment, but neither the node nor the campaign names a calendar; set config.calendarId on one of them`,
      });
    }
    if (isBranch(n.type)) {
      for (const h of handlesOf(n)) {
        if (successor(graph, n.id, h) !== null) continue;
        warnings.push({
          code: 'BRANCH_HANDLE_UNCONNECTED',
          nodeId: n.id,
          ...withOutcome(n.id),
          message: `${what}: branch ${handleName(n, h)} leads nowhere; runs taking it end there`,
        });
      }
    }
  }

  for (const d of DISPOSITIONS) {
    const entry = graph.dispositionEntries[d];
    if (entry === undefined) continue;
    for (const c of tagConflicts(graph, byId, entry)) {
      warnings.push({
        code: 'TAG_ADDED_AND_REMOVED',
        outcome: d,
        nodeId: c.later,
        message: `${OUTCOMES[d].label}: tag "${c.tag}" is ${c.firstAdds ? 'added' : 'removed'} by ${c.earlier} and then ${c.firstAdds ? 'removed' : 'added again'} by ${c.later} on the same run; the first step has no lasting effect`,
      });
    }
  }
  return warnings;
}

/** Along every path from `entry`, a tag both added and removed (first occurrence per tag). */
function tagConflicts(graph: Graph, byId: Map<string, GraphNode>, entry: string) {
  const found = new Map<string, { tag: string; earlier: string; later: string; firstAdds: boolean }>();
  const next = new Map<string, string[]>();
  for (const e of graph.edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  let budget = 10_000; // a DAG with many merges has exponentially many paths: stop looking, never hang
  type Seen = Map<string, { by: string; adds: boolean }>;
  const stack: { id: string; seen: Seen; depth: number }[] = [{ id: entry, seen: new Map(), depth: 0 }];
  while (stack.length && budget-- > 0) {
    const { id, seen, depth } = stack.pop()!;
    const n = byId.get(id);
    if (!n || depth > graph.nodes.length) continue;
    let here = seen;
    if (!isDraft(n) && (n.type === 'add-tag' || n.type === 'remove-tag')) {
      const adds = n.type === 'add-tag';
      here = new Map(seen);
      for (const tag of tagsOf(n)) {
        const prev = here.get(tag);
        if (prev && prev.adds !== adds && !found.has(tag)) found.set(tag, { tag, earlier: prev.by, later: n.id, firstAdds: prev.adds });
        here.set(tag, { by: n.id, adds });
      }
    }
    const targets = next.get(id) ?? [];
    for (let i = targets.length - 1; i >= 0; i--) stack.push({ id: targets[i]!, seen: here, depth: depth + 1 });
  }
  return [...found.values()];
}
