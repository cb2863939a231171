/**
 * docs/power-dialer.md's example of which time zone a lead's calling window is read in, run
 * against the product: each row of its table is set up through the API (project, campaign) and
 * the embedded CRM (the contact), and the lead's first call is computed by the enrolment's own
 * code (`leadWorkflowInput` + `firstMove`, what `enrol` runs with its clock) at the documented
 * instant.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { leadWorkflowInput } from '../../server/domain/power-dialer/dialer.js';
import { firstMove } from '../../engine/workflows/lead-cadence-plan.js';
import { windowZone } from '../../engine/cadence/index.js';
import type { LeadRecord } from '../../server/store/index.js';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/power-dialer.md'), 'utf8');
const section = doc.slice(doc.indexOf("### Which time zone a lead's calling window is read in"), doc.indexOf('### Enrolment'));

/** The example's window, enrolment instant, and table rows, as the docs write them. */
function example() {
  const window = JSON.parse(/a campaign window `([^`]+)`/.exec(section)![1]!.replace(/\s+/g, ' '));
  const enrolledAt = Date.parse(/enrolled on [^(]+\(`([^`]+)`\)/.exec(section)![1]!);
  const projectZone = /the project's `timezone`\s+`([^`]+)`/.exec(section)![1]!;
  const setting = (v: string) => (v === 'unset' ? undefined : v === 'true');
  const rows = section
    .split('\n')
    .filter((l) => /^\| (unset|true|false) \|/.test(l))
    .map((l) => {
      const [campaign, project, contact, zone, first] = l.split('|').slice(1, 6).map((c) => c.trim());
      return { campaign: setting(campaign!), project: setting(project!), contactZone: contact === 'none' ? undefined : contact, zone: zone!, firstCall: /`([^`]+)`/.exec(first!)![1]! };
    });
  return { window, enrolledAt, projectZone, rows };
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ config: { defaultPlanLimit: 20 } });
});
afterAll(async () => h?.close());

describe("docs/power-dialer.md: which time zone a lead's calling window is read in", () => {
  const { window, enrolledAt, projectZone, rows } = example();

  it('the example is what the docs say it is', () => {
    expect(window).toEqual({ days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' });
    expect(new Date(enrolledAt).toISOString()).toBe('2026-03-02T13:30:00.000Z');
    expect(rows).toHaveLength(5);
  });

  it.each(rows.map((r, i) => [i + 1, r] as const))('row %i: the window is read in the documented zone and the first call is at the documented time', async (_i, row) => {
    const c = await createProjectAgentCampaign(h, { timezone: projectZone });
    if (row.project !== undefined) {
      expect((await h.api('PUT', `/api/v2/projects/${c.projectId}`, { body: { multipleTimezoneCheck: row.project } })).status).toBe(200);
    }
    const campaign = await h.api('PATCH', `/api/agent-builder/projects/${c.locationId}/campaigns/${c.campaignId}`, {
      body: { dialing: 'pd', callingWindow: window, ...(row.campaign !== undefined && { multipleTimezoneCheck: row.campaign }) },
    });
    expect(campaign.status, campaign.text).toBe(200);
    const contact = await h.store.crm.createContact(h.agencyId, { locationId: c.locationId, fullName: 'Ana Lopez', phone: '+15125550123', ...(row.contactZone && { timezone: row.contactZone }) });
    const project = (await h.store.projects.get(h.agencyId, c.projectId))!;
    const stored = (await h.store.campaigns.get(h.agencyId, c.campaignId))!;
    const lead = { agencyId: h.agencyId, id: `lead_doc_${_i}`, phone: contact.phone } as LeadRecord;

    const input = await leadWorkflowInput(h.services, lead, stored, project, contact, enrolledAt);
    expect(windowZone(input.windows[0]!, input.zoneOpts)).toBe(row.zone);
    const first = firstMove(input, enrolledAt);
    expect(first).toMatchObject({ kind: 'call', step: 0, status: 'scheduled' });
    expect(new Date((first as { at: number }).at).toISOString()).toBe(new Date(row.firstCall).toISOString());
  });
});
