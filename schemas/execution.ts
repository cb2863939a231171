const json = {} as const;

export const ExecutionStep = {
  type: 'object',
  required: ['seq', 'nodeId', 'nodeType', 'status', 'attempts', 'startedAt'],
  properties: {
    seq: { type: 'integer' },
    nodeId: { type: 'string' },
    nodeType: { type: 'string' },
    status: { enum: ['running', 'succeeded', 'failed', 'skipped', 'evaluated'] },
    attempts: { type: 'integer', minimum: 1 },
    input: json,
    output: json,
    error: { type: ['string', 'null'] },
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: ['string', 'null'] },
  },
} as const;

/** One post-call run, camelCase, as execution history returns it (spec 9). */
export const Execution = {
  type: 'object',
  required: ['id', 'workflowId', 'campaignId', 'agentId', 'callId', 'outcome', 'graphVersion', 'status', 'startedAt', 'steps'],
  properties: {
    id: { type: 'string' },
    workflowId: { type: 'string' },
    campaignId: { type: 'string' },
    agentId: { type: 'string' },
    callId: { type: 'string' },
    outcome: { type: 'string' },
    graphVersion: { type: 'integer' },
    status: { enum: ['running', 'succeeded', 'failed'] },
    error: { type: ['string', 'null'] },
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: ['string', 'null'] },
    kind: { enum: ['run', 'test'], description: '`test`: a test run, every effect on the sandbox' },
    retryOf: { type: ['string', 'null'], description: 'the failed run this run resumes from its failed step' },
    retriedBy: { type: ['string', 'null'], description: 'the run that resumed this failed run; a failed run is retried at most once (retry the newest failed run of a call)' },
    steps: { type: 'array', items: ExecutionStep },
    temporalUrl: { type: ['string', 'null'], format: 'uri', description: 'this run in the Temporal Web UI (TEMPORAL_UI_URL); null when no UI address is configured' },
  },
} as const;
