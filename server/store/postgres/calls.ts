import type { CallsRepository } from '../index.js';
import type { CallRecordDoc, StoredCall } from '../records.js';
import { newId, nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

interface Row {
  id: string;
  date_time: string;
  doc: string;
  project_id: string;
  agent_id: string;
  reviewed: boolean;
  tz: string | null;
}

// The project's time zone comes with the call, in one statement, as on SQLite.
const SELECT = `SELECT c.id, c.date_time, c.doc, c.project_id, c.agent_id, c.reviewed, p.timezone AS tz FROM calls c
  LEFT JOIN projects p ON p.agency_id = c.agency_id AND p.id = c.project_id AND p.deleted_at IS NULL`;

const LIST = `${SELECT}
  WHERE c.agency_id = $1
    AND ($2::text[] IS NULL OR c.project_id = ANY($2::text[]))
    AND (NOT $3::boolean OR NOT c.reviewed)
    AND ($4::text IS NULL OR c.disposition = $4)
    AND ($5::text IS NULL OR c.campaign_id = $5)
    AND ($6::text IS NULL OR c.date_time >= $6)
    AND ($7::text IS NULL OR c.date_time < $7)
    AND ($8::text IS NULL OR c.date_time < $8 OR (c.date_time = $8 AND c.id < $9))
  ORDER BY c.date_time DESC, c.id DESC
  LIMIT $10`;

export function callsRepo(sql: Sql): CallsRepository {
  const read = (r: Row | undefined): StoredCall | undefined =>
    r ? { doc: { ...parseJson<CallRecordDoc>(r.doc, 'calls.doc') }, projectId: r.project_id, agentId: r.agent_id, reviewed: r.reviewed, timezone: r.tz } : undefined;
  return {
    get: async (agencyId, callId) => read(await sql.one<Row>(`${SELECT} WHERE c.agency_id = $1 AND c.call_id = $2`, [agencyId, callId])),
    async list(p) {
      const rows = await sql.rows<Row>(LIST, [
        p.agencyId, p.projects === null ? null : (JSON.parse(p.projects) as string[]), p.excludeReviewed === 1, p.disposition, p.campaignId, p.from, p.to, p.cursorAt, p.cursorId, p.limit + 1,
      ]);
      const page = rows.slice(0, p.limit);
      const last = page.at(-1);
      return { calls: page.map((r) => read(r)!), next: rows.length > p.limit && last ? { at: last.date_time, id: last.id } : null };
    },
    async countByDisposition(agencyId, campaignId, since) {
      const rows = await sql.rows<{ disposition: string; n: number }>(
        'SELECT disposition, count(*)::int AS n FROM calls WHERE agency_id = $1 AND campaign_id = $2 AND date_time >= $3 GROUP BY disposition',
        [agencyId, campaignId, since],
      );
      return Object.fromEntries(rows.map((r) => [r.disposition, r.n]));
    },
    setReviewed: async (agencyId, callId, reviewed) => (await sql.run('UPDATE calls SET reviewed = $1 WHERE agency_id = $2 AND call_id = $3', [reviewed, agencyId, callId])) === 1,
    recordEvent: async (agencyId, callId, type, signature) =>
      (await sql.run('INSERT INTO call_events (agency_id, call_id, type, signature, received_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [agencyId, callId, type, signature, nowIso()])) === 1,
    async insert(agencyId, projectId, agentId, doc) {
      const full = { ...doc, id: newId('call') };
      await sql.run(
        `INSERT INTO calls (id, agency_id, call_id, project_id, campaign_id, agent_id, disposition, date_time, doc, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [full.id, agencyId, full.callId, projectId, full.campaignId, agentId, full.disposition.type, full.dateTime, JSON.stringify(full), nowIso()],
      );
      return full;
    },
    forgetAccepted: (agencyId, callId, workflowId, createdContact) =>
      sql.atomic(async (tx) => {
        await tx.run('DELETE FROM execution_steps WHERE execution_id IN (SELECT id FROM executions WHERE agency_id = $1 AND workflow_id = $2)', [agencyId, workflowId]);
        await tx.run('DELETE FROM executions WHERE agency_id = $1 AND workflow_id = $2', [agencyId, workflowId]);
        await tx.run('DELETE FROM run_inputs WHERE agency_id = $1 AND workflow_id = $2', [agencyId, workflowId]);
        await tx.run('DELETE FROM calls WHERE agency_id = $1 AND call_id = $2', [agencyId, callId]);
        await tx.run("DELETE FROM call_events WHERE agency_id = $1 AND call_id = $2 AND type = 'call.ended'", [agencyId, callId]);
        if (createdContact) await tx.run('DELETE FROM crm_contacts WHERE agency_id = $1 AND location_id = $2 AND id = $3', [agencyId, createdContact.locationId, createdContact.contactId]);
      }),
  };
}
