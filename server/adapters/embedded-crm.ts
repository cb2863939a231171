import { PermanentPortError, type Contact, type Crm, type EffectContext } from '../../engine/ports.js';
import type { CrmRepo } from '../store/crm.js';
import type { EffectsRepo } from '../store/effects.js';
import { newId, nowIso } from '../store/ids.js';

/** The built-in CRM: contacts on the local store, every write exactly once per idempotency key. */
export function embeddedCrm(crm: CrmRepo, effects: EffectsRepo): Crm {
  function mutate<T>(e: EffectContext, kind: string, contactId: string, change: (c: Contact) => T): T {
    return effects.once(e.idempotencyKey, e.agencyId, kind, () => {
      const contact = crm.getContact(e.agencyId, e.locationId, contactId);
      if (!contact) throw new PermanentPortError(`contact ${contactId} not found in location ${e.locationId}`);
      const result = change(contact);
      crm.saveContact(e.agencyId, contact);
      return result;
    });
  }
  return {
    async getContact(agencyId, locationId, contactId) {
      return crm.getContact(agencyId, locationId, contactId) ?? null;
    },
    async customValues(agencyId, locationId) {
      return crm.customValues(agencyId, locationId);
    },
    async customFields(agencyId, locationId) {
      return crm.customFields(agencyId, locationId);
    },
    async addTags(e, contactId, tags) {
      return mutate(e, 'add-tag', contactId, (c) => {
        c.tags = [...new Set([...c.tags, ...tags])];
        return { tags: c.tags };
      });
    },
    async removeTags(e, contactId, tags) {
      return mutate(e, 'remove-tag', contactId, (c) => {
        c.tags = c.tags.filter((t) => !tags.includes(t));
        return { tags: c.tags };
      });
    },
    async setField(e, contactId, field, value) {
      const key = field.replace(/^contact\./, '');
      return mutate(e, 'set-field', contactId, (c) => {
        c.fields = { ...c.fields, [key]: value };
        return { field: key, value };
      });
    },
    async moveStage(e, contactId, pipelineId, stageId) {
      return mutate(e, 'move-stage', contactId, (c) => {
        c.pipelineId = pipelineId;
        c.stageId = stageId;
        return { pipelineId, stageId };
      });
    },
    async addNote(e, contactId, body) {
      return mutate(e, 'add-note', contactId, (c) => {
        const note = { id: newId('note'), body, createdAt: nowIso() };
        c.notes = [...(c.notes ?? []), note];
        return { noteId: note.id, body };
      });
    },
  };
}
