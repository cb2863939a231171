import type { CrmRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Contact, CustomField, CustomValue } from '../../../engine/ports.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { newId, nowIso } from '../../ids.js';

/**
 * The embedded CRM's tables: contacts, custom values and custom fields per location. A contact is
 * keyed by agency, location and its CRM id: the same id in another location or agency is another
 * contact.
 */
export function crmRepo(db: Db): Sync<CrmRepository> {
  const getContact = db.prepare<[string, string, string], { doc: string }>(
    'SELECT doc FROM crm_contacts WHERE agency_id = ? AND location_id = ? AND id = ?',
  );
  const byPhone = db.prepare<[string, string, string], { doc: string }>(
    'SELECT doc FROM crm_contacts WHERE agency_id = ? AND location_id = ? AND phone = ? LIMIT 1',
  );
  const upsert = db.prepare(
    `INSERT INTO crm_contacts (id, agency_id, location_id, phone, doc, updated_at) VALUES (@id, @agencyId, @locationId, @phone, @doc, @updatedAt)
     ON CONFLICT (agency_id, location_id, id) DO UPDATE SET phone = excluded.phone, doc = excluded.doc, updated_at = excluded.updated_at`,
  );
  const values = db.prepare<[string, string], { id: string; name: string; placeholder: string; value: string }>(
    'SELECT id, name, placeholder, value FROM crm_custom_values WHERE agency_id = ? AND location_id = ? ORDER BY name',
  );
  const fields = db.prepare<[string, string], { id: string; name: string; field_key: string; data_type: string }>(
    'SELECT id, name, field_key, data_type FROM crm_custom_fields WHERE agency_id = ? AND location_id = ? ORDER BY name',
  );
  const insertValue = db.prepare(
    'INSERT INTO crm_custom_values (id, agency_id, location_id, name, placeholder, value) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertField = db.prepare(
    'INSERT INTO crm_custom_fields (id, agency_id, location_id, name, field_key, data_type) VALUES (?, ?, ?, ?, ?, ?)',
  );

  const saveContact = (agencyId: string, c: Contact) =>
    upsert.run({ id: c.id, agencyId, locationId: c.locationId, phone: c.phone ?? null, doc: JSON.stringify(c), updatedAt: nowIso() });

  // One transaction (a savepoint inside the caller's): another process on the same file cannot slip a contact in between.
  const findOrCreate = db.transaction((agencyId: string, input: Omit<Contact, 'id' | 'tags' | 'fields'> & Partial<Pick<Contact, 'id' | 'tags' | 'fields'>> & { phone: string }) => {
    const r = byPhone.get(agencyId, input.locationId, input.phone);
    if (r) return { contact: parseJson<Contact>(r.doc, 'crm_contacts.doc'), created: false };
    const contact: Contact = { tags: [], fields: {}, ...input, id: input.id ?? newId('ct') };
    saveContact(agencyId, contact);
    return { contact, created: true };
  });

  return {
    getContact(agencyId: string, locationId: string, id: string): Contact | undefined {
      const r = getContact.get(agencyId, locationId, id);
      return r ? parseJson<Contact>(r.doc, 'crm_contacts.doc') : undefined;
    },
    findByPhone(agencyId: string, locationId: string, phone: string): Contact | undefined {
      const r = byPhone.get(agencyId, locationId, phone);
      return r ? parseJson<Contact>(r.doc, 'crm_contacts.doc') : undefined;
    },
    createContact(agencyId: string, input: Omit<Contact, 'id' | 'tags' | 'fields'> & Partial<Pick<Contact, 'id' | 'tags' | 'fields'>>): Contact {
      const c: Contact = { tags: [], fields: {}, ...input, id: input.id ?? newId('ct') };
      saveContact(agencyId, c);
      return c;
    },
    saveContact,
    findOrCreateByPhone: (agencyId: string, input: Omit<Contact, 'id' | 'tags' | 'fields'> & Partial<Pick<Contact, 'id' | 'tags' | 'fields'>> & { phone: string }) => findOrCreate.immediate(agencyId, input),
    customValues(agencyId: string, locationId: string): CustomValue[] {
      return values.all(agencyId, locationId).map((v) => ({
        id: v.id,
        name: v.name,
        fieldKey: `{{${v.placeholder}}}`,
        placeholder: v.placeholder,
        value: v.value,
      }));
    },
    customFields(agencyId: string, locationId: string): CustomField[] {
      return fields.all(agencyId, locationId).map((f) => ({
        id: f.id,
        name: f.name,
        fieldKey: f.field_key,
        placeholder: `{{${f.field_key}}}`,
        dataType: f.data_type,
      }));
    },
    addCustomValue(agencyId: string, locationId: string, name: string, key: string, value: string) {
      insertValue.run(newId('cv'), agencyId, locationId, name, `custom_values.${key}`, value);
    },
    addCustomField(agencyId: string, locationId: string, name: string, key: string, dataType = 'TEXT') {
      insertField.run(newId('cf'), agencyId, locationId, name, `contact.${key}`, dataType);
    },
  };
}
