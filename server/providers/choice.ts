import type { AgencySettings, ProjectRecord } from '../store/index.js';

/**
 * Which provider acts, decided here and nowhere else: the registry (CRM and SMS per location), the
 * voice platform the dialer calls on, number purchases and the agency's own view all ask these.
 */

export type SmsCarrier = 'crm' | 'twilio';
export type VoicePlatformChoice = 'sandbox' | 'vapi';

/** The project's own carrier, else the agency's default, else the CRM's conversations. */
export const smsCarrierOf = (project: Pick<ProjectRecord, 'smsCarrier'> | undefined, agency: AgencySettings): SmsCarrier => project?.smsCarrier ?? agency.smsCarrier ?? 'crm';

/** Where the dialer places the agency's calls: Vapi when it chose it, else the built-in sandbox. */
export const voicePlatformOf = (agency: AgencySettings): VoicePlatformChoice => agency.voicePlatform ?? 'sandbox';
