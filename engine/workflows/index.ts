// The workflow bundle's entry: every workflow the worker runs is exported here.
export { postCallLocalRun, postCallRun, postCallWorkflow } from './post-call.js';
export { leadCadenceRun, leadCadenceWorkflow } from './lead-cadence.js';
export { alertWorkflow } from './alert.js';
export { replayRun } from './replay.js';
