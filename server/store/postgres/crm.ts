import type { Contact } from '../../../engine/ports.js';
import type { CrmRepository } from '../index.js';
import { newId, nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

const UPSERT = `INSERT INTO crm_contacts (id, agency_id, location_id, phone, doc, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (agency_id, location_id, id) DO UPDATE SET phone = excluded.phone, doc = excluded.doc, updated_at = excluded.updated_at`;
const BY_PHONE = 'SELECT doc FROM crm_contacts WHERE agency_id = $1 AND location_id = $2 AND phone = $3 LIMIT 1';

/** The embedded CRM's contacts, custom values and custom fields per agency and location. */
export function crmRepo(sql: Sql): CrmRepository {
  const contact = (r: { doc: string } | undefined) => (r ? parseJson<Contact>(r.doc, 'crm_contacts.doc') : undefined);
  const saveContact = async (agencyId: string, c: Contact, on: Sql = sql) => {
    await on.run(UPSERT, [c.id, agencyId, c.locationId, c.phone ?? null, JSON.stringify(c), nowIso()]);
  };
  return {
    getContact: async (agencyId, locationId, id) => contact(await sql.one<{ doc: string }>('SELECT doc FROM crm_contacts WHERE agency_id = $1 AND location_id = $2 AND id = $3', [agencyId, locationId, id])),
    findByPhone: async (agencyId, locationId, phone) => contact(await sql.one<{ doc: string }>(BY_PHONE, [agencyId, locationId, phone])),
    async createContact(agencyId, input) {
      const c: Contact = { tags: [], fields: {}, ...input, id: input.id ?? newId('ct') };
      await saveContact(agencyId, c);
      return c;
    },
    saveContact: (agencyId, c) => saveContact(agencyId, c),
    /**
     * Under a transaction lock on the (agency, location, phone): a second caller waits for the
     * first's transaction, then finds the contact it made. Contacts may share a phone (a CRM
     * allows it), so no unique index can say this.
     */
    findOrCreateByPhone: (agencyId, input) =>
      sql.atomic(async (tx) => {
        await tx.one("SELECT pg_advisory_xact_lock(hashtextextended('contact-phone:' || $1 || ':' || $2 || ':' || $3, 0))", [agencyId, input.locationId, input.phone]);
        const found = contact(await tx.one<{ doc: string }>(BY_PHONE, [agencyId, input.locationId, input.phone]));
        if (found) return { contact: found, created: false };
        const c: Contact = { tags: [], fields: {}, ...input, id: input.id ?? newId('ct') };
        await saveContact(agencyId, c, tx);
        return { contact: c, created: true };
      }),
    customValues: async (agencyId, locationId) =>
      (await sql.rows<{ id: string; name: string; placeholder: string; value: string }>('SELECT id, name, placeholder, value FROM crm_custom_values WHERE agency_id = $1 AND location_id = $2 ORDER BY name', [agencyId, locationId]))
        .map((v) => ({ id: v.id, name: v.name, fieldKey: `{{${v.placeholder}}}`, placeholder: v.placeholder, value: v.value })),
    customFields: async (agencyId, locationId) =>
      (await sql.rows<{ id: string; name: string; field_key: string; data_type: string }>('SELECT id, name, field_key, data_type FROM crm_custom_fields WHERE agency_id = $1 AND location_id = $2 ORDER BY name', [agencyId, locationId]))
        .map((f) => ({ id: f.id, name: f.name, fieldKey: f.field_key, placeholder: `{{${f.field_key}}}`, dataType: f.data_type })),
    async addCustomValue(agencyId, locationId, name, key, value) {
      await sql.run('INSERT INTO crm_custom_values (id, agency_id, location_id, name, placeholder, value) VALUES ($1, $2, $3, $4, $5, $6)', [newId('cv'), agencyId, locationId, name, `custom_values.${key}`, value]);
    },
    async addCustomField(agencyId, locationId, name, key, dataType = 'TEXT') {
      await sql.run('INSERT INTO crm_custom_fields (id, agency_id, location_id, name, field_key, data_type) VALUES ($1, $2, $3, $4, $5, $6)', [newId('cf'), agencyId, locationId, name, `contact.${key}`, dataType]);
    },
  };
}
