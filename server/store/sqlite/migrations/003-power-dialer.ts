import type { Migration } from './index.js';

/**
 * The power dialer: saved cadences, the lead queue, and the replay guard of signed CRM contact
 * events.
 *
 * Lead lists (spec 4.7 / 4.8) page through leads still being worked, oldest first. Each list
 * shape has a partial index whose WHERE is the list's status filter, written identically in the
 * repository's queries, so a page and its count are index range scans at any table size:
 * - cadence-step list: `call_status IN ('scheduled','calling','callback')`, by step, and by
 *   campaign / project / cadence when filtered on them;
 * - parked speed-to-lead list: `call_status = 'waiting_for_window'`.
 * `search` is the lowercased name/email/phone text the `search` parameter matches as a substring;
 * an index of the step list carries it, so counting a search over a whole step never reads the table.
 */
export const m003PowerDialer: Migration = {
  name: 'power-dialer',
  up(db) {
    db.exec(`
      CREATE TABLE cadences (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        name TEXT NOT NULL,
        steps TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX cadences_agency ON cadences(agency_id, created_at, id);

      CREATE TABLE leads (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        project_id TEXT NOT NULL REFERENCES projects(id),
        campaign_id TEXT NOT NULL REFERENCES campaigns(id),
        contact_id TEXT NOT NULL,
        queue_id TEXT NOT NULL,
        cadence_id TEXT,
        cadence_step INTEGER NOT NULL CHECK (cadence_step >= 0),
        call_status TEXT NOT NULL,
        next_call_time TEXT NOT NULL,
        timezone TEXT NOT NULL,
        first_name TEXT NOT NULL,
        full_name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL,
        live INTEGER NOT NULL,
        caller_preference TEXT NOT NULL,
        tags TEXT NOT NULL,
        location_id TEXT NOT NULL,
        business_name TEXT NOT NULL,
        pipeline TEXT NOT NULL,
        campaign_name TEXT NOT NULL,
        search TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (agency_id, campaign_id, contact_id)
      ) STRICT;

      CREATE INDEX leads_step ON leads(agency_id, cadence_step, created_at, id)
        WHERE call_status IN ('scheduled','calling','callback');
      -- The same with search alongside: a search over a whole step is counted (and paged) from the
      -- index alone; the narrow one above keeps unfiltered counts small.
      CREATE INDEX leads_step_search ON leads(agency_id, cadence_step, created_at, id, search)
        WHERE call_status IN ('scheduled','calling','callback');
      CREATE INDEX leads_step_campaign ON leads(agency_id, campaign_id, cadence_step, created_at, id)
        WHERE call_status IN ('scheduled','calling','callback');
      CREATE INDEX leads_step_project ON leads(agency_id, project_id, cadence_step, created_at, id)
        WHERE call_status IN ('scheduled','calling','callback');
      CREATE INDEX leads_step_cadence ON leads(agency_id, cadence_id, cadence_step, created_at, id)
        WHERE call_status IN ('scheduled','calling','callback');
      CREATE INDEX leads_parked ON leads(agency_id, created_at, id)
        WHERE call_status = 'waiting_for_window';
      CREATE INDEX leads_parked_campaign ON leads(agency_id, campaign_id, created_at, id)
        WHERE call_status = 'waiting_for_window';
      -- Leaving: every lead of a contact (CRM events), of a project (project stopped); the UNIQUE
      -- index above serves a campaign's leads.
      CREATE INDEX leads_contact ON leads(agency_id, contact_id);
      CREATE INDEX leads_project ON leads(agency_id, project_id, live);

      -- Signatures of accepted contact events: a replayed delivery is refused like a replayed call event.
      CREATE TABLE contact_events (
        signature TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        contact_id TEXT NOT NULL,
        type TEXT NOT NULL,
        received_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
