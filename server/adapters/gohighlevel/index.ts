import type { Calendar, Crm, CrmDirectory, EffectJournal, Messaging } from '../../../engine/ports.js';
import { calendarOps } from './calendars.js';
import { ghlClient, type GhlClientOptions } from './client.js';
import { contactOps } from './contacts.js';
import { conversationOps } from './conversations.js';
import { fieldCache, locationReads } from './locations.js';
import { opportunityOps } from './opportunities.js';

export { GHL_BASE_URL, GHL_VERSION } from './client.js';

export interface GohighlevelAdapterOptions extends GhlClientOptions {
  baseUrl: string;
  /** exactly-once bookkeeping for notes, messages, appointments and created opportunities */
  journal: EffectJournal;
  /** how long the location's custom field definitions are reused (default 60 s) */
  fieldCacheMs?: number;
}

export type GohighlevelAdapter = Crm & Messaging & Calendar & CrmDirectory;

/**
 * GoHighLevel (LeadConnector API v2) behind our ports, for one credential (a location's Private
 * Integration token or OAuth access token). One instance per credential: the custom field cache
 * lives in it.
 */
export function gohighlevelAdapter(opts: GohighlevelAdapterOptions): GohighlevelAdapter {
  const client = ghlClient(opts);
  const fields = fieldCache(client, opts.fieldCacheMs);
  const contacts = contactOps(client, fields, opts.journal);
  const contactName = async (locationId: string, contactId: string) => {
    const c = await contacts.getContact('', locationId, contactId);
    return c?.fullName ?? c?.phone ?? c?.email ?? contactId;
  };
  return {
    ...contacts,
    ...locationReads(client, fields),
    ...opportunityOps(client, opts.journal, contactName),
    ...conversationOps(client, opts.journal),
    ...calendarOps(client, opts.journal),
  };
}
