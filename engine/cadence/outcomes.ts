// The outcomes and their forms are defined once, in engine/graph/outcomes.ts; cadences use the same.
import { DISPOSITIONS, normalizeOutcome, type Disposition } from '../graph/outcomes.js';

export const OUTCOMES = DISPOSITIONS;
export type Outcome = Disposition;
export { normalizeOutcome };
