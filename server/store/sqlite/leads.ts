import type { LeadsRepository } from '../index.js';
import type { Sync } from './sync.js';
import { isLive, type LeadContactFields, type LeadMirror, type LeadRecord } from '../records.js';
import type { LeadCallStatus } from '../../../schemas/cadence.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { nowIso } from '../../ids.js';
import type { LeadSearchWriter } from './lead-search-flush.js';
import { searchText } from '../shared.js';

export interface Row {
  id: string;
  agency_id: string;
  project_id: string;
  campaign_id: string;
  contact_id: string;
  queue_id: string;
  cadence_id: string | null;
  cadence_step: number;
  call_status: string;
  next_call_time: string;
  timezone: string;
  first_name: string;
  full_name: string;
  email: string;
  phone: string;
  live: number;
  caller_preference: string;
  tags: string;
  location_id: string;
  business_name: string;
  pipeline: string;
  campaign_name: string;
  created_at: string;
  updated_at: string;
}

export const fromRow = (r: Row): LeadRecord => ({
  id: r.id,
  agencyId: r.agency_id,
  projectId: r.project_id,
  campaignId: r.campaign_id,
  contactId: r.contact_id,
  queueId: r.queue_id,
  cadenceId: r.cadence_id,
  cadenceStep: r.cadence_step,
  callStatus: r.call_status as LeadCallStatus,
  nextCallTime: r.next_call_time,
  timezone: r.timezone,
  firstName: r.first_name,
  fullName: r.full_name,
  email: r.email,
  phone: r.phone,
  live: r.live === 1,
  callerPreference: r.caller_preference,
  tags: parseJson<string[]>(r.tags, 'leads.tags'),
  locationId: r.location_id,
  businessName: r.business_name,
  pipeline: r.pipeline,
  campaignName: r.campaign_name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export { searchText };

export const COLUMNS = `id, agency_id, project_id, campaign_id, contact_id, queue_id, cadence_id, cadence_step, call_status,
  next_call_time, timezone, first_name, full_name, email, phone, live, caller_preference, tags, location_id,
  business_name, pipeline, campaign_name, created_at, updated_at`;

/**
 * The leads of the power dialer. Every write that can change a lead's search document asks the
 * lead search writer for a flush soon (lead-search-flush.ts).
 */
export function leadsRepo(db: Db, searchIndex: LeadSearchWriter): Sync<LeadsRepository> {
  const insert = db.prepare(
    `INSERT INTO leads (id, agency_id, project_id, campaign_id, contact_id, queue_id, cadence_id, cadence_step, call_status,
       next_call_time, timezone, first_name, full_name, email, phone, live, caller_preference, tags, location_id,
       business_name, pipeline, campaign_name, search, created_at, updated_at)
     VALUES (@id, @agencyId, @projectId, @campaignId, @contactId, @queueId, @cadenceId, @cadenceStep, @callStatus,
       @nextCallTime, @timezone, @firstName, @fullName, @email, @phone, @live, @callerPreference, @tags, @locationId,
       @businessName, @pipeline, @campaignName, @search, @createdAt, @updatedAt)
     ON CONFLICT (agency_id, campaign_id, contact_id) DO NOTHING`,
  );
  const get = db.prepare<[string, string], Row>(`SELECT ${COLUMNS} FROM leads WHERE agency_id = ? AND id = ?`);
  const byContactInCampaign = db.prepare<[string, string, string], Row>(
    `SELECT ${COLUMNS} FROM leads WHERE agency_id = ? AND campaign_id = ? AND contact_id = ?`,
  );
  const byContact = db.prepare<[string, string, string], Row>(`SELECT ${COLUMNS} FROM leads WHERE agency_id = ? AND location_id = ? AND contact_id = ?`);
  // A mirror that changes nothing writes nothing (a lead started as `leadCadenceWorkflow` mirrors
  // the state its enrolment stored; a state can repeat), and every write of these columns
  // maintains the indexes that hold them.
  const mirror = db.prepare(
    `UPDATE leads SET call_status = @callStatus, cadence_step = @cadenceStep, live = @live,
       next_call_time = coalesce(@nextCallTime, next_call_time), caller_preference = coalesce(@callerPreference, caller_preference),
       updated_at = @updatedAt
     WHERE agency_id = @agencyId AND id = @id
       AND (call_status IS NOT @callStatus OR cadence_step IS NOT @cadenceStep OR live IS NOT @live
         OR (@nextCallTime IS NOT NULL AND next_call_time IS NOT @nextCallTime)
         OR (@callerPreference IS NOT NULL AND caller_preference IS NOT @callerPreference))`,
  );
  const exists = db.prepare<[string, string]>('SELECT 1 FROM leads WHERE agency_id = ? AND id = ?').pluck();
  const beginCall = db.prepare<Record<string, unknown>, Row>(
    `UPDATE leads SET call_status = 'calling', cadence_step = @cadenceStep, next_call_time = @at, updated_at = @updatedAt
     WHERE agency_id = @agencyId AND id = @id AND live = 1
     RETURNING ${COLUMNS}`,
  );
  const refresh = db.prepare(
    `UPDATE leads SET first_name = @firstName, full_name = @fullName, email = @email, phone = @phone, timezone = @timezone,
       tags = @tags, pipeline = @pipeline, search = @search, updated_at = @updatedAt
     WHERE agency_id = @agencyId AND location_id = @locationId AND contact_id = @contactId`,
  );
  const remove = db.prepare('DELETE FROM leads WHERE agency_id = ? AND id = ?');
  const removeLiveOfCampaign = db.prepare<[string, string], { id: string }>(
    'DELETE FROM leads WHERE agency_id = ? AND campaign_id = ? AND live = 1 RETURNING id',
  );
  const removeLiveOfProject = db.prepare<[string, string], { id: string }>(
    'DELETE FROM leads WHERE agency_id = ? AND project_id = ? AND live = 1 RETURNING id',
  );

  const perStep = db.prepare<[string, string], { step: number; n: number }>(
    'SELECT cadence_step AS step, count(*) AS n FROM leads WHERE agency_id = ? AND campaign_id = ? AND live = 1 GROUP BY cadence_step ORDER BY cadence_step',
  );
  const recordContactEvent = db.prepare(
    'INSERT INTO contact_events (signature, agency_id, location_id, contact_id, type, received_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );

  /** After a write of leads: their search documents, noted by the triggers, follow within WRITE_BEHIND_MS. */
  const written = <T>(result: T): T => {
    searchIndex.soon();
    return result;
  };
  return {
    /** Inserts a lead; false when the contact is already in that campaign's queue (never twice). */
    insert(l: LeadRecord): boolean {
      return written(insert.run({ ...l, live: l.live ? 1 : 0, tags: JSON.stringify(l.tags), search: searchText(l) }).changes === 1);
    },
    get(agencyId: string, id: string): LeadRecord | undefined {
      const r = get.get(agencyId, id);
      return r ? fromRow(r) : undefined;
    },
    inCampaign(agencyId: string, campaignId: string, contactId: string): LeadRecord | undefined {
      const r = byContactInCampaign.get(agencyId, campaignId, contactId);
      return r ? fromRow(r) : undefined;
    },
    /** The contact's leads in every campaign of the agency on that CRM location. */
    ofContact: (agencyId: string, locationId: string, contactId: string) => byContact.all(agencyId, locationId, contactId).map(fromRow),
    /** The cadence workflow's view of the lead, written at each state change; false when the lead left. */
    mirror(agencyId: string, id: string, m: LeadMirror): boolean {
      const changed = mirror.run({
        agencyId,
        id,
        callStatus: m.callStatus,
        cadenceStep: m.cadenceStep,
        live: isLive(m.callStatus) ? 1 : 0,
        nextCallTime: m.nextCallTime ?? null,
        callerPreference: m.callerPreference ?? null,
        updatedAt: nowIso(),
      }).changes;
      return written(changed === 1) || exists.get(agencyId, id) !== undefined;
    },
    /** Marks a live lead `calling`; undefined when it left the queue or is finished (then no call is placed). */
    beginCall(agencyId: string, id: string, cadenceStep: number, at: string): LeadRecord | undefined {
      const r = written(beginCall.get({ agencyId, id, cadenceStep, at, updatedAt: nowIso() }));
      return r ? fromRow(r) : undefined;
    },
    /** Copies changed contact data onto every lead of the contact (of that location). */
    refreshContact(agencyId: string, locationId: string, contactId: string, f: LeadContactFields): void {
      written(refresh.run({ ...f, agencyId, locationId, contactId, tags: JSON.stringify(f.tags), search: searchText(f), updatedAt: nowIso() }));
    },
    remove: (agencyId: string, id: string) => written(remove.run(agencyId, id).changes === 1),
    /** Removes the leads a stopped campaign / project was still working; returns their ids. */
    removeLiveOfCampaign: (agencyId: string, campaignId: string) => written(removeLiveOfCampaign.all(agencyId, campaignId).map((r) => r.id)),
    removeLiveOfProject: (agencyId: string, projectId: string) => written(removeLiveOfProject.all(agencyId, projectId).map((r) => r.id)),
    /** Live leads of a campaign per cadence step. */
    perStep: (agencyId: string, campaignId: string) => perStep.all(agencyId, campaignId),
    /** Records a signed contact event's signature; false when it was seen before (a replay). */
    recordContactEvent(signature: string, agencyId: string, locationId: string, contactId: string, type: string): boolean {
      return recordContactEvent.run(signature, agencyId, locationId, contactId, type, nowIso()).changes === 1;
    },
  };
}
