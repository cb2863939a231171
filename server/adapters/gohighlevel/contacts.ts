import { PermanentPortError, type Contact, type EffectContext, type EffectJournal } from '../../../engine/ports.js';
import { journaled } from '../effect-journal.js';
import { VendorRefusedError } from '../vendor-http.js';
import { seg, type GhlClient } from './client.js';
import type { FieldCache } from './locations.js';
import { arr, fieldKeyOf, findField, obj, str, toContact, toFieldValue } from './mapping.js';

/** The vendor's clock and ours differ; an effect is looked for from a little before our attempt began. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export function contactOps(client: GhlClient, fields: FieldCache, journal: EffectJournal) {
  const path = (contactId: string) => `/contacts/${seg(contactId)}`;

  async function getContact(_agencyId: string, locationId: string, contactId: string): Promise<Contact | null> {
    let raw: unknown;
    try {
      raw = await client.call('contacts', { method: 'GET', path: path(contactId) });
    } catch (err) {
      // An unknown id is a 404, or a 400 saying so (both seen from LeadConnector); anything else is a failure.
      if (err instanceof VendorRefusedError && (err.status === 404 || (err.status === 400 && /not found/i.test(err.vendorMessage)))) return null;
      throw err;
    }
    const contact = toContact(obj(raw).contact, await fields.get(locationId), locationId);
    // A contact of another location is not this location's contact.
    return contact && contact.locationId === locationId ? contact : null;
  }

  return {
    getContact,

    /** GET /contacts/search/duplicate?locationId&number (Version 2021-07-28): the location's contact with that phone */
    async findContactByPhone(_agencyId: string, locationId: string, phone: string): Promise<Contact | null> {
      const raw = obj(await client.call('contacts', { method: 'GET', path: '/contacts/search/duplicate', query: { locationId, number: phone } }));
      const found = raw.contact ?? arr(raw.contacts)[0];
      if (!found) return null;
      return toContact(found, await fields.get(locationId), locationId);
    },

    /** POST /contacts/{contactId}/tags: the vendor merges, so a retry is harmless (no journal needed) */
    async addTags(_e: EffectContext, contactId: string, tags: string[]): Promise<{ tags: string[] }> {
      const raw = obj(await client.call('contacts', { method: 'POST', path: `${path(contactId)}/tags`, json: { tags } }));
      return { tags: arr(raw.tags).filter((t): t is string => typeof t === 'string') };
    },

    /** DELETE /contacts/{contactId}/tags (body `{ tags }`): removing twice leaves the same contact */
    async removeTags(_e: EffectContext, contactId: string, tags: string[]): Promise<{ tags: string[] }> {
      const raw = obj(await client.call('contacts', { method: 'DELETE', path: `${path(contactId)}/tags`, json: { tags } }));
      return { tags: arr(raw.tags).filter((t): t is string => typeof t === 'string') };
    },

    /** PUT /contacts/{contactId} with `customFields: [{ id, field_value }]`: setting a value twice is the same value */
    async setField(e: EffectContext, contactId: string, field: string, value: unknown): Promise<{ field: string; value: unknown }> {
      const def = findField(await fields.get(e.locationId), field) ?? findField(await fields.get(e.locationId, { fresh: true }), field);
      if (!def) throw new PermanentPortError(`no contact custom field "contact.${fieldKeyOf(field)}" in location ${e.locationId}`);
      await client.call('contacts', { method: 'PUT', path: path(contactId), json: { customFields: [{ id: def.id, field_value: toFieldValue(value) }] } });
      return { field: fieldKeyOf(def.fieldKey), value };
    },

    /**
     * POST /contacts/{contactId}/notes, journaled: a second note is a visible duplicate. After an
     * unknown outcome, GET /contacts/{contactId}/notes is searched for the same body added since the
     * first attempt began.
     */
    async addNote(e: EffectContext, contactId: string, body: string): Promise<{ noteId: string; body: string }> {
      return journaled(journal, { agencyId: e.agencyId, key: e.idempotencyKey, kind: 'note' }, {
        perform: async () => {
          const raw = obj(await client.call('contacts', { method: 'POST', path: `${path(contactId)}/notes`, json: { body } }));
          const id = str(obj(raw.note).id);
          if (!id) throw new Error(`gohighlevel POST ${path(contactId)}/notes answered without a note id`);
          return { noteId: id, body };
        },
        findExisting: async ({ startedAt }) => {
          const since = Date.parse(startedAt) - CLOCK_SKEW_MS;
          const raw = obj(await client.call('contacts', { method: 'GET', path: `${path(contactId)}/notes` }));
          const note = arr(raw.notes)
            .map(obj)
            .find((n) => n.body === body && Date.parse(str(n.dateAdded) ?? '') >= since && str(n.id));
          return note ? { noteId: note.id as string, body } : null;
        },
      });
    },
  };
}
