/**
 * The power dialer's reads and writes (scopes `power_dialer:read`, `power_dialer:write`): a
 * campaign's cadence, its leads per cadence step and parked, one lead, enrolling and removing.
 */
import { answer, client } from './client';
import type { EnrolLeadBody, LeadQuery } from './types';

export const powerDialerApi = {
  cadence: (id: string) => answer(client.GET('/api/power-dialer/cadences/{id}', { params: { path: { id } } })).then((r) => r.data),
  /** leads being worked at one cadence step (scheduled, calling or called back) */
  stepLeads: (cadenceStep: number, query: LeadQuery) => answer(client.GET('/api/power-dialer/pipeline/leads', { params: { query: { ...query, cadenceStep } } })).then((r) => r.data),
  /** speed-to-lead leads waiting for the calling window to open */
  parkedLeads: (query: LeadQuery) => answer(client.GET('/api/power-dialer/pipeline/s2l-parked', { params: { query } })).then((r) => r.data),
  enrol: (body: EnrolLeadBody) => answer(client.POST('/api/power-dialer/leads', { body })).then((r) => r),
  remove: (leadId: string) => answer(client.DELETE('/api/power-dialer/leads/{leadId}', { params: { path: { leadId } } })).then((r) => r.data),
};
