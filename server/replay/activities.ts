import type { Crm } from '../../engine/ports.js';
import { dryRun } from '../../engine/replay/dry-run.js';
import { compareRuns } from '../../engine/replay/what-if.js';
import type { ReplayActivities, ReplayCallRef } from '../../engine/workflows/replay-types.js';
import type { ReplayCallResult, ReplayJob, Store } from '../store/index.js';

/** Whether a stored run input holds the contact as the run saw it (inputs always have since 2026, but the replay does not rely on it). */
const hasContact = (c: unknown): c is Record<string, unknown> => typeof c === 'object' && c !== null && Array.isArray((c as { tags?: unknown }).tags);

/**
 * The replay workflow's activities. Each call is replayed from its run's stored input (the exact
 * input the post-call run got: the call's fields, the contact as it was, the campaign) through both
 * graphs by the engine's pure dry run; no port that acts is reachable from here: `crm` is the read
 * of one contact, used only when the stored input lacks it (once per call).
 */
export function createReplayActivities(deps: { store: Store; crm: Pick<Crm, 'getContact'> }): ReplayActivities {
  const { store } = deps;

  async function replayOne(job: ReplayJob, ref: ReplayCallRef): Promise<ReplayCallResult> {
    const none = { seq: ref.seq, executionId: ref.executionId, before: null, after: null, changed: false, contactRead: false };
    const input = await store.runInputs.get(job.agencyId, ref.workflowId);
    if (!input) return { ...none, callId: '', outcome: '', at: '', leadName: '', error: "this call's run input is no longer stored" };
    const about = { callId: input.call.callId, outcome: input.outcome, at: input.call.dateTime, leadName: input.call.leadName };
    let contact: Record<string, unknown> = input.contact;
    let contactRead = false;
    if (!hasContact(contact)) {
      contactRead = true;
      try {
        const c = await deps.crm.getContact(job.agencyId, input.locationId, input.call.contactId);
        contact = c ? { ...c.fields, ...c, tags: c.tags } : { tags: [] };
      } catch (err) {
        return { ...none, ...about, contactRead, error: `the contact could not be read from the CRM: ${(err as Error).message}` };
      }
    }
    const base = { outcome: input.outcome, call: input.call, contact, campaign: input.campaign };
    const before = dryRun({ ...base, graph: job.fromGraph });
    const after = dryRun({ ...base, graph: job.toGraph });
    return { ...none, ...about, before, after, changed: compareRuns(before, after).changed, error: null, contactRead };
  }

  return {
    async listReplayCalls({ agencyId, replayId }) {
      const job = await store.replays.get(agencyId, replayId);
      if (!job || job.status !== 'running') return [];
      const runs = await store.executions.recentRuns({ agencyId, campaignId: job.campaignId, since: job.since, limit: job.maxCalls });
      if (!(await store.replays.planned(agencyId, replayId, runs.length))) return [];
      return runs.map((e, i) => ({ seq: i + 1, executionId: e.id, workflowId: e.workflowId }));
    },
    async replayCalls({ agencyId, replayId, calls }) {
      const job = await store.replays.get(agencyId, replayId);
      if (!job || job.status !== 'running') return { replayed: 0, stopped: true };
      let replayed = 0;
      for (const ref of calls) {
        const result = await replayOne(job, ref);
        // Cancelled meanwhile: this call's result is not kept, and no other call is replayed.
        if (!(await store.replays.addResult(agencyId, replayId, result))) return { replayed, stopped: true };
        replayed += 1;
      }
      return { replayed, stopped: false };
    },
    async finishReplay({ agencyId, replayId, status, error }) {
      await store.replays.finish(agencyId, replayId, status, error ?? null);
    },
  };
}
