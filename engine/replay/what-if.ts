/**
 * What-if: the same calls dry-run through two versions of a workflow (engine/replay/dry-run.ts),
 * compared per call and added up in words: "12 calls would now get an SMS", "3 calls would no
 * longer be tagged vm-left". Pure.
 */
import type { ActionType } from '../graph/types.js';
import type { DryRun, DryRunEffect } from './dry-run.js';

export interface CallDifference {
  /** effects the second version has and the first has not (by key) */
  gained: DryRunEffect[];
  /** effects the first version has and the second has not */
  lost: DryRunEffect[];
  /** effects both have, with a different detail (another SMS text, another value) */
  altered: { before: DryRunEffect; after: DryRunEffect }[];
  /** the steps taken differ (another branch, a step added or removed) */
  pathChanged: boolean;
  changed: boolean;
}

const byKey = (effects: readonly DryRunEffect[]) => {
  const m = new Map<string, DryRunEffect>();
  for (const e of effects) if (!m.has(e.key)) m.set(e.key, e);
  return m;
};
const pathKey = (r: DryRun) => r.path.map((s) => `${s.nodeId}:${s.status}:${s.handle ?? ''}`).join('>');

/** How one call's effects differ from the first version (`before`) to the second (`after`). */
export function compareRuns(before: DryRun, after: DryRun): CallDifference {
  const a = byKey(before.effects);
  const b = byKey(after.effects);
  const gained = [...b.values()].filter((e) => !a.has(e.key));
  const lost = [...a.values()].filter((e) => !b.has(e.key));
  const altered = [...b.values()].flatMap((e) => {
    const was = a.get(e.key);
    return was && was.detail !== e.detail ? [{ before: was, after: e }] : [];
  });
  const pathChanged = pathKey(before) !== pathKey(after);
  return { gained, lost, altered, pathChanged, changed: pathChanged || gained.length + lost.length + altered.length > 0 };
}

/** An effect as a verb phrase after "would now" / "would no longer", and after "would" when only its detail changed. */
function phrase(e: DryRunEffect): { does: string; differently: string } {
  const subject = e.key.slice(e.key.indexOf(':') + 1);
  const words: Record<ActionType, { does: string; differently: string }> = {
    'send-sms': { does: 'get an SMS', differently: 'get a different SMS' },
    'send-email': { does: 'get an email', differently: 'get a different email' },
    'add-note': { does: 'get a note', differently: 'get a different note' },
    'book-appointment': { does: 'get an appointment booked', differently: 'get an appointment booked differently' },
    'add-tag': { does: `be tagged ${subject}`, differently: `be tagged ${subject}` },
    'remove-tag': { does: `have the tag ${subject} removed`, differently: `have the tag ${subject} removed` },
    'set-field': { does: `have ${subject} set`, differently: `have ${subject} set to another value` },
    'move-stage': { does: `be moved to stage ${subject}`, differently: `be moved to stage ${subject} in another pipeline` },
  };
  return words[e.type];
}

export interface WhatIfLine {
  /** `gained`: would now; `lost`: would no longer; `altered`: would, differently; `path`: another path, the same effects */
  kind: 'gained' | 'lost' | 'altered' | 'path';
  key: string;
  calls: number;
  text: string;
}

const calls = (n: number) => `${n} ${n === 1 ? 'call' : 'calls'}`;

/**
 * The differences of many calls in words, the most calls first: what they would now get, what they
 * would no longer get, what they would get differently, and the calls whose path alone changed.
 */
export function summarize(differences: readonly CallDifference[]): WhatIfLine[] {
  const lines = new Map<string, WhatIfLine & { order: number }>();
  const add = (kind: WhatIfLine['kind'], e: DryRunEffect | null, order: number) => {
    const key = `${kind}|${e?.key ?? ''}`;
    const line = lines.get(key);
    if (line) line.calls += 1;
    else lines.set(key, { kind, key: e?.key ?? '', calls: 1, text: '', order });
  };
  for (const d of differences) {
    for (const e of d.gained) add('gained', e, 0);
    for (const e of d.lost) add('lost', e, 1);
    for (const x of d.altered) add('altered', x.after, 2);
    if (d.pathChanged && d.gained.length + d.lost.length + d.altered.length === 0) add('path', null, 3);
  }
  const sample = new Map<string, DryRunEffect>();
  for (const d of differences) for (const e of [...d.gained, ...d.lost, ...d.altered.map((x) => x.after)]) if (!sample.has(e.key)) sample.set(e.key, e);
  return [...lines.values()]
    .sort((x, y) => x.order - y.order || y.calls - x.calls || x.key.localeCompare(y.key))
    .map(({ order: _order, ...l }) => {
      const e = sample.get(l.key);
      const text =
        l.kind === 'path'
          ? `${calls(l.calls)} would take another path, with the same effects`
          : l.kind === 'gained'
            ? `${calls(l.calls)} would now ${phrase(e!).does}`
            : l.kind === 'lost'
              ? `${calls(l.calls)} would no longer ${phrase(e!).does}`
              : `${calls(l.calls)} would ${phrase(e!).differently}`;
      return { ...l, text };
    });
}
