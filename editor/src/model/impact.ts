/**
 * Does a save change what runs? The same business diff the server derives between versions
 * (engine/graph/business-diff.ts), minus what no run notices: positions, step names, draft steps
 * (runs skip them) and steps no outcome reaches. Only such a change is worth an impact preview
 * before saving; moving or renaming steps saves at once. Pure.
 */
import { businessDiff, type BusinessChange } from '../../../engine/graph/business-diff';
import type { ImpactReport } from '../api/types';
import type { Graph, GraphNode } from './types';
import { isDraft } from './types';

export type { BusinessChange as RunChange };

const unnamed = (g: Graph): Graph => ({ ...g, nodes: g.nodes.map(({ label: _label, ...n }) => n as GraphNode) });

export function runChanges(before: Graph, after: Graph): BusinessChange[] {
  const draftIn = (g: Graph) => new Set(g.nodes.filter((n) => isDraft(n.config)).map((n) => n.id));
  const draftBefore = draftIn(before);
  const draftAfter = draftIn(after);
  return businessDiff(unnamed(before) as never, unnamed(after) as never).filter((c) => {
    if (c.kind === 'added' && c.nodeId && draftAfter.has(c.nodeId)) return false;
    if (c.kind === 'removed' && c.nodeId && draftBefore.has(c.nodeId)) return false;
    // An outcome that only gained draft steps still does nothing.
    if (c.kind === 'started' && / has a draft step$/.test(c.text)) return false;
    return true;
  });
}

/**
 * Whether a change would meet anything: a call of the last 7 days in an outcome whose chain
 * changes, a run in flight (it keeps its pinned graph, but the admin should know), or a lead
 * waiting in the campaign's cadence (its next calls end in the new chains).
 */
export function meetsAnything(r: ImpactReport): boolean {
  return r.outcomes.some((o) => o.changed && o.callsLast7Days > 0) || r.runsInFlight.total > 0 || (r.cadence?.steps.some((s) => s.leads > 0) ?? false);
}

/** Said after a change was saved without asking, because it met nothing. */
export const IMPACT_NONE = '; no call of the last 7 days, run in flight or waiting lead is affected';
