import type { CalendarInfo, Pipeline } from '../../../engine/ports.js';
import type { CrmSetupRepository } from '../index.js';
import { parseJson, type Sql } from './sql.js';

/** The embedded CRM's pipelines and calendars per location. */
export function crmSetupRepo(sql: Sql): CrmSetupRepository {
  return {
    pipelines: async (agencyId, locationId) =>
      (await sql.rows<{ id: string; name: string; stages: string }>('SELECT id, name, stages FROM crm_pipelines WHERE agency_id = $1 AND location_id = $2 ORDER BY name, id', [agencyId, locationId]))
        .map((r) => ({ id: r.id, name: r.name, stages: parseJson<Pipeline['stages']>(r.stages, 'crm_pipelines.stages') })),
    calendars: (agencyId, locationId) => sql.rows<CalendarInfo>('SELECT id, name FROM crm_calendars WHERE agency_id = $1 AND location_id = $2 ORDER BY name, id', [agencyId, locationId]),
    /**
     * Seeds a location that has neither: under a lock on the location's key, so two first uses of
     * a location at once seed it once (the second finds what the first wrote).
     */
    seedDefaults: (agencyId, locationId, ps, cs) =>
      sql.atomic(async (tx) => {
        await tx.one("SELECT pg_advisory_xact_lock(hashtextextended('crm-setup:' || $1 || ':' || $2, 0))", [agencyId, locationId]);
        const seeded = await tx.one<{ n: number }>(
          `SELECT ((SELECT count(*) FROM crm_pipelines WHERE agency_id = $1 AND location_id = $2) + (SELECT count(*) FROM crm_calendars WHERE agency_id = $1 AND location_id = $2))::int AS n`,
          [agencyId, locationId],
        );
        if (seeded!.n > 0) return;
        for (const p of ps) await tx.run('INSERT INTO crm_pipelines (agency_id, location_id, id, name, stages) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [agencyId, locationId, p.id, p.name, JSON.stringify(p.stages)]);
        for (const c of cs) await tx.run('INSERT INTO crm_calendars (agency_id, location_id, id, name) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [agencyId, locationId, c.id, c.name]);
      }),
  };
}
