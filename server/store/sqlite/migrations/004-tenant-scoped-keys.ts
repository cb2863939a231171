import type { Migration } from './index.js';

/**
 * Ids that come from outside the product (CRM contact ids, voice-platform call ids, event
 * signatures, effect idempotency keys derived from them) are unique only within the agency that
 * sent them — and contact ids only within their CRM location. Until schema 3 several tables keyed
 * them globally, so two agencies with the same contact or call id overwrote or shadowed each
 * other's rows. Each such table is rebuilt with the agency (and location) in its key; every row is
 * kept as it is.
 *
 * Stored workflow ids are not rewritten: they name Temporal runs that already exist under those
 * ids. New runs get agency-scoped ids (`post-call:<agencyId>:<callId>`), and every lookup of a
 * run goes through the id stored with its execution, so runs started before this migration are
 * still found (docs/reliability.md, "Outside ids").
 *
 * SQLite cannot change a key in place: the documented procedure is create-copy-drop-rename with
 * foreign keys off (`foreignKeysOff`), checked with `foreign_key_check` before commit.
 */
export const m004TenantScopedKeys: Migration = {
  name: 'tenant-scoped-keys',
  foreignKeysOff: true,
  up(db) {
    db.exec(`
      CREATE TABLE crm_contacts_new (
        agency_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        id TEXT NOT NULL,
        phone TEXT,
        doc TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, location_id, id)
      ) STRICT;
      INSERT INTO crm_contacts_new (agency_id, location_id, id, phone, doc, updated_at)
        SELECT agency_id, location_id, id, phone, doc, updated_at FROM crm_contacts;
      DROP TABLE crm_contacts;
      ALTER TABLE crm_contacts_new RENAME TO crm_contacts;
      CREATE INDEX crm_contacts_phone ON crm_contacts(agency_id, location_id, phone);

      CREATE TABLE call_events_new (
        agency_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        type TEXT NOT NULL,
        signature TEXT NOT NULL,
        received_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, call_id, type),
        UNIQUE (agency_id, signature)
      ) STRICT;
      INSERT INTO call_events_new SELECT agency_id, call_id, type, signature, received_at FROM call_events;
      DROP TABLE call_events;
      ALTER TABLE call_events_new RENAME TO call_events;

      CREATE TABLE run_inputs_new (
        agency_id TEXT NOT NULL,
        workflow_id TEXT NOT NULL,
        input TEXT NOT NULL,
        PRIMARY KEY (agency_id, workflow_id)
      ) STRICT;
      INSERT INTO run_inputs_new SELECT agency_id, workflow_id, input FROM run_inputs;
      DROP TABLE run_inputs;
      ALTER TABLE run_inputs_new RENAME TO run_inputs;

      CREATE TABLE executions_new (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        workflow_id TEXT NOT NULL,
        campaign_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        outcome TEXT NOT NULL,
        graph_version INTEGER NOT NULL,
        status TEXT NOT NULL,
        error TEXT,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        UNIQUE (agency_id, workflow_id)
      ) STRICT;
      INSERT INTO executions_new
        SELECT id, agency_id, workflow_id, campaign_id, agent_id, call_id, outcome, graph_version, status, error, started_at, finished_at
        FROM executions;
      DROP TABLE executions;
      ALTER TABLE executions_new RENAME TO executions;
      CREATE INDEX executions_agent ON executions(agency_id, agent_id, started_at DESC);
      CREATE INDEX executions_call ON executions(agency_id, call_id, started_at);

      CREATE TABLE port_effects_new (
        agency_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        result TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, idempotency_key)
      ) STRICT;
      INSERT INTO port_effects_new SELECT agency_id, idempotency_key, kind, result, created_at FROM port_effects;
      DROP TABLE port_effects;
      ALTER TABLE port_effects_new RENAME TO port_effects;

      CREATE TABLE outbox_new (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        channel TEXT NOT NULL CHECK (channel IN ('sms','email')),
        idempotency_key TEXT NOT NULL,
        contact_id TEXT,
        recipient TEXT NOT NULL,
        sender TEXT,
        subject TEXT,
        body TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (agency_id, idempotency_key)
      ) STRICT;
      INSERT INTO outbox_new SELECT id, agency_id, channel, idempotency_key, contact_id, recipient, sender, subject, body, status, created_at FROM outbox;
      DROP TABLE outbox;
      ALTER TABLE outbox_new RENAME TO outbox;

      -- An embedded calendar belongs to a CRM location, as a real CRM's does: calendar ids are
      -- outside ids too. Rows from before take their location from their contact.
      CREATE TABLE appointments_new (
        id TEXT PRIMARY KEY,
        agency_id TEXT NOT NULL,
        location_id TEXT NOT NULL,
        calendar_id TEXT NOT NULL,
        contact_id TEXT NOT NULL,
        starts_at TEXT NOT NULL,
        ends_at TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (agency_id, idempotency_key)
      ) STRICT;
      INSERT INTO appointments_new
        SELECT a.id, a.agency_id,
          coalesce((SELECT c.location_id FROM crm_contacts c WHERE c.agency_id = a.agency_id AND c.id = a.contact_id ORDER BY c.updated_at DESC LIMIT 1), ''),
          a.calendar_id, a.contact_id, a.starts_at, a.ends_at, a.idempotency_key, a.created_at
        FROM appointments a;
      DROP TABLE appointments;
      ALTER TABLE appointments_new RENAME TO appointments;
      CREATE UNIQUE INDEX appointments_slot ON appointments(agency_id, location_id, calendar_id, starts_at);

      CREATE TABLE contact_events_new (
        agency_id TEXT NOT NULL,
        signature TEXT NOT NULL,
        location_id TEXT NOT NULL,
        contact_id TEXT NOT NULL,
        type TEXT NOT NULL,
        received_at TEXT NOT NULL,
        PRIMARY KEY (agency_id, signature)
      ) STRICT;
      INSERT INTO contact_events_new SELECT agency_id, signature, '', contact_id, type, received_at FROM contact_events;
      DROP TABLE contact_events;
      ALTER TABLE contact_events_new RENAME TO contact_events;

      -- A contact's leads: contact ids are unique per location, not per agency.
      DROP INDEX leads_contact;
      CREATE INDEX leads_contact ON leads(agency_id, location_id, contact_id);
    `);
  },
};
