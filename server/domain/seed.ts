import { SCOPES, type Store } from '../store/index.js';
import { legacyAgentType } from '../catalog.js';
import { PLATFORM_FIELDS } from './agents.js';
import { appendNodes } from '../../engine/graph/append.js';
import { emptyGraph } from '../../engine/graph/empty.js';
import type { Graph } from '../../engine/graph/types.js';

export const DEMO_AGENCY = 'demo';

/**
 * The demo data of USER-JOURNEYS.md (Dana's dental clinic), created on first start only. Returns
 * the admin key when it created the agency, undefined when the agency already existed.
 */
export async function seedDemo({ store, planLimit }: { store: Store; planLimit: number }): Promise<{ adminKey: string } | undefined> {
  if (await store.agencies.get(DEMO_AGENCY)) return undefined;
  return store.withTransaction(async (repos) => {
    // Processes starting at once on one shared store: the first to create the agency seeds it, the
    // others find it created (Postgres makes them wait for that transaction) and seed nothing.
    if (!(await repos.agencies.create(DEMO_AGENCY, 'Demo Agency', planLimit))) return undefined;
    const { secret } = await repos.apiKeys.create({ agencyId: DEMO_AGENCY, name: 'demo admin', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] });
    const project = await repos.projects.insert({
      agencyId: DEMO_AGENCY,
      crm: 'crm_a',
      locationId: 'loc_bright_smile',
      timezone: 'America/Chicago',
      agencyName: 'Demo Agency',
      businessName: 'Bright Smile Dental',
      active: true,
      status: 'live',
      installed: true,
      multipleTimezoneCheck: false,
      crm_a: { id: 'loc_bright_smile', name: 'Bright Smile Dental', timezone: 'America/Chicago', country: 'US', phone: '+15125550100', address: '100 Congress Ave', city: 'Austin', state: 'TX', postalCode: '78701', email: 'hello@brightsmile.dental', website: 'https://brightsmile.dental' },
    });
    await repos.crm.addCustomValue(DEMO_AGENCY, project.locationId, 'Business name', 'business_name', 'Bright Smile Dental');
    await repos.crm.addCustomValue(DEMO_AGENCY, project.locationId, 'Booking link', 'booking_link', 'https://brightsmile.dental/book');
    await repos.crm.addCustomField(DEMO_AGENCY, project.locationId, 'Callback time', 'callback_time');
    await repos.crm.addCustomField(DEMO_AGENCY, project.locationId, 'Insurance provider', 'insurance_provider');
    await repos.crm.createContact(DEMO_AGENCY, { id: 'ct_demo_ana', locationId: project.locationId, firstName: 'Ana', lastName: 'Lopez', fullName: 'Ana Lopez', phone: '+15125550123', email: 'ana@example.net', timezone: 'America/Chicago' });

    const capabilities = ['appointment_booking'];
    const agent = await repos.agents.insert({
      agencyId: DEMO_AGENCY, projectId: project.id, locationId: project.locationId, name: 'Bright Smile front desk',
      agentType: 'outreach', capabilities, campaignId: null, postCallFields: [...PLATFORM_FIELDS, { name: 'appointment_time', type: 'datetime', platformManaged: false }],
    });
    // Journey 1's cadence: call now, again after 4 hours, then the next day at 10:00.
    const cadence = await repos.cadences.insert({
      agencyId: DEMO_AGENCY, name: 'Call now, +4 h, next day 10:00',
      steps: [{ delayMinutes: 0, label: 'call now' }, { delayMinutes: 240, label: 'again after 4 hours' }, { delayMinutes: 0, at: '10:00', dayOffset: 1, label: 'next day at 10:00' }],
    });
    // Journey 1, step 3: a caller ID in area code 512 from the sandbox carrier's stock, so the demo
    // calls and texts from a number of its own. None left (a data directory whose 512 stock was
    // sold before the demo was seeded): the campaign starts without one.
    const offered = (await repos.numberInventory.available({ country: 'US', tollFree: false, areaCode: 512, limit: 1 }))[0]?.phoneNumber;
    const callerId = offered && (await repos.numberInventory.take(DEMO_AGENCY, offered)) ? offered : undefined;
    if (callerId) await repos.phoneNumbers.insert(DEMO_AGENCY, callerId, 'Bright Smile main line', false);
    const campaign = await repos.campaigns.insert({
      agencyId: DEMO_AGENCY, projectId: project.id, agentId: agent.id, name: 'New patient follow-up',
      activeTags: ['new-lead'], inactiveTags: ['do-not-call'], dialing: 's2l_pd', agentType: legacyAgentType('outreach', capabilities),
      fromNumbers: callerId ? [callerId] : [], active: true,
      callingWindow: { days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' },
      config: { calendarId: 'cal_bright_smile', cadenceId: cadence.id },
    });
    await repos.agents.save({ ...agent, campaignId: campaign.id });

    // The Voicemail and Success lanes of the journey; the admin builds the rest in the editor.
    let graph: Graph = emptyGraph();
    graph = appendNodes(graph, 'VOICEMAIL', [
      { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}, this is {{custom_values.business_name}} — sorry we missed you! Reply here or call us back.' } },
      { type: 'add-tag', config: { tags: ['vm-left'] } },
    ]);
    graph = appendNodes(graph, 'SUCCESS', [
      { type: 'move-stage', config: { pipelineId: 'patients', stageId: 'booked' } },
      { type: 'book-appointment', config: { startField: 'appointment_time', durationMinutes: 30 } },
      { type: 'add-note', config: { body: 'Booked by the voice agent. Summary: {{call.callSummary}}' } },
    ]);
    await repos.workflows.write({ agencyId: DEMO_AGENCY, campaignId: campaign.id, keyId: null, apply: () => ({ graph, summary: 'demo workflow' }) });
    return { adminKey: secret };
  });
}
