import type { CalendarInfo, CrmDirectory, Pipeline } from '../../engine/ports.js';
import type { Db } from '../store/db.js';
import type { CrmRepo } from '../store/crm.js';
import type { ProjectsRepo } from '../store/projects.js';
import { parseJson } from '../store/db.js';

/** What a new sandbox location starts with, so the editor's pickers and the demo have something to pick. */
const DEFAULT_PIPELINES: Pipeline[] = [
  { id: 'pl_patients', name: 'Patients', stages: [{ id: 'st_new', name: 'New lead' }, { id: 'st_contacted', name: 'Contacted' }, { id: 'st_booked', name: 'Booked' }, { id: 'st_lost', name: 'Lost' }] },
];
const DEFAULT_CALENDARS: CalendarInfo[] = [{ id: 'cal_main', name: 'Main calendar' }];

/** The sandbox CRM's setup reads: pipelines and calendars per location, the location from its project. */
export function embeddedDirectory(db: Db, crm: CrmRepo, projects: ProjectsRepo): CrmDirectory {
  const pipelines = db.prepare<[string, string], { id: string; name: string; stages: string }>('SELECT id, name, stages FROM crm_pipelines WHERE agency_id = ? AND location_id = ? ORDER BY name, id');
  const calendars = db.prepare<[string, string], CalendarInfo>('SELECT id, name FROM crm_calendars WHERE agency_id = ? AND location_id = ? ORDER BY name, id');
  const addPipeline = db.prepare('INSERT OR IGNORE INTO crm_pipelines (agency_id, location_id, id, name, stages) VALUES (?, ?, ?, ?, ?)');
  const addCalendar = db.prepare('INSERT OR IGNORE INTO crm_calendars (agency_id, location_id, id, name) VALUES (?, ?, ?, ?)');
  const seeded = db.prepare<{ agencyId: string; locationId: string }, { n: number }>(
    'SELECT (SELECT count(*) FROM crm_pipelines WHERE agency_id = @agencyId AND location_id = @locationId) + (SELECT count(*) FROM crm_calendars WHERE agency_id = @agencyId AND location_id = @locationId) AS n',
  );
  const seed = db.transaction((agencyId: string, locationId: string) => {
    if (seeded.get({ agencyId, locationId })!.n > 0) return;
    for (const p of DEFAULT_PIPELINES) addPipeline.run(agencyId, locationId, p.id, p.name, JSON.stringify(p.stages));
    for (const c of DEFAULT_CALENDARS) addCalendar.run(agencyId, locationId, c.id, c.name);
  });
  return {
    async location(agencyId, locationId) {
      const p = projects.find(agencyId, locationId);
      const a = p?.crm_a ?? {};
      return {
        id: locationId, name: a.name ?? p?.businessName ?? null, timezone: a.timezone ?? p?.timezone ?? null, country: a.country ?? null, phone: a.phone ?? null,
        address: a.address ?? null, city: a.city ?? null, state: a.state ?? null, postalCode: a.postalCode ?? null, email: a.email ?? null, website: a.website ?? null,
      };
    },
    async pipelines(agencyId, locationId) {
      seed(agencyId, locationId);
      return pipelines.all(agencyId, locationId).map((r) => ({ id: r.id, name: r.name, stages: parseJson<Pipeline['stages']>(r.stages, 'crm_pipelines.stages') }));
    },
    async calendars(agencyId, locationId) {
      seed(agencyId, locationId);
      return calendars.all(agencyId, locationId);
    },
    async findContactByPhone(agencyId, locationId, phone) {
      return crm.findByPhone(agencyId, locationId, phone) ?? null;
    },
  };
}
