// Pure calling-window and cadence arithmetic. No I/O, no clock, no randomness: Temporal
// workflow code imports this, so every function is a function of its arguments.
export { CadenceError, type CadenceErrorCode } from './errors.js';
export { isValidZone, parseClock } from './time.js';
export {
  SEARCH_DAYS,
  isOpen,
  nextOpening,
  normalizeWindows,
  resolveWindows,
  resolveZoneOptions,
  scheduleZone,
  windowProblems,
  windowSettingProblems,
  windowZone,
  type WindowSources,
  type ZoneOptions,
} from './windows.js';
export {
  decideAfterCall,
  nextCallTime,
  parseDateTime,
  speedToLead,
  stepProblems,
  stepWindows,
  type AfterCallContext,
  type AfterCallDecision,
  type CadenceSteps,
  type CallFields,
  type NextCall,
  type NextCallTimeInput,
  type SpeedToLeadDecision,
  type SpeedToLeadInput,
} from './schedule.js';
export { OUTCOMES, normalizeOutcome, type Outcome } from './outcomes.js';
export { callStatusFor, dialingPlan, type DialingMode, type DialingPlan } from './modes.js';
export { areaCode, chooseCallerId } from './callerid.js';
