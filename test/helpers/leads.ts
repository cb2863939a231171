import { isLive, type LeadRecord } from '../../server/store/index.js';

/**
 * A lead row as the repository stores it, for tests that write leads directly: what the test
 * names, and for the rest a scheduled lead at step 0 of the default cadence, first name from the
 * full name, timestamps at `createdAt`.
 */
export function leadRecord(
  l: Pick<LeadRecord, 'id' | 'agencyId' | 'projectId' | 'campaignId' | 'contactId' | 'locationId' | 'fullName' | 'phone' | 'createdAt'> & Partial<LeadRecord>,
): LeadRecord {
  const callStatus = l.callStatus ?? 'scheduled';
  return {
    queueId: 'q',
    cadenceId: null,
    cadenceStep: 0,
    nextCallTime: l.createdAt,
    timezone: 'America/Chicago',
    firstName: l.fullName.split(' ')[0]!,
    email: '',
    live: isLive(callStatus),
    callerPreference: '',
    tags: [],
    businessName: 'B',
    pipeline: '',
    campaignName: 'C',
    updatedAt: l.createdAt,
    ...l,
    callStatus,
  };
}
