/**
 * The editor's CRM pickers without a browser: the choices they offer (by name, unknown stored ids
 * kept and flagged) and the per-agent loader (one read per resource until refreshed, failures
 * classified, a late answer never overwriting a newer one).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../editor/src/api/client.js';
import type { CrmCalendar, CustomField, Pipeline } from '../../editor/src/api/types.js';
import { calendarChoices, contactFieldChoices, pipelineChoices, stageChoices } from '../../editor/src/model/crm.js';
import { createCrmStore, type CrmFetchers } from '../../editor/src/store/crm-store.js';

const PIPELINES: Pipeline[] = [
  { id: 'pl_patients', name: 'Patients', stages: [{ id: 'st_new', name: 'New lead' }, { id: 'st_booked', name: 'Booked' }] },
  { id: 'pl_b2b', name: 'Partners', stages: [{ id: 'st_intro', name: 'Intro' }] },
  { id: 'pl_old', name: 'Partners', stages: [] },
];
const CALENDARS: CrmCalendar[] = [{ id: 'cal_main', name: 'Main calendar' }];

describe('picker choices', () => {
  it('lists pipelines by name, telling apart two with the same name by id', () => {
    expect(pipelineChoices(PIPELINES, 'pl_patients')).toEqual({
      options: [
        { value: 'pl_patients', label: 'Patients' },
        { value: 'pl_b2b', label: 'Partners (pl_b2b)' },
        { value: 'pl_old', label: 'Partners (pl_old)' },
      ],
      warning: null,
    });
    expect(pipelineChoices(PIPELINES, '').warning).toBeNull();
  });

  it('keeps a stored pipeline the CRM does not list, first, with a warning', () => {
    const c = pipelineChoices(PIPELINES, 'pl_gone');
    expect(c.options[0]).toEqual({ value: 'pl_gone', label: 'unknown pipeline pl_gone', unknown: true });
    expect(c.options).toHaveLength(4);
    expect(c.warning).toContain('pl_gone');
    // Under an unknown pipeline only the stored stage is offered (no stage list to check it against).
    expect(stageChoices(PIPELINES, 'pl_gone', 'st_x')).toEqual({ options: [{ value: 'st_x', label: 'unknown stage st_x', unknown: true }], warning: null });
    expect(stageChoices(PIPELINES, 'pl_gone', '')).toEqual({ options: [], warning: null });
  });

  it('offers the stages of the chosen pipeline only, keeping an unknown stored stage with a warning', () => {
    expect(stageChoices(PIPELINES, 'pl_patients', 'st_booked')).toEqual({
      options: [
        { value: 'st_new', label: 'New lead' },
        { value: 'st_booked', label: 'Booked' },
      ],
      warning: null,
    });
    expect(stageChoices(PIPELINES, 'pl_b2b', '').options.map((o) => o.label)).toEqual(['Intro']);
    const gone = stageChoices(PIPELINES, 'pl_patients', 'st_booked_old');
    expect(gone.options.map((o) => o.label)).toEqual(['unknown stage st_booked_old', 'New lead', 'Booked']);
    expect(gone.warning).toContain('Pipeline Patients has no stage st_booked_old');
  });

  it("lists calendars by name; empty is the campaign's calendar, an unknown id is kept and flagged", () => {
    expect(calendarChoices(CALENDARS, '')).toEqual({ options: [{ value: 'cal_main', label: 'Main calendar' }], warning: null });
    const gone = calendarChoices(CALENDARS, 'cal_x');
    expect(gone.options.map((o) => o.label)).toEqual(['unknown calendar cal_x', 'Main calendar']);
    expect(gone.warning).toContain('cal_x');
  });

  it('lists custom fields by name with their contact path as the value', () => {
    const fields: CustomField[] = [
      { id: 'cf1', name: 'Callback time', fieldKey: 'contact.callback_time', placeholder: '{{contact.callback_time}}', dataType: 'DATE' },
      { id: 'cf2', name: 'Pincode', fieldKey: 'pincode', placeholder: '{{contact.pincode}}', dataType: 'TEXT' },
    ];
    expect(contactFieldChoices(fields)).toEqual([
      { value: 'contact.callback_time', label: 'Callback time' },
      { value: 'contact.pincode', label: 'Pincode' },
    ]);
  });
});

/** Fetchers whose answers the test releases by hand, counting calls. */
function manualFetchers() {
  const calls: string[] = [];
  const pending: { what: string; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const make = (what: string) => () => {
    calls.push(what);
    return new Promise<never>((resolve, reject) => pending.push({ what, resolve: resolve as (v: unknown) => void, reject }));
  };
  const fetchers = { pipelines: make('pipelines'), calendars: make('calendars'), customFields: make('customFields'), customValues: make('customValues') } as unknown as CrmFetchers;
  return { calls, pending, fetchers };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the CRM loader', () => {
  it('reads a resource once, when first asked, and again only on refresh (keeping the list meanwhile)', async () => {
    const { calls, pending, fetchers } = manualFetchers();
    const crm = createCrmStore(fetchers);
    expect(calls).toEqual([]);
    expect(crm.getState().loads.pipelines).toEqual({ status: 'idle' });

    crm.getState().load('pipelines');
    crm.getState().load('pipelines');
    expect(calls).toEqual(['pipelines']);
    expect(crm.getState().loads.pipelines).toEqual({ status: 'loading' });
    pending[0]!.resolve(PIPELINES);
    await settle();
    expect(crm.getState().loads.pipelines).toEqual({ status: 'done', value: PIPELINES });
    crm.getState().load('pipelines');
    expect(calls).toEqual(['pipelines']);

    crm.getState().refresh('pipelines');
    expect(crm.getState().loads.pipelines).toEqual({ status: 'loading', value: PIPELINES });
    pending[1]!.resolve([]);
    await settle();
    expect(crm.getState().loads.pipelines).toEqual({ status: 'done', value: [] });
    expect(calls).toEqual(['pipelines', 'pipelines']);
    expect(crm.getState().loads.calendars).toEqual({ status: 'idle' });
  });

  it('classifies failures (409 Disconnected, 403, anything else) and keeps them until retried', async () => {
    const { calls, pending, fetchers } = manualFetchers();
    const crm = createCrmStore(fetchers);
    crm.getState().load('pipelines');
    crm.getState().load('calendars');
    crm.getState().load('customValues');
    pending[0]!.reject(new ApiError(409, { error: 'CONFLICT', code: 'Disconnected', message: 'project p1 is disconnected from its CRM: reconnect it' }));
    pending[1]!.reject(new ApiError(403, { error: 'FORBIDDEN', message: 'this key lacks crm:read' }));
    pending[2]!.reject(new TypeError('Failed to fetch'));
    await settle();
    expect(crm.getState().loads.pipelines).toEqual({ status: 'error', failure: { kind: 'disconnected', message: 'project p1 is disconnected from its CRM: reconnect it' } });
    expect(crm.getState().loads.calendars).toEqual({ status: 'error', failure: { kind: 'forbidden', message: 'this key lacks crm:read' } });
    expect(crm.getState().loads.customValues).toEqual({ status: 'error', failure: { kind: 'failed', message: 'Failed to fetch' } });
    // Another form asking again does not hammer a failing CRM; Retry does read again.
    crm.getState().load('pipelines');
    expect(calls).toEqual(['pipelines', 'calendars', 'customValues']);
    crm.getState().refresh('pipelines');
    pending[3]!.resolve(PIPELINES);
    await settle();
    expect(crm.getState().loads.pipelines).toEqual({ status: 'done', value: PIPELINES });
    // A 409 that is not about the CRM connection is an ordinary failure.
    crm.getState().refresh('calendars');
    pending[4]!.reject(new ApiError(409, { error: 'CONFLICT', message: 'something else' }));
    await settle();
    expect(crm.getState().loads.calendars).toMatchObject({ failure: { kind: 'failed' } });

    // Opening a workflow of the agent again forgets the failures, not the lists read fine.
    crm.getState().forgetFailures();
    expect(crm.getState().loads).toMatchObject({ pipelines: { status: 'done' }, calendars: { status: 'idle' }, customValues: { status: 'idle' } });
    crm.getState().load('calendars');
    expect(calls).toEqual(['pipelines', 'calendars', 'customValues', 'pipelines', 'calendars', 'calendars']);
  });

  it('a late answer to an older read never overwrites a newer one', async () => {
    const { pending, fetchers } = manualFetchers();
    const crm = createCrmStore(fetchers);
    crm.getState().load('calendars');
    crm.getState().refresh('calendars');
    pending[1]!.resolve(CALENDARS);
    await settle();
    pending[0]!.resolve([]);
    await settle();
    expect(crm.getState().loads.calendars).toEqual({ status: 'done', value: CALENDARS });
  });
});
