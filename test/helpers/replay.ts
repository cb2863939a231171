import type { Ports } from '../../engine/ports.js';
import { replayWorkflowId } from '../../engine/workflows/replay-types.js';
import type { Harness } from './harness.js';
import { awaitRun, callEnded, postCallEvent } from './events.js';

/**
 * What-if replays in tests: a campaign's real calls made through the real endpoint and worker,
 * two versions of its workflow, and a CRM read of contacts that a test can hold (to see a replay
 * mid-way and cancel it) and count (contacts read at most once per call).
 */

/** Version 1: tag vm-left; an SMS only for calls longer than 30 s. */
export const V1 = {
  nodes: [
    { id: 'n1', type: 'add-tag', config: { tags: ['vm-left'] } },
    { id: 'n2', type: 'if', config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 30 }] } },
    { id: 'n3', type: 'send-sms', config: { body: 'Hi {{contact.fullName}}, sorry we missed you!' } },
  ],
  edges: [
    { id: 'e1', source: 'n1', target: 'n2' },
    { id: 'e2', source: 'n2', target: 'n3', sourceHandle: 'true' },
  ],
  dispositionEntries: { VOICEMAIL: 'n1' },
};

/** Version 2: tag voicemail-left instead; the SMS for calls longer than 15 s. */
export const V2 = {
  ...V1,
  nodes: [
    { id: 'n1', type: 'add-tag', config: { tags: ['voicemail-left'] } },
    { id: 'n2', type: 'if', config: { match: 'all', conditions: [{ field: 'call.duration', op: 'gt', value: 15 }] } },
    V1.nodes[2]!,
  ],
};

export const wf = (agentId: string) => `/api/agent-builder/agents/${agentId}/campaign/workflow`;

/** Real voicemail calls of these durations through the events endpoint, each run awaited. */
export async function realCalls(h: Harness, campaignId: string, durations: number[], opts: { phone?: (i: number) => string; contactId?: (i: number) => string } = {}) {
  const ids: string[] = [];
  for (const [i, duration] of durations.entries()) {
    const event = callEnded(campaignId, { disposition: 'VOICEMAIL', leadName: `Lead ${i + 1}`, phoneNumber: opts.phone?.(i) ?? `+1512555${String(1000 + i).padStart(4, '0')}`, ...(opts.contactId && { contactId: opts.contactId(i) }) });
    event.call.duration = duration;
    const r = await postCallEvent(h, event);
    if (r.status !== 202) throw new Error(`call.ended: ${r.status} ${r.text}`);
    await awaitRun(h, event.call.callId);
    ids.push(event.call.callId);
  }
  return ids;
}

/** Waits for a replay's workflow to end, by Temporal's own result (a cancelled one rejects). */
export async function awaitReplay(h: Harness, replayId: string) {
  return h.temporal!.client.workflow.getHandle(replayWorkflowId(h.agencyId, replayId)).result().catch((err: Error) => ({ status: 'ended: ' + err.message }));
}

/**
 * A CRM whose contact reads are counted per contact id and, while held, wait at a gate (reads
 * already waiting are told apart from the others with `waiting`).
 */
export function contactReads() {
  const counts = new Map<string, number>();
  let held = false;
  let open: () => void = () => {};
  let gate = Promise.resolve();
  let arrived: ((id: string) => void) | null = null;
  return {
    ports: (base: Ports): Ports => ({
      ...base,
      crm: {
        ...base.crm,
        getContact: async (agencyId, locationId, id) => {
          counts.set(id, (counts.get(id) ?? 0) + 1);
          if (held) {
            arrived?.(id);
            await gate;
          }
          return base.crm.getContact(agencyId, locationId, id);
        },
      },
    }),
    counts,
    /** from now on, reads wait until `release`; resolves with the id of the first read that waits */
    hold(): Promise<string> {
      held = true;
      gate = new Promise((r) => (open = r));
      return new Promise((r) => (arrived = r));
    },
    release() {
      held = false;
      arrived = null;
      open();
    },
  };
}

/** Takes the contact out of the stored inputs of these calls' runs, as an input stored without one. */
export function dropStoredContacts(h: Harness, callIds: string[]) {
  for (const callId of callIds) {
    h.db.prepare("UPDATE run_inputs SET input = json_remove(input, '$.contact') WHERE agency_id = ? AND workflow_id = (SELECT workflow_id FROM executions WHERE agency_id = ? AND call_id = ? AND kind = 'run')").run(h.agencyId, h.agencyId, callId);
  }
}
