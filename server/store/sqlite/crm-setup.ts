import type { CalendarInfo, Pipeline } from '../../../engine/ports.js';
import type { CrmSetupRepository } from '../index.js';
import type { Sync } from './sync.js';
import { parseJson, type Db } from './db.js';

/** The embedded CRM's pipelines and calendars per location (migration 006). */
export function crmSetupRepo(db: Db): Sync<CrmSetupRepository> {
  const pipelines = db.prepare<[string, string], { id: string; name: string; stages: string }>('SELECT id, name, stages FROM crm_pipelines WHERE agency_id = ? AND location_id = ? ORDER BY name, id');
  const calendars = db.prepare<[string, string], CalendarInfo>('SELECT id, name FROM crm_calendars WHERE agency_id = ? AND location_id = ? ORDER BY name, id');
  const addPipeline = db.prepare('INSERT OR IGNORE INTO crm_pipelines (agency_id, location_id, id, name, stages) VALUES (?, ?, ?, ?, ?)');
  const addCalendar = db.prepare('INSERT OR IGNORE INTO crm_calendars (agency_id, location_id, id, name) VALUES (?, ?, ?, ?)');
  const seeded = db.prepare<{ agencyId: string; locationId: string }, { n: number }>(
    'SELECT (SELECT count(*) FROM crm_pipelines WHERE agency_id = @agencyId AND location_id = @locationId) + (SELECT count(*) FROM crm_calendars WHERE agency_id = @agencyId AND location_id = @locationId) AS n',
  );
  const seed = db.transaction((agencyId: string, locationId: string, ps: readonly Pipeline[], cs: readonly CalendarInfo[]) => {
    if (seeded.get({ agencyId, locationId })!.n > 0) return;
    for (const p of ps) addPipeline.run(agencyId, locationId, p.id, p.name, JSON.stringify(p.stages));
    for (const c of cs) addCalendar.run(agencyId, locationId, c.id, c.name);
  });
  return {
    pipelines: (agencyId, locationId) => pipelines.all(agencyId, locationId).map((r) => ({ id: r.id, name: r.name, stages: parseJson<Pipeline['stages']>(r.stages, 'crm_pipelines.stages') })),
    calendars: (agencyId, locationId) => calendars.all(agencyId, locationId),
    seedDefaults: (agencyId, locationId, ps, cs) => seed.immediate(agencyId, locationId, ps, cs),
  };
}
