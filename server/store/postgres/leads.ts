import type { LeadsRepository } from '../index.js';
import { isLive, type LeadRecord } from '../records.js';
import type { LeadCallStatus } from '../../../schemas/cadence.js';
import { nowIso } from '../../ids.js';
import { searchText } from '../shared.js';
import { parseJson, type Sql } from './sql.js';

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
  live: boolean;
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
  id: r.id, agencyId: r.agency_id, projectId: r.project_id, campaignId: r.campaign_id, contactId: r.contact_id, queueId: r.queue_id,
  cadenceId: r.cadence_id, cadenceStep: r.cadence_step, callStatus: r.call_status as LeadCallStatus, nextCallTime: r.next_call_time,
  timezone: r.timezone, firstName: r.first_name, fullName: r.full_name, email: r.email, phone: r.phone, live: r.live,
  callerPreference: r.caller_preference, tags: parseJson<string[]>(r.tags, 'leads.tags'), locationId: r.location_id,
  businessName: r.business_name, pipeline: r.pipeline, campaignName: r.campaign_name, createdAt: r.created_at, updatedAt: r.updated_at,
});

export const COLUMNS = `id, agency_id, project_id, campaign_id, contact_id, queue_id, cadence_id, cadence_step, call_status,
  next_call_time, timezone, first_name, full_name, email, phone, live, caller_preference, tags, location_id,
  business_name, pipeline, campaign_name, created_at, updated_at`;

/**
 * The leads of the power dialer. Their search text is indexed with the row (a trigram GIN index,
 * migration 001): nothing is written behind, so nothing waits to be flushed.
 */
export function leadsRepo(sql: Sql): LeadsRepository {
  const one = async (text: string, values: unknown[]) => {
    const r = await sql.one<Row>(text, values);
    return r ? fromRow(r) : undefined;
  };
  return {
    insert: async (l) =>
      (await sql.run(
        `INSERT INTO leads (id, agency_id, project_id, campaign_id, contact_id, queue_id, cadence_id, cadence_step, call_status,
           next_call_time, timezone, first_name, full_name, email, phone, live, caller_preference, tags, location_id,
           business_name, pipeline, campaign_name, search, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
         ON CONFLICT (agency_id, campaign_id, contact_id) DO NOTHING`,
        [
          l.id, l.agencyId, l.projectId, l.campaignId, l.contactId, l.queueId, l.cadenceId, l.cadenceStep, l.callStatus,
          l.nextCallTime, l.timezone, l.firstName, l.fullName, l.email, l.phone, l.live, l.callerPreference, JSON.stringify(l.tags), l.locationId,
          l.businessName, l.pipeline, l.campaignName, searchText(l), l.createdAt, l.updatedAt,
        ],
      )) === 1,
    get: (agencyId, id) => one(`SELECT ${COLUMNS} FROM leads WHERE agency_id = $1 AND id = $2`, [agencyId, id]),
    inCampaign: (agencyId, campaignId, contactId) => one(`SELECT ${COLUMNS} FROM leads WHERE agency_id = $1 AND campaign_id = $2 AND contact_id = $3`, [agencyId, campaignId, contactId]),
    ofContact: async (agencyId, locationId, contactId) =>
      (await sql.rows<Row>(`SELECT ${COLUMNS} FROM leads WHERE agency_id = $1 AND location_id = $2 AND contact_id = $3`, [agencyId, locationId, contactId])).map(fromRow),
    /** A mirror that changes nothing writes nothing (see the SQLite repository); false when the lead left. */
    async mirror(agencyId, id, m) {
      const r = await sql.one<{ changed: boolean }>(
        `WITH changed AS (
           UPDATE leads SET call_status = $3, cadence_step = $4, live = $5,
             next_call_time = coalesce($6, next_call_time), caller_preference = coalesce($7, caller_preference), updated_at = $8
           WHERE agency_id = $1 AND id = $2
             AND (call_status IS DISTINCT FROM $3 OR cadence_step IS DISTINCT FROM $4 OR live IS DISTINCT FROM $5
               OR ($6::text IS NOT NULL AND next_call_time IS DISTINCT FROM $6) OR ($7::text IS NOT NULL AND caller_preference IS DISTINCT FROM $7))
           RETURNING 1)
         SELECT EXISTS (SELECT 1 FROM changed) OR EXISTS (SELECT 1 FROM leads WHERE agency_id = $1 AND id = $2) AS changed`,
        [agencyId, id, m.callStatus, m.cadenceStep, isLive(m.callStatus), m.nextCallTime ?? null, m.callerPreference ?? null, nowIso()],
      );
      return r!.changed;
    },
    beginCall: (agencyId, id, cadenceStep, at) =>
      one(
        `UPDATE leads SET call_status = 'calling', cadence_step = $3, next_call_time = $4, updated_at = $5 WHERE agency_id = $1 AND id = $2 AND live RETURNING ${COLUMNS}`,
        [agencyId, id, cadenceStep, at, nowIso()],
      ),
    async refreshContact(agencyId, locationId, contactId, f) {
      await sql.run(
        `UPDATE leads SET first_name = $4, full_name = $5, email = $6, phone = $7, timezone = $8, tags = $9, pipeline = $10, search = $11, updated_at = $12
         WHERE agency_id = $1 AND location_id = $2 AND contact_id = $3`,
        [agencyId, locationId, contactId, f.firstName, f.fullName, f.email, f.phone, f.timezone, JSON.stringify(f.tags), f.pipeline, searchText(f), nowIso()],
      );
    },
    remove: async (agencyId, id) => (await sql.run('DELETE FROM leads WHERE agency_id = $1 AND id = $2', [agencyId, id])) === 1,
    removeLiveOfCampaign: async (agencyId, campaignId) => (await sql.rows<{ id: string }>('DELETE FROM leads WHERE agency_id = $1 AND campaign_id = $2 AND live RETURNING id', [agencyId, campaignId])).map((r) => r.id),
    removeLiveOfProject: async (agencyId, projectId) => (await sql.rows<{ id: string }>('DELETE FROM leads WHERE agency_id = $1 AND project_id = $2 AND live RETURNING id', [agencyId, projectId])).map((r) => r.id),
    perStep: (agencyId, campaignId) =>
      sql.rows<{ step: number; n: number }>('SELECT cadence_step AS step, count(*)::int AS n FROM leads WHERE agency_id = $1 AND campaign_id = $2 AND live GROUP BY cadence_step ORDER BY cadence_step', [agencyId, campaignId]),
    recordContactEvent: async (signature, agencyId, locationId, contactId, type) =>
      (await sql.run('INSERT INTO contact_events (signature, agency_id, location_id, contact_id, type, received_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING', [signature, agencyId, locationId, contactId, type, nowIso()])) === 1,
  };
}
