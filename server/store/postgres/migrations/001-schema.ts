import type { PgMigration } from './index.js';

/** Text compared and ordered byte by byte, as SQLite's BINARY collation and JavaScript compare it, whatever the database's locale. */
const T = 'text COLLATE "C"';

/**
 * The whole schema as SQLite reached it at its schema 14, written for Postgres:
 * - text columns in the "C" collation (ids, ISO timestamps and names sort as SQLite sorts them);
 * - booleans, and JSON documents kept as the exact text the repositories wrote (nothing queries
 *   inside them; `projects.timezone` is a column of its own for the call reads that join it);
 * - appointments as a timestamptz range under an exclusion constraint: two overlapping bookings of
 *   one calendar cannot both commit, whichever connection writes them (needs btree_gist);
 * - lead lists: the same partial indexes per list shape as SQLite, and trigram GIN indexes
 *   (pg_trgm, with the list's keys through btree_gin) of `search` per list, for substring search;
 *   index entries are written with their row (nothing behind); counts of lists without a search
 *   come from `lead_list_counts` and the change rows its triggers append (no row two writers
 *   update at once).
 * pg_trgm, btree_gin and btree_gist are trusted extensions: a database owner may create them.
 *
 * Frozen: this SQL is what the step ran when it shipped, and imports nothing live.
 */
export const p001Schema: PgMigration = {
  name: 'schema',
  sql: `
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    CREATE EXTENSION IF NOT EXISTS btree_gist;

    CREATE TABLE agencies (
      id ${T} PRIMARY KEY,
      name ${T} NOT NULL,
      plan_limit integer NOT NULL,
      signing_secret ${T} NOT NULL,
      previous_signing_secret ${T},
      previous_secret_until ${T},
      signing_secret_revealed_at ${T},
      settings ${T} NOT NULL DEFAULT '{}',
      created_at ${T} NOT NULL
    );

    CREATE TABLE api_keys (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      name ${T} NOT NULL,
      prefix ${T} NOT NULL,
      hash ${T} NOT NULL UNIQUE,
      role ${T} NOT NULL CHECK (role IN ('agency_admin','project_user')),
      scopes ${T} NOT NULL,
      project_ids ${T} NOT NULL,
      created_at ${T} NOT NULL,
      revoked_at ${T},
      expires_at ${T},
      created_by ${T}
    );
    CREATE INDEX api_keys_agency ON api_keys(agency_id, created_at, id);

    CREATE TABLE projects (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      location_id ${T} NOT NULL,
      status ${T} NOT NULL,
      active boolean NOT NULL,
      deleted_at ${T},
      timezone ${T},
      doc ${T} NOT NULL,
      created_at ${T} NOT NULL,
      updated_at ${T} NOT NULL
    );
    CREATE UNIQUE INDEX projects_location ON projects(agency_id, location_id) WHERE deleted_at IS NULL;
    CREATE INDEX projects_agency ON projects(agency_id, created_at, id) WHERE deleted_at IS NULL;

    CREATE TABLE agents (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      project_id ${T} NOT NULL REFERENCES projects(id),
      agent_type ${T} NOT NULL,
      primary_campaign_id ${T},
      doc ${T} NOT NULL,
      created_at ${T} NOT NULL,
      updated_at ${T} NOT NULL
    );
    CREATE INDEX agents_agency ON agents(agency_id, created_at, id);

    CREATE TABLE campaigns (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      project_id ${T} NOT NULL REFERENCES projects(id),
      agent_id ${T} NOT NULL REFERENCES agents(id),
      active boolean NOT NULL,
      doc ${T} NOT NULL,
      created_at ${T} NOT NULL,
      updated_at ${T} NOT NULL
    );
    CREATE INDEX campaigns_project ON campaigns(agency_id, project_id, created_at, id);
    CREATE INDEX campaigns_agent ON campaigns(agency_id, agent_id, created_at, id);

    CREATE TABLE workflows (
      campaign_id ${T} PRIMARY KEY REFERENCES campaigns(id),
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      version integer NOT NULL,
      schema_version integer NOT NULL,
      graph ${T} NOT NULL,
      updated_at ${T} NOT NULL
    );

    CREATE TABLE workflow_versions (
      campaign_id ${T} NOT NULL REFERENCES campaigns(id),
      version integer NOT NULL,
      agency_id ${T} NOT NULL,
      schema_version integer NOT NULL,
      graph ${T} NOT NULL,
      key_id ${T},
      summary ${T} NOT NULL,
      created_at ${T} NOT NULL,
      PRIMARY KEY (campaign_id, version)
    );

    CREATE TABLE idempotency_keys (
      agency_id ${T} NOT NULL,
      idem_key ${T} NOT NULL,
      fingerprint ${T} NOT NULL,
      status integer NOT NULL,
      body ${T} NOT NULL,
      created_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, idem_key)
    );
    CREATE INDEX idempotency_keys_age ON idempotency_keys(created_at);
    CREATE INDEX idempotency_keys_open ON idempotency_keys(agency_id) WHERE status = 0;

    CREATE TABLE calls (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      call_id ${T} NOT NULL,
      project_id ${T} NOT NULL,
      campaign_id ${T},
      agent_id ${T},
      disposition ${T},
      date_time ${T} NOT NULL,
      reviewed boolean NOT NULL DEFAULT false,
      doc ${T} NOT NULL,
      created_at ${T} NOT NULL,
      UNIQUE (agency_id, call_id)
    );
    CREATE INDEX calls_list ON calls(agency_id, date_time DESC, id DESC);
    CREATE INDEX calls_campaign ON calls(agency_id, campaign_id, date_time);

    CREATE TABLE call_events (
      agency_id ${T} NOT NULL,
      call_id ${T} NOT NULL,
      type ${T} NOT NULL,
      signature ${T} NOT NULL,
      received_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, call_id, type),
      UNIQUE (agency_id, signature)
    );

    CREATE TABLE run_inputs (
      agency_id ${T} NOT NULL,
      workflow_id ${T} NOT NULL,
      input ${T} NOT NULL,
      PRIMARY KEY (agency_id, workflow_id)
    );

    CREATE TABLE executions (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL,
      workflow_id ${T} NOT NULL,
      campaign_id ${T} NOT NULL,
      agent_id ${T} NOT NULL,
      call_id ${T} NOT NULL,
      outcome ${T} NOT NULL,
      graph_version integer NOT NULL,
      status ${T} NOT NULL,
      error ${T},
      started_at ${T} NOT NULL,
      finished_at ${T},
      retry_of ${T},
      retried_by ${T},
      kind ${T} NOT NULL DEFAULT 'run',
      UNIQUE (agency_id, workflow_id)
    );
    CREATE INDEX executions_agent ON executions(agency_id, agent_id, kind, started_at DESC, id DESC);
    CREATE INDEX executions_call ON executions(agency_id, call_id, started_at, id);
    CREATE INDEX executions_status ON executions(agency_id, status, started_at DESC);

    CREATE TABLE execution_steps (
      execution_id ${T} NOT NULL REFERENCES executions(id),
      seq integer NOT NULL,
      node_id ${T} NOT NULL,
      node_type ${T} NOT NULL,
      status ${T} NOT NULL,
      attempts integer NOT NULL,
      input ${T},
      output ${T},
      error ${T},
      started_at ${T} NOT NULL,
      finished_at ${T},
      PRIMARY KEY (execution_id, seq)
    );

    CREATE TABLE crm_contacts (
      agency_id ${T} NOT NULL,
      location_id ${T} NOT NULL,
      id ${T} NOT NULL,
      phone ${T},
      doc ${T} NOT NULL,
      updated_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, location_id, id)
    );
    CREATE INDEX crm_contacts_phone ON crm_contacts(agency_id, location_id, phone);

    CREATE TABLE crm_custom_values (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL,
      location_id ${T} NOT NULL,
      name ${T} NOT NULL,
      placeholder ${T} NOT NULL,
      value ${T} NOT NULL
    );
    CREATE INDEX crm_custom_values_location ON crm_custom_values(agency_id, location_id);

    CREATE TABLE crm_custom_fields (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL,
      location_id ${T} NOT NULL,
      name ${T} NOT NULL,
      field_key ${T} NOT NULL,
      data_type ${T} NOT NULL
    );
    CREATE INDEX crm_custom_fields_location ON crm_custom_fields(agency_id, location_id);

    CREATE TABLE crm_pipelines (
      agency_id ${T} NOT NULL,
      location_id ${T} NOT NULL,
      id ${T} NOT NULL,
      name ${T} NOT NULL,
      stages ${T} NOT NULL,
      PRIMARY KEY (agency_id, location_id, id)
    );
    CREATE TABLE crm_calendars (
      agency_id ${T} NOT NULL,
      location_id ${T} NOT NULL,
      id ${T} NOT NULL,
      name ${T} NOT NULL,
      PRIMARY KEY (agency_id, location_id, id)
    );

    CREATE TABLE port_effects (
      agency_id ${T} NOT NULL,
      idempotency_key ${T} NOT NULL,
      kind ${T} NOT NULL,
      result ${T} NOT NULL,
      created_at ${T} NOT NULL,
      state ${T} NOT NULL DEFAULT 'done',
      attempts integer NOT NULL DEFAULT 1,
      PRIMARY KEY (agency_id, idempotency_key)
    );

    CREATE TABLE outbox (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL,
      channel ${T} NOT NULL CHECK (channel IN ('sms','email')),
      idempotency_key ${T} NOT NULL,
      contact_id ${T},
      recipient ${T} NOT NULL,
      sender ${T},
      subject ${T},
      body ${T} NOT NULL,
      status ${T} NOT NULL,
      created_at ${T} NOT NULL,
      UNIQUE (agency_id, idempotency_key)
    );

    CREATE TABLE appointments (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL,
      location_id ${T} NOT NULL,
      calendar_id ${T} NOT NULL,
      contact_id ${T} NOT NULL,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      idempotency_key ${T} NOT NULL,
      created_at ${T} NOT NULL,
      UNIQUE (agency_id, idempotency_key),
      CONSTRAINT appointments_no_overlap EXCLUDE USING gist (agency_id WITH =, location_id WITH =, calendar_id WITH =, tstzrange(starts_at, ends_at) WITH &&)
    );

    -- The sandbox carrier's stock, as SQLite's migration 002 stocks it: ten numbers in each area code, plus toll-free.
    CREATE TABLE number_inventory (
      phone_number ${T} PRIMARY KEY,
      country ${T} NOT NULL,
      area_code integer NOT NULL,
      toll_free boolean NOT NULL,
      bought_by ${T}
    );
    CREATE INDEX number_inventory_pick ON number_inventory(country, toll_free, area_code, phone_number) WHERE bought_by IS NULL;
    INSERT INTO number_inventory (phone_number, country, area_code, toll_free)
      SELECT '+1' || a.code || '555' || lpad((1000 + i * 37)::text, 4, '0'), a.country, a.code, false
      FROM (VALUES ('US', 212), ('US', 305), ('US', 312), ('US', 415), ('US', 512), ('US', 617), ('US', 702), ('US', 737), ('US', 972),
                   ('CA', 416), ('CA', 514), ('CA', 604)) AS a(country, code), generate_series(0, 9) AS i;
    INSERT INTO number_inventory (phone_number, country, area_code, toll_free)
      SELECT '+1' || a.code || '555' || lpad((2000 + i * 41)::text, 4, '0'), 'US', a.code, true
      FROM (VALUES (800), (833), (844), (888)) AS a(code), generate_series(0, 9) AS i;

    CREATE TABLE phone_numbers (
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      phone_number ${T} NOT NULL,
      nickname ${T} NOT NULL,
      bound_to_agent boolean NOT NULL DEFAULT false,
      bought_at ${T} NOT NULL,
      vapi_phone_number_id ${T},
      twilio_sid ${T},
      PRIMARY KEY (agency_id, phone_number)
    );
    CREATE INDEX phone_numbers_number ON phone_numbers(phone_number);

    CREATE TABLE number_purchases (
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      purchase_key ${T} NOT NULL,
      request ${T} NOT NULL,
      campaign_id ${T} NOT NULL,
      phone_number ${T} NOT NULL,
      state ${T} NOT NULL CHECK (state IN ('buying', 'bought', 'importing', 'imported', 'done')),
      twilio_sid ${T},
      vapi_phone_number_id ${T},
      attempts integer NOT NULL DEFAULT 1,
      started_at ${T} NOT NULL,
      updated_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, purchase_key)
    );

    CREATE TABLE cadences (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      name ${T} NOT NULL,
      steps ${T} NOT NULL,
      created_at ${T} NOT NULL,
      updated_at ${T} NOT NULL
    );
    CREATE INDEX cadences_agency ON cadences(agency_id, created_at, id);

    CREATE TABLE leads (
      id ${T} PRIMARY KEY,
      agency_id ${T} NOT NULL REFERENCES agencies(id),
      project_id ${T} NOT NULL REFERENCES projects(id),
      campaign_id ${T} NOT NULL REFERENCES campaigns(id),
      contact_id ${T} NOT NULL,
      queue_id ${T} NOT NULL,
      cadence_id ${T},
      cadence_step integer NOT NULL CHECK (cadence_step >= 0),
      call_status ${T} NOT NULL,
      next_call_time ${T} NOT NULL,
      timezone ${T} NOT NULL,
      first_name ${T} NOT NULL,
      full_name ${T} NOT NULL,
      email ${T} NOT NULL,
      phone ${T} NOT NULL,
      live boolean NOT NULL,
      caller_preference ${T} NOT NULL,
      tags ${T} NOT NULL,
      location_id ${T} NOT NULL,
      business_name ${T} NOT NULL,
      pipeline ${T} NOT NULL,
      campaign_name ${T} NOT NULL,
      search ${T} NOT NULL,
      created_at ${T} NOT NULL,
      updated_at ${T} NOT NULL,
      UNIQUE (agency_id, campaign_id, contact_id)
    );
    -- Each list shape's partial index: its WHERE is the list's statuses, written as the queries write them.
    CREATE INDEX leads_step ON leads(agency_id, cadence_step, created_at, id) WHERE call_status IN ('scheduled','calling','callback');
    CREATE INDEX leads_step_campaign ON leads(agency_id, campaign_id, cadence_step, created_at, id) WHERE call_status IN ('scheduled','calling','callback');
    CREATE INDEX leads_step_project ON leads(agency_id, project_id, cadence_step, created_at, id) WHERE call_status IN ('scheduled','calling','callback');
    CREATE INDEX leads_step_cadence ON leads(agency_id, cadence_id, cadence_step, created_at, id) WHERE call_status IN ('scheduled','calling','callback');
    CREATE INDEX leads_parked ON leads(agency_id, created_at, id) WHERE call_status = 'waiting_for_window';
    CREATE INDEX leads_parked_campaign ON leads(agency_id, campaign_id, created_at, id) WHERE call_status = 'waiting_for_window';
    -- Substring search of each list: trigrams of the search text (LIKE '%...%'), in one GIN index
    -- with the list's keys (btree_gin), so a search of one agency's step, campaign, project or
    -- cadence intersects posting lists in the index and fetches only the rows that match.
    CREATE INDEX leads_step_search ON leads USING gin (agency_id, cadence_step, campaign_id, project_id, cadence_id, search gin_trgm_ops)
      WHERE call_status IN ('scheduled','calling','callback');
    CREATE INDEX leads_parked_search ON leads USING gin (agency_id, campaign_id, project_id, cadence_id, search gin_trgm_ops)
      WHERE call_status = 'waiting_for_window';
    CREATE INDEX leads_contact ON leads(agency_id, location_id, contact_id);

    -- How many leads each list holds per step, campaign, cadence and project, for the pages
    -- without a search: counted rows (folded) plus the changes not folded yet. A write of a lead
    -- only appends a change row (+1 / -1, by trigger, in the writer's transaction): no count row
    -- is updated by two enrolments at once, whatever the number of processes. The store folds the
    -- changes into the counts in the background; a count reads both, in one snapshot.
    CREATE TABLE lead_list_counts (
      agency_id ${T} NOT NULL,
      list ${T} NOT NULL,
      cadence_step integer NOT NULL,
      campaign_id ${T} NOT NULL,
      cadence_id ${T} NOT NULL,
      project_id ${T} NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (agency_id, list, cadence_step, campaign_id, cadence_id, project_id)
    );
    CREATE TABLE lead_list_count_changes (
      agency_id ${T} NOT NULL,
      list ${T} NOT NULL,
      cadence_step integer NOT NULL,
      campaign_id ${T} NOT NULL,
      cadence_id ${T} NOT NULL,
      project_id ${T} NOT NULL,
      d integer NOT NULL
    );
    CREATE INDEX lead_list_count_changes_list ON lead_list_count_changes(agency_id, list, cadence_step);
    CREATE FUNCTION lead_list_of(call_status text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT CASE WHEN call_status IN ('scheduled','calling','callback') THEN 'p' WHEN call_status = 'waiting_for_window' THEN 'w' END $$;
    CREATE FUNCTION leads_note_list_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' AND lead_list_of(OLD.call_status) IS NOT NULL THEN
        INSERT INTO lead_list_count_changes VALUES (OLD.agency_id, lead_list_of(OLD.call_status), OLD.cadence_step, OLD.campaign_id, coalesce(OLD.cadence_id, ''), OLD.project_id, -1);
      END IF;
      IF TG_OP <> 'DELETE' AND lead_list_of(NEW.call_status) IS NOT NULL THEN
        INSERT INTO lead_list_count_changes VALUES (NEW.agency_id, lead_list_of(NEW.call_status), NEW.cadence_step, NEW.campaign_id, coalesce(NEW.cadence_id, ''), NEW.project_id, 1);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER leads_list_insert_delete AFTER INSERT OR DELETE ON leads FOR EACH ROW EXECUTE FUNCTION leads_note_list_change();
    -- Only a change of what a count depends on (a call starting, scheduled -> calling, stays in its list).
    CREATE TRIGGER leads_list_update AFTER UPDATE OF agency_id, call_status, cadence_step, campaign_id, cadence_id, project_id ON leads FOR EACH ROW
      WHEN (OLD.agency_id IS DISTINCT FROM NEW.agency_id OR lead_list_of(OLD.call_status) IS DISTINCT FROM lead_list_of(NEW.call_status)
        OR OLD.cadence_step IS DISTINCT FROM NEW.cadence_step OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id
        OR OLD.cadence_id IS DISTINCT FROM NEW.cadence_id OR OLD.project_id IS DISTINCT FROM NEW.project_id)
      EXECUTE FUNCTION leads_note_list_change();
    CREATE INDEX leads_project ON leads(agency_id, project_id) WHERE live;
    CREATE INDEX leads_campaign_live ON leads(agency_id, campaign_id, cadence_step) WHERE live;

    CREATE TABLE contact_events (
      agency_id ${T} NOT NULL,
      signature ${T} NOT NULL,
      location_id ${T} NOT NULL,
      contact_id ${T} NOT NULL,
      type ${T} NOT NULL,
      received_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, signature)
    );

    CREATE TABLE webhook_signatures (
      agency_id ${T} NOT NULL,
      source ${T} NOT NULL,
      signature ${T} NOT NULL,
      received_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, source, signature)
    );
    CREATE INDEX webhook_signatures_age ON webhook_signatures(received_at);

    CREATE TABLE credentials (
      agency_id ${T} NOT NULL,
      owner ${T} NOT NULL,
      provider ${T} NOT NULL,
      sealed ${T} NOT NULL,
      key_id ${T} NOT NULL,
      hint ${T} NOT NULL,
      created_at ${T} NOT NULL,
      updated_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, owner, provider)
    );

    CREATE TABLE placed_calls (
      agency_id ${T} NOT NULL,
      call_id ${T} NOT NULL,
      platform ${T} NOT NULL,
      platform_call_id ${T},
      campaign_id ${T} NOT NULL,
      contact_id ${T} NOT NULL,
      lead_id ${T},
      placed_at ${T} NOT NULL,
      PRIMARY KEY (agency_id, call_id)
    );
    CREATE INDEX placed_calls_platform ON placed_calls(agency_id, platform, platform_call_id);

    CREATE TABLE alerts (
      agency_id ${T} NOT NULL,
      id ${T} NOT NULL,
      kind ${T} NOT NULL,
      payload ${T} NOT NULL,
      created_at ${T} NOT NULL,
      dispatched_at ${T},
      delivered_at ${T},
      emailed_at ${T},
      attempts integer NOT NULL DEFAULT 0,
      last_error ${T},
      PRIMARY KEY (agency_id, id)
    );
    CREATE INDEX alerts_waiting ON alerts(created_at) WHERE dispatched_at IS NULL;
    CREATE INDEX alerts_agency ON alerts(agency_id, created_at DESC, id DESC);
  `,
};
