import type { CalendarInfo, CrmDirectory, Pipeline } from '../../engine/ports.js';
import type { Store } from '../store/index.js';

/** What a new sandbox location starts with, so the editor's pickers and the demo have something to pick. */
const DEFAULT_PIPELINES: Pipeline[] = [
  { id: 'pl_patients', name: 'Patients', stages: [{ id: 'st_new', name: 'New lead' }, { id: 'st_contacted', name: 'Contacted' }, { id: 'st_booked', name: 'Booked' }, { id: 'st_lost', name: 'Lost' }] },
];
const DEFAULT_CALENDARS: CalendarInfo[] = [{ id: 'cal_main', name: 'Main calendar' }];

/** The sandbox CRM's setup reads: pipelines and calendars per location, the location from its project. */
export function embeddedDirectory(store: Store): CrmDirectory {
  return {
    async location(agencyId, locationId) {
      const p = await store.projects.find(agencyId, locationId);
      const a = p?.crm_a ?? {};
      return {
        id: locationId, name: a.name ?? p?.businessName ?? null, timezone: a.timezone ?? p?.timezone ?? null, country: a.country ?? null, phone: a.phone ?? null,
        address: a.address ?? null, city: a.city ?? null, state: a.state ?? null, postalCode: a.postalCode ?? null, email: a.email ?? null, website: a.website ?? null,
      };
    },
    async pipelines(agencyId, locationId) {
      await store.crmSetup.seedDefaults(agencyId, locationId, DEFAULT_PIPELINES, DEFAULT_CALENDARS);
      return store.crmSetup.pipelines(agencyId, locationId);
    },
    async calendars(agencyId, locationId) {
      await store.crmSetup.seedDefaults(agencyId, locationId, DEFAULT_PIPELINES, DEFAULT_CALENDARS);
      return store.crmSetup.calendars(agencyId, locationId);
    },
    async findContactByPhone(agencyId, locationId, phone) {
      return (await store.crm.findByPhone(agencyId, locationId, phone)) ?? null;
    },
  };
}
