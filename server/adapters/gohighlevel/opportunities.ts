import type { EffectContext, EffectJournal, Pipeline } from '../../../engine/ports.js';
import { journaled } from '../effect-journal.js';
import { seg, type GhlClient } from './client.js';
import { arr, obj, str, toPipelines, type Json } from './mapping.js';

export function opportunityOps(client: GhlClient, journal: EffectJournal, contactName: (locationId: string, contactId: string) => Promise<string>) {
  /**
   * GET /opportunities/search?location_id&contact_id&pipeline_id (Version 2021-07-28): the contact's
   * opportunity in that pipeline, an open one first. Ids are checked again here, in case a filter is
   * ignored.
   */
  async function findOpportunity(locationId: string, contactId: string, pipelineId: string): Promise<Json | undefined> {
    const raw = obj(
      await client.call('opportunities', {
        method: 'GET',
        path: '/opportunities/search',
        query: { location_id: locationId, contact_id: contactId, pipeline_id: pipelineId, limit: 20 },
      }),
    );
    const mine = arr(raw.opportunities)
      .map(obj)
      .filter((o) => str(o.id) && o.pipelineId === pipelineId && (str(o.contactId) ?? contactId) === contactId);
    return mine.find((o) => o.status === 'open') ?? mine[0];
  }

  return {
    /** GET /opportunities/pipelines?locationId (Version 2021-07-28) */
    async pipelines(_agencyId: string, locationId: string): Promise<Pipeline[]> {
      return toPipelines(await client.call('opportunities', { method: 'GET', path: '/opportunities/pipelines', query: { locationId } }));
    },

    /**
     * The contact's opportunity in the pipeline moves to the stage (PUT /opportunities/{id}); a
     * contact without one gets one, created at that stage (POST /opportunities/). Moving is
     * idempotent; creating is journaled, with the search as its check, so a lost answer does not
     * leave two opportunities.
     */
    async moveStage(e: EffectContext, contactId: string, pipelineId: string, stageId: string): Promise<{ pipelineId: string; stageId: string }> {
      const existing = await findOpportunity(e.locationId, contactId, pipelineId);
      if (existing) {
        await client.call('opportunities', { method: 'PUT', path: `/opportunities/${seg(existing.id as string)}`, json: { pipelineId, pipelineStageId: stageId } });
        return { pipelineId, stageId };
      }
      await journaled(journal, { agencyId: e.agencyId, key: `${e.idempotencyKey}:opportunity`, kind: 'opportunity' }, {
        perform: async () => {
          const raw = obj(
            await client.call('opportunities', {
              method: 'POST',
              path: '/opportunities/',
              json: { pipelineId, locationId: e.locationId, name: await contactName(e.locationId, contactId), pipelineStageId: stageId, status: 'open', contactId },
            }),
          );
          const id = str(obj(raw.opportunity).id);
          if (!id) throw new Error('gohighlevel POST /opportunities/ answered without an opportunity id');
          return { opportunityId: id };
        },
        findExisting: async () => {
          const found = await findOpportunity(e.locationId, contactId, pipelineId);
          if (!found) return null;
          if (found.pipelineStageId !== stageId) {
            await client.call('opportunities', { method: 'PUT', path: `/opportunities/${seg(found.id as string)}`, json: { pipelineId, pipelineStageId: stageId } });
          }
          return { opportunityId: found.id as string };
        },
      });
      return { pipelineId, stageId };
    },
  };
}
