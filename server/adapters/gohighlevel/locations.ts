import type { CustomField, CustomValue, LocationInfo } from '../../../engine/ports.js';
import { seg, type GhlClient } from './client.js';
import { toCustomFields, toCustomValues, toGhlFields, toLocation, type GhlField } from './mapping.js';

/**
 * The location's custom field definitions, kept ~60 s per adapter instance: every contact read
 * needs them (values come keyed by field id) and they change rarely; a field created a moment ago
 * is found by asking again when a key is missing (see `fresh`).
 */
export function fieldCache(client: GhlClient, ttlMs = 60_000, now: () => number = Date.now) {
  const cache = new Map<string, { at: number; fields: Promise<GhlField[]> }>();
  return {
    get(locationId: string, opts: { fresh?: boolean } = {}): Promise<GhlField[]> {
      const hit = cache.get(locationId);
      if (hit && !opts.fresh && now() - hit.at < ttlMs) return hit.fields;
      const fields = client
        .call('locations', { method: 'GET', path: `/locations/${seg(locationId)}/customFields`, query: { model: 'contact' } })
        .then(toGhlFields);
      cache.set(locationId, { at: now(), fields });
      // A failed read is not cached: the next call asks again.
      fields.catch(() => cache.get(locationId)?.fields === fields && cache.delete(locationId));
      return fields;
    },
  };
}
export type FieldCache = ReturnType<typeof fieldCache>;

export function locationReads(client: GhlClient, fields: FieldCache) {
  return {
    /** GET /locations/{locationId} (Version 2021-07-28) */
    async location(_agencyId: string, locationId: string): Promise<LocationInfo> {
      return toLocation(await client.call('locations', { method: 'GET', path: `/locations/${seg(locationId)}` }), locationId);
    },
    /** GET /locations/{locationId}/customValues (Version 2021-07-28) */
    async customValues(_agencyId: string, locationId: string): Promise<CustomValue[]> {
      return toCustomValues(await client.call('locations', { method: 'GET', path: `/locations/${seg(locationId)}/customValues` }));
    },
    /** GET /locations/{locationId}/customFields?model=contact (Version 2021-07-28); refreshes the cache */
    async customFields(_agencyId: string, locationId: string): Promise<CustomField[]> {
      return toCustomFields(await fields.get(locationId, { fresh: true }));
    },
  };
}
