import type { LeadQueue } from '../../engine/activities/lead-cadence.js';
import type { LeadsRepo } from '../store/leads.js';

/** The cadence activities' lead queue on the leads table. */
export function storeLeadQueue(leads: LeadsRepo): LeadQueue {
  return {
    async beginCall(agencyId, leadId, step, at) {
      const lead = leads.beginCall(agencyId, leadId, step, at);
      return lead ? { campaignId: lead.campaignId, contactId: lead.contactId, phone: lead.phone } : null;
    },
    async mirror(u) {
      leads.mirror(u.agencyId, u.leadId, {
        callStatus: u.callStatus,
        cadenceStep: u.cadenceStep,
        ...(u.nextCallTime !== undefined && { nextCallTime: u.nextCallTime }),
        ...(u.callerPreference !== undefined && { callerPreference: u.callerPreference }),
      });
    },
  };
}
