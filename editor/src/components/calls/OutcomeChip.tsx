import type { CallRecord } from '../../api/types';
import { outcomeOf } from '../../model/calls';

/** The call's outcome, coloured from our own table of outcomes. */
export function OutcomeChip({ call }: { call: Pick<CallRecord, 'disposition'> }) {
  const o = outcomeOf(call);
  return (
    <span className="chip outcome-chip" style={{ background: o.color }}>
      {o.label}
    </span>
  );
}
