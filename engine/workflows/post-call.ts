import { ActivityFailure, ApplicationFailure, patched, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { PostCallActivities } from '../activities/post-call.js';
import { evaluateIf, selectSwitchCase } from '../graph/conditions.js';
import { entryOf, successor } from '../graph/walk.js';
import type { GraphNode } from '../graph/types.js';
import { ACTION_TYPES, type ActionType, type PostCallInput, type PostCallResult, type RunContext } from './post-call-types.js';

/** Retries with backoff for transient failures; validation and permanent CRM errors fail at once. */
const ACTION_RETRY = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 10,
  nonRetryableErrorTypes: ['PermanentActionError'],
};

/**
 * Actions as local activities (`postCallLocalRun`) or as activities (runs started before it). A
 * local activity runs in the worker that runs the workflow and is recorded as one marker when the
 * workflow task completes: a three-action chain is one workflow task instead of four, and the
 * server schedules, dispatches and completes no activity (docs/execution.md). A backoff longer than
 * `localRetryThreshold` waits on a durable timer instead of in the worker, so a long wait between
 * attempts survives a worker restart and does not hold the workflow task open.
 */
function actionActivities(timeoutSeconds: number, local: boolean) {
  const startToCloseTimeout = `${timeoutSeconds} seconds` as const;
  return local
    ? proxyLocalActivities<PostCallActivities>({ startToCloseTimeout, retry: ACTION_RETRY, localRetryThreshold: '10 seconds' })
    : proxyActivities<PostCallActivities>({ startToCloseTimeout, retry: ACTION_RETRY });
}

// Recording is cheap, local and idempotent: a local activity avoids a task-queue round trip per step.
const log = proxyLocalActivities<PostCallActivities>({ startToCloseTimeout: '10 seconds' });

const activityOf: Record<ActionType, keyof PostCallActivities> = {
  'add-tag': 'addTag',
  'remove-tag': 'removeTag',
  'set-field': 'setField',
  'move-stage': 'moveStage',
  'add-note': 'addNote',
  'send-sms': 'sendSms',
  'send-email': 'sendEmail',
  'book-appointment': 'bookAppointment',
};

const isAction = (t: string): t is ActionType => (ACTION_TYPES as readonly string[]).includes(t);
const isDraft = (n: GraphNode) => !n.config || Object.keys(n.config).length === 0;

/** Patch ids: one per change that alters the commands a run issues (see test/temporal/replay.test.ts). */
export const PATCH_REFRESH_CONTACT_FOR_BRANCH = 'refresh-contact-before-branch';
/**
 * A run whose last step is an action closes its execution in that action's activity instead of a
 * local activity after it: the local activity cost one more activation round per run, ~10% of the
 * throughput of a three-step chain on the embedded server (bench/README.md). Asked only by
 * `postCallWorkflow` runs: `postCallRun` always closes so.
 */
export const PATCH_CLOSE_WITH_LAST_ACTION = 'close-with-last-action';

/** Whether a branch's conditions look at the contact (tags, fields), which earlier steps may change. */
const readsContact = (config: unknown) => JSON.stringify(config ?? {}).includes('"field":"contact.');

/**
 * Post-call runs as the server starts them now (POST_CALL_WORKFLOW): the walk of `postCallRun`
 * with every action as a local activity. Its own workflow type, for the reason `postCallRun` is
 * one: runs of the other types, in flight or replayed, keep the commands they were started with.
 */
export async function postCallLocalRun(input: PostCallInput): Promise<PostCallResult> {
  return walkChain(input, { refreshContactForBranch: () => true, closeInLastAction: () => true, localActions: true });
}

/**
 * Post-call runs started between `postCallWorkflow` and `postCallLocalRun`: each action an
 * activity. The same walk as `postCallWorkflow`, which asks `patched` before each change made
 * since its first runs (reading the contact again before a branch, closing in the last action);
 * this one makes them without asking. Asking records a marker and has the server upsert the
 * `TemporalChangeVersion` search attribute, on every run: ~3 ms of the embedded server's CPU a
 * run, ~5% of a plain three-step chain's throughput (bench/README.md). A new workflow type rather
 * than a flag in the input, so that a worker from before it, still running during a rolling
 * deploy, cannot take such a run (the task fails on it and goes to a worker that knows the type)
 * and record the patch marker that this code would not expect.
 */
export async function postCallRun(input: PostCallInput): Promise<PostCallResult> {
  return walkChain(input, { refreshContactForBranch: () => true, closeInLastAction: () => true, localActions: false });
}

/**
 * Post-call runs started before `postCallRun` existed, still in flight or replayed: their code,
 * with each later change behind its patch (histories v1-v3 in test/fixtures/histories).
 */
export async function postCallWorkflow(input: PostCallInput): Promise<PostCallResult> {
  return walkChain(input, {
    refreshContactForBranch: () => patched(PATCH_REFRESH_CONTACT_FOR_BRANCH),
    closeInLastAction: () => patched(PATCH_CLOSE_WITH_LAST_ACTION),
    localActions: false,
  });
}

/**
 * Changes made since the first runs: `postCallWorkflow` asks `patched` for each, `postCallRun` and
 * `postCallLocalRun` have them all; only `postCallLocalRun` runs its actions locally.
 */
interface Changes {
  refreshContactForBranch(): boolean;
  closeInLastAction(): boolean;
  localActions: boolean;
}

/**
 * Walks the chain of the call's outcome on the pinned graph: branches are evaluated here, with the
 * same pure evaluator the digest uses; every action is one (local) activity; every step is recorded.
 * `closeInLastAction` is asked once, for the last step, so a replay asks at the same point as the
 * run did.
 */
async function walkChain(input: PostCallInput, changes: Changes): Promise<PostCallResult> {
  const { workflowId } = workflowInfo();
  const actions = actionActivities(input.actionTimeoutSeconds ?? 30, changes.localActions);
  const ctx: RunContext = { call: { ...input.call, fields: input.call.fields }, contact: input.contact };
  const byId = new Map(input.graph.nodes.map((n) => [n.id, n]));
  let nodeId: string | undefined = input.startNodeId ?? entryOf(input.graph, input.outcome) ?? undefined;
  let seq = 0;
  const visited = new Set<string>();

  while (nodeId && !visited.has(nodeId)) {
    visited.add(nodeId);
    const node = byId.get(nodeId);
    if (!node) break;
    seq += 1;
    const step = { executionId: input.executionId, seq, nodeId: node.id, nodeType: node.type, attempt: 1 };
    if (node.type === 'if' || node.type === 'switch') {
      // Added after v1 histories were recorded: runs started before it replay without the read.
      if (changes.refreshContactForBranch() && readsContact(node.config)) {
        const fresh = await log.loadContact({ agencyId: input.agencyId, locationId: input.locationId, contactId: input.call.contactId });
        if (fresh) ctx.contact = fresh;
      }
      const handle = node.type === 'if' ? String(evaluateIf(node.config as never, ctx)) : selectSwitchCase(node.config as never, ctx);
      await log.recordStep({ ...step, status: 'evaluated', input: node.config, output: { handle } });
      nodeId = successor(input.graph, node.id, handle) ?? undefined;
      continue;
    }
    if (isDraft(node) || !isAction(node.type)) {
      await log.recordStep({ ...step, status: 'skipped', output: { reason: isDraft(node) ? 'draft: empty config' : `unknown type ${node.type}` } });
      nodeId = successor(input.graph, node.id) ?? undefined;
      continue;
    }
    const next = successor(input.graph, node.id) ?? undefined;
    const closes = (next === undefined || visited.has(next)) && changes.closeInLastAction();
    try {
      await actions[activityOf[node.type]]({
        agencyId: input.agencyId,
        locationId: input.locationId,
        executionId: input.executionId,
        workflowId,
        ...(input.effectScope && { effectScope: input.effectScope }),
        seq,
        node: { id: node.id, type: node.type, config: node.config as Record<string, unknown> },
        call: input.call,
        campaign: input.campaign,
        ...(closes && { closesExecution: true }),
      } as never);
    } catch (err) {
      const cause = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause.message : (err as Error).message;
      await log.finishExecution({ executionId: input.executionId, status: 'failed', error: `${node.id} (${node.type}): ${cause}` });
      return { status: 'failed', steps: seq, failedNodeId: node.id };
    }
    if (closes) return { status: 'succeeded', steps: seq };
    nodeId = next;
  }
  await log.finishExecution({ executionId: input.executionId, status: 'succeeded' });
  return { status: 'succeeded', steps: seq };
}
