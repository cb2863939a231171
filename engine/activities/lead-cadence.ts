import { ApplicationFailure } from '@temporalio/common';
import { PermanentPortError, type VoicePlatform } from '../ports.js';
import type { MirrorLeadInput, PlaceLeadCallInput } from '../workflows/lead-cadence-types.js';

/** The lead queue as the cadence activities see it; the server implements it on the leads table. */
export interface LeadQueue {
  /**
   * Marks the lead `calling` at `step` and returns what the call needs; null when the lead has
   * left the queue (removed, excluded, campaign stopped) or is finished: then no call is placed.
   */
  beginCall(
    agencyId: string,
    leadId: string,
    step: number,
    at: string,
  ): Promise<{ campaignId: string; contactId: string; phone: string; variables: Record<string, string> } | null>;
  /** Writes the workflow's state onto the lead row; a lead that left is ignored. */
  mirror(update: MirrorLeadInput): Promise<void>;
  /** Records a placed call with the platform's own id, so its end report can be matched to it. */
  callPlaced(c: { agencyId: string; callId: string; platform: string; platformCallId: string | null; campaignId: string; contactId: string; leadId: string }): Promise<void>;
}

/**
 * Activity factory for the lead cadence workflow: the worker wires the real voice platform and
 * store, tests a controllable fake platform.
 */
export function createLeadCadenceActivities(deps: { voice: VoicePlatform; leads: LeadQueue }) {
  return {
    /** Places one attempt. The call id is deterministic per attempt, so a retry asks for the same call. */
    async placeLeadCall(input: PlaceLeadCallInput): Promise<{ placed: boolean }> {
      const lead = await deps.leads.beginCall(input.agencyId, input.leadId, input.step, input.at);
      if (!lead) return { placed: false };
      try {
        const placed = await deps.voice.placeCall({
          agencyId: input.agencyId,
          callId: input.callId,
          campaignId: lead.campaignId,
          contactId: lead.contactId,
          leadId: input.leadId,
          to: lead.phone,
          from: input.from,
          variables: lead.variables,
        });
        await deps.leads.callPlaced({
          agencyId: input.agencyId,
          callId: input.callId,
          platform: placed.platform ?? 'unknown',
          platformCallId: placed.platformCallId ?? null,
          campaignId: lead.campaignId,
          contactId: lead.contactId,
          leadId: input.leadId,
        });
      } catch (err) {
        if (err instanceof PermanentPortError) throw ApplicationFailure.nonRetryable(err.message, 'PermanentCallError');
        throw err;
      }
      return { placed: true };
    },
    async mirrorLead(update: MirrorLeadInput): Promise<void> {
      await deps.leads.mirror(update);
    },
  };
}
export type LeadCadenceActivities = ReturnType<typeof createLeadCadenceActivities>;
