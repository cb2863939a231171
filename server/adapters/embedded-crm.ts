import { PermanentPortError, type Contact, type Crm, type EffectContext } from '../../engine/ports.js';
import type { Store } from '../store/index.js';
import { newId, nowIso } from '../ids.js';
import { effectOnce } from './effect-once.js';

/** The built-in CRM: contacts on the local store, every write exactly once per idempotency key. */
export function embeddedCrm(store: Store): Crm {
  function mutate<T>(e: EffectContext, kind: string, contactId: string, change: (c: Contact) => T): Promise<T> {
    return effectOnce(store, e, kind, async (tx) => {
      const contact = await tx.crm.getContact(e.agencyId, e.locationId, contactId);
      if (!contact) throw new PermanentPortError(`contact ${contactId} not found in location ${e.locationId}`);
      const result = change(contact);
      await tx.crm.saveContact(e.agencyId, contact);
      return result;
    });
  }
  return {
    async getContact(agencyId, locationId, contactId) {
      return (await store.crm.getContact(agencyId, locationId, contactId)) ?? null;
    },
    customValues: (agencyId, locationId) => store.crm.customValues(agencyId, locationId),
    customFields: (agencyId, locationId) => store.crm.customFields(agencyId, locationId),
    addTags(e, contactId, tags) {
      return mutate(e, 'add-tag', contactId, (c) => {
        c.tags = [...new Set([...c.tags, ...tags])];
        return { tags: c.tags };
      });
    },
    removeTags(e, contactId, tags) {
      return mutate(e, 'remove-tag', contactId, (c) => {
        c.tags = c.tags.filter((t) => !tags.includes(t));
        return { tags: c.tags };
      });
    },
    setField(e, contactId, field, value) {
      const key = field.replace(/^contact\./, '');
      return mutate(e, 'set-field', contactId, (c) => {
        c.fields = { ...c.fields, [key]: value };
        return { field: key, value };
      });
    },
    moveStage(e, contactId, pipelineId, stageId) {
      return mutate(e, 'move-stage', contactId, (c) => {
        c.pipelineId = pipelineId;
        c.stageId = stageId;
        return { pipelineId, stageId };
      });
    },
    addNote(e, contactId, body) {
      return mutate(e, 'add-note', contactId, (c) => {
        const note = { id: newId('note'), body, createdAt: nowIso() };
        c.notes = [...(c.notes ?? []), note];
        return { noteId: note.id, body };
      });
    },
  };
}
