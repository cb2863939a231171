import type { LeadQueue } from '../../engine/activities/lead-cadence.js';
import type { Store } from '../store/index.js';

/** The cadence activities' lead queue on the leads table. */
export function storeLeadQueue(store: Store): LeadQueue {
  return {
    async beginCall(agencyId, leadId, step, at) {
      const lead = await store.leads.beginCall(agencyId, leadId, step, at);
      if (!lead) return null;
      // What the agent's script may say: the platform hands these to the agent as variables.
      const variables = { firstName: lead.firstName, fullName: lead.fullName, businessName: lead.businessName, campaignName: lead.campaignName, email: lead.email };
      return { campaignId: lead.campaignId, contactId: lead.contactId, phone: lead.phone, variables };
    },
    async callPlaced(c) {
      await store.placedCalls.record(c);
    },
    async mirror(u) {
      await store.leads.mirror(u.agencyId, u.leadId, {
        callStatus: u.callStatus,
        cadenceStep: u.cadenceStep,
        ...(u.nextCallTime !== undefined && { nextCallTime: u.nextCallTime }),
        ...(u.callerPreference !== undefined && { callerPreference: u.callerPreference }),
      });
    },
  };
}
