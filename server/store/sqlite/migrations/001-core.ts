import type { Migration } from './index.js';

export const m001Core: Migration = {
  name: 'core',
  up(db) {
    db.exec(`
      CREATE TABLE agencies (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        plan_limit INTEGER NOT NULL,
        signing_secret TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('agency_admin','project_user')),
        scopes TEXT NOT NULL,
        project_ids TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT;
      CREATE INDEX api_keys_agency ON api_keys(agency_id);

      CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        location_id TEXT NOT NULL,
        status TEXT NOT NULL,
        active INTEGER NOT NULL,
        deleted_at TEXT,
        doc TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX projects_location ON projects(agency_id, location_id) WHERE deleted_at IS NULL;

      CREATE TABLE agents (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        project_id TEXT NOT NULL REFERENCES projects(id),
        agent_type TEXT NOT NULL,
        primary_campaign_id TEXT,
        doc TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX agents_agency ON agents(agency_id, project_id);

      CREATE TABLE campaigns (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        project_id TEXT NOT NULL REFERENCES projects(id),
        agent_id TEXT NOT NULL REFERENCES agents(id),
        active INTEGER NOT NULL,
        doc TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX campaigns_project ON campaigns(agency_id, project_id);
      CREATE INDEX campaigns_agent ON campaigns(agent_id);

      CREATE TABLE workflows (
        campaign_id TEXT PRIMARY KEY REFERENCES campaigns(id),
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        version INTEGER NOT NULL,
        schema_version INTEGER NOT NULL,
        graph TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE workflow_versions (
        campaign_id TEXT NOT NULL REFERENCES campaigns(id),
        version INTEGER NOT NULL,
        agency_id TEXT NOT NULL,
        schema_version INTEGER NOT NULL,
        graph TEXT NOT NULL,
        key_id TEXT,
        summary TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (campaign_id, version)
      ) STRICT;

      CREATE TABLE idempotency_keys (
        agency_id TEXT NOT NULL,
        idem_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, idem_key)
      ) STRICT;

      CREATE TABLE calls (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL REFERENCES agencies(id),
        call_id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        campaign_id TEXT,
        agent_id TEXT,
        disposition TEXT,
        date_time TEXT NOT NULL,
        reviewed INTEGER NOT NULL DEFAULT 0,
        doc TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX calls_call_id ON calls(agency_id, call_id);
      CREATE INDEX calls_list ON calls(agency_id, date_time DESC, id DESC);

      CREATE TABLE call_events (
        agency_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        type TEXT NOT NULL,
        signature TEXT NOT NULL UNIQUE,
        received_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, call_id, type)
      ) STRICT;

      -- The exact input a post-call run was started with, so a re-delivered event can (re)start
      -- the same run, pinned to the same graph version.
      CREATE TABLE run_inputs (
        workflow_id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        input TEXT NOT NULL
      ) STRICT;

      CREATE TABLE executions (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        workflow_id TEXT NOT NULL UNIQUE,
        campaign_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        outcome TEXT NOT NULL,
        graph_version INTEGER NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX executions_agent ON executions(agency_id, agent_id, started_at DESC);

      CREATE TABLE execution_steps (
        execution_id TEXT NOT NULL REFERENCES executions(id),
        seq INTEGER NOT NULL,
        node_id TEXT NOT NULL,
        node_type TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        input TEXT,
        output TEXT,
        error TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        PRIMARY KEY (execution_id, seq)
      ) STRICT;

      CREATE TABLE crm_contacts (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        phone TEXT,
        doc TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX crm_contacts_location ON crm_contacts(agency_id, location_id);

      CREATE TABLE crm_custom_values (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        name TEXT NOT NULL,
        placeholder TEXT NOT NULL,
        value TEXT NOT NULL
      ) STRICT;
      CREATE INDEX crm_custom_values_location ON crm_custom_values(agency_id, location_id);

      CREATE TABLE crm_custom_fields (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        name TEXT NOT NULL,
        field_key TEXT NOT NULL,
        data_type TEXT NOT NULL
      ) STRICT;
      CREATE INDEX crm_custom_fields_location ON crm_custom_fields(agency_id, location_id);

      -- One row per effect a port performed, keyed by the activity's idempotency key
      -- (<workflowId>:<nodeId>), so a retried activity finds its earlier result instead of acting twice.
      CREATE TABLE port_effects (
        idempotency_key TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        result TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE outbox (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        channel TEXT NOT NULL CHECK (channel IN ('sms','email')),
        idempotency_key TEXT NOT NULL UNIQUE,
        contact_id TEXT,
        recipient TEXT NOT NULL,
        sender TEXT,
        subject TEXT,
        body TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE appointments (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        calendar_id TEXT NOT NULL,
        contact_id TEXT NOT NULL,
        starts_at TEXT NOT NULL,
        ends_at TEXT NOT NULL,
        idempotency_key TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX appointments_slot ON appointments(agency_id, calendar_id, starts_at);
    `);
  },
};
