import type { CallsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { CallRecordDoc, ListParams, StoredCall } from '../records.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { newId, nowIso } from '../../ids.js';




interface Row {
  doc: string;
  project_id: string;
  agent_id: string;
  reviewed: number;
  tz: string | null;
}

// The project's time zone comes with the call (a call's `date` is in it): one statement per read,
// not two, on the hottest read of the API (bench/README.md, API reads).
const WITH_ZONE = `LEFT JOIN projects p ON p.agency_id = c.agency_id AND p.id = c.project_id AND p.deleted_at IS NULL`;

export function callsRepo(db: Db): Sync<CallsRepository> {
  const byCallId = db.prepare<[string, string], Row>(
    `SELECT c.doc, c.project_id, c.agent_id, c.reviewed, json_extract(p.doc, '$.timezone') AS tz FROM calls c ${WITH_ZONE} WHERE c.agency_id = ? AND c.call_id = ?`,
  );
  const insert = db.prepare(
    `INSERT INTO calls (id, agency_id, call_id, project_id, campaign_id, agent_id, disposition, date_time, doc, created_at)
     VALUES (@id, @agencyId, @callId, @projectId, @campaignId, @agentId, @disposition, @dateTime, @doc, @createdAt)`,
  );
  const recordEvent = db.prepare(
    'INSERT INTO call_events (agency_id, call_id, type, signature, received_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const read = (r: Row | undefined): StoredCall | undefined =>
    r ? { doc: { ...parseJson<CallRecordDoc>(r.doc, 'calls.doc') }, projectId: r.project_id, agentId: r.agent_id, reviewed: r.reviewed === 1, timezone: r.tz } : undefined;

  const list = db.prepare<ListParams, Row & { id: string; date_time: string }>(
    `SELECT c.id, c.date_time, c.doc, c.project_id, c.agent_id, c.reviewed, json_extract(p.doc, '$.timezone') AS tz FROM calls c ${WITH_ZONE}
     WHERE c.agency_id = @agencyId
       AND (@projects IS NULL OR c.project_id IN (SELECT value FROM json_each(@projects)))
       AND (@excludeReviewed = 0 OR c.reviewed = 0)
       AND (@disposition IS NULL OR c.disposition = @disposition)
       AND (@campaignId IS NULL OR c.campaign_id = @campaignId)
       AND (@from IS NULL OR c.date_time >= @from)
       AND (@to IS NULL OR c.date_time < @to)
       AND (@cursorAt IS NULL OR c.date_time < @cursorAt OR (c.date_time = @cursorAt AND c.id < @cursorId))
     ORDER BY c.date_time DESC, c.id DESC
     LIMIT @limit`,
  );
  const forget = [
    db.prepare('DELETE FROM execution_steps WHERE execution_id IN (SELECT id FROM executions WHERE agency_id = @agencyId AND workflow_id = @workflowId)'),
    db.prepare('DELETE FROM executions WHERE agency_id = @agencyId AND workflow_id = @workflowId'),
    db.prepare('DELETE FROM run_inputs WHERE agency_id = @agencyId AND workflow_id = @workflowId'),
    db.prepare('DELETE FROM calls WHERE agency_id = @agencyId AND call_id = @callId'),
    db.prepare("DELETE FROM call_events WHERE agency_id = @agencyId AND call_id = @callId AND type = 'call.ended'"),
  ];
  const forgetContact = db.prepare('DELETE FROM crm_contacts WHERE agency_id = ? AND location_id = ? AND id = ?');
  const perOutcome = db.prepare<[string, string, string], { disposition: string; n: number }>(
    'SELECT disposition, count(*) AS n FROM calls WHERE agency_id = ? AND campaign_id = ? AND date_time >= ? GROUP BY disposition',
  );
  const setReviewed = db.prepare('UPDATE calls SET reviewed = ? WHERE agency_id = ? AND call_id = ?');

  return {
    get: (agencyId: string, callId: string) => read(byCallId.get(agencyId, callId)),
    /** Keyset pagination, newest first: stable under inserts, fast at any depth. */
    list(p: ListParams): { calls: StoredCall[]; next: { at: string; id: string } | null } {
      const rows = list.all({ ...p, limit: p.limit + 1 });
      const page = rows.slice(0, p.limit);
      const last = page.at(-1);
      return { calls: page.map((r) => read(r)!), next: rows.length > p.limit && last ? { at: last.date_time, id: last.id } : null };
    },
    /** Calls of a campaign since `since`, counted by disposition type (`voicemail`, `callBack`, ...). */
    countByDisposition(agencyId: string, campaignId: string, since: string): Record<string, number> {
      return Object.fromEntries(perOutcome.all(agencyId, campaignId, since).map((r) => [r.disposition, r.n]));
    },
    setReviewed: (agencyId: string, callId: string, reviewed: boolean) => setReviewed.run(reviewed ? 1 : 0, agencyId, callId).changes === 1,
    /** Records that an event was received; false when this call already had an event of this type. */
    recordEvent(agencyId: string, callId: string, type: string, signature: string): boolean {
      return recordEvent.run(agencyId, callId, type, signature, nowIso()).changes === 1;
    },
    insert(agencyId: string, projectId: string, agentId: string, doc: Omit<CallRecordDoc, 'id'>): CallRecordDoc {
      const full = { ...doc, id: newId('call') };
      insert.run({
        id: full.id,
        agencyId,
        callId: full.callId,
        projectId,
        campaignId: full.campaignId,
        agentId,
        disposition: full.disposition.type,
        dateTime: full.dateTime,
        doc: JSON.stringify(full),
        createdAt: nowIso(),
      });
      return full;
    },
    /**
     * Undoes an accepted call.ended whose run could not be started under its id (the id is taken
     * in Temporal): the call, its event, its execution and input, and the contact it created go,
     * so the refusal leaves nothing half-stored.
     */
    forgetAccepted(agencyId: string, callId: string, workflowId: string, createdContact: { locationId: string; contactId: string } | null): void {
      db.transaction(() => {
        for (const st of forget) st.run({ agencyId, callId, workflowId });
        if (createdContact) forgetContact.run(agencyId, createdContact.locationId, createdContact.contactId);
      }).immediate();
    },
  };
}
