/**
 * The console's pure parts (editor/src/model/): a call's transcript as turns, which recording URLs
 * may be links, lengths and costs in words; what a new API key may be given; when a project was
 * found disconnected.
 */
import { describe, expect, it } from 'vitest';
import { costText, durationText, outcomeOf, transcriptTurns, webUrl } from '../../editor/src/model/calls.js';
import { grantableProjects, grantableRoles, newKeyBody, newKeyProblems, scopeGroups } from '../../editor/src/model/keys.js';
import { disconnectedAt, graceSeconds } from '../../editor/src/model/connections.js';
import { daysText, explainNextCall, placeInWindow, stepRule, windowText } from '../../editor/src/model/cadence.js';
import type { Alert, PipelineLead, Project } from '../../editor/src/api/types.js';

describe('a call', () => {
  it('reads the stored transcript as turns; an unlabelled line continues the turn before it', () => {
    expect(transcriptTurns('Agent: Hello\nLead: Hi\n  who is this?\n\nAgent:Bright Smile')).toEqual([
      { speaker: 'agent', label: 'Agent', text: 'Hello' },
      { speaker: 'lead', label: 'Lead', text: 'Hi\nwho is this?' },
      { speaker: 'agent', label: 'Agent', text: 'Bright Smile' },
    ]);
    expect(transcriptTurns('(no speaker)\nLead: ok')).toEqual([
      { speaker: 'other', label: '', text: '(no speaker)' },
      { speaker: 'lead', label: 'Lead', text: 'ok' },
    ]);
    expect(transcriptTurns(undefined)).toEqual([]);
  });

  it('links only http and https recordings', () => {
    expect(webUrl('https://recordings.example.com/a.mp3')).toBe('https://recordings.example.com/a.mp3');
    expect(webUrl('http://x.test/a')).toBe('http://x.test/a');
    for (const bad of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'not a url', '', undefined]) expect(webUrl(bad)).toBeNull();
  });

  it('says length, cost and outcome in words (the outcome coloured from our table, whatever the record says)', () => {
    expect([durationText(125), durationText(3725), durationText(0), durationText(undefined)]).toEqual(['2:05', '1:02:05', '0:00', '—']);
    expect([costText(0.1234), costText(0.004), costText(0), costText(undefined)]).toEqual(['$0.12', '$0.0040', '$0.00', '—']);
    expect(outcomeOf({ disposition: { type: 'callBack', label: 'Call Back', color: 'red; background: url(https://evil.test)' } })).toEqual({ label: 'Call Back', color: '#f59e0b' });
    expect(outcomeOf({ disposition: { type: 'weird', label: 'Weird', color: '#fff' } })).toEqual({ label: 'Weird', color: '#64748b' });
  });
});

describe('a new API key', () => {
  const admin = { role: 'agency_admin' as const, projectIds: [] };
  const projects = [{ id: 'prj_a' }, { id: 'prj_b' }] as Project[];
  it('offers the creator’s scopes by group, the roles an admin may give, and the projects it reaches', () => {
    expect(scopeGroups(['projects:read', 'projects:write', 'calls:read'])).toEqual([
      { group: 'projects', scopes: ['projects:read', 'projects:write'] },
      { group: 'calls', scopes: ['calls:read'] },
    ]);
    expect(grantableRoles(admin)).toEqual(['agency_admin', 'project_user']);
    expect(grantableRoles({ role: 'project_user' })).toEqual([]);
    expect(grantableProjects(admin, projects).map((p) => p.id)).toEqual(['prj_a', 'prj_b']);
    expect(grantableProjects({ role: 'project_user', projectIds: ['prj_b'] }, projects).map((p) => p.id)).toEqual(['prj_b']);
  });

  it('needs a name, a scope, a project for a project key and a future day; sends projects only for a project key', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const form = { name: ' ', role: 'project_user' as const, scopes: [], projectIds: [], expires: '2026-11-26' };
    expect(Object.keys(newKeyProblems(form, now)).sort()).toEqual(['expires', 'name', 'projectIds', 'scopes']);
    const ok = { name: 'Dash ', role: 'project_user' as const, scopes: ['calls:read' as const], projectIds: ['prj_a'], expires: '2026-12-31' };
    expect(newKeyProblems(ok, now)).toEqual({});
    expect(newKeyBody(ok)).toEqual({ name: 'Dash', role: 'project_user', scopes: ['calls:read'], projectIds: ['prj_a'], expiresAt: '2026-12-31T23:59:59Z' });
    expect(newKeyBody({ ...ok, role: 'agency_admin', expires: '' })).toEqual({ name: 'Dash', role: 'agency_admin', scopes: ['calls:read'] });
  });
});

describe('a connection', () => {
  it('was found disconnected when the newest alert naming the project says', () => {
    const alert = (projectId: string, createdAt: string, kind: Alert['kind'] = 'project.disconnected') => ({ id: `al_${createdAt}`, kind, createdAt, payload: { projectId }, dispatchedAt: null, deliveredAt: null, emailedAt: null, attempts: 0, lastError: null }) satisfies Alert;
    const alerts = [alert('prj_a', '2026-11-01T00:00:00Z'), alert('prj_a', '2026-11-03T00:00:00Z'), alert('prj_b', '2026-11-04T00:00:00Z'), alert('prj_a', '2026-11-05T00:00:00Z', 'run.failed')];
    expect(disconnectedAt({ id: 'prj_a', status: 'disconnected' }, alerts)).toBe('2026-11-03T00:00:00Z');
    expect(disconnectedAt({ id: 'prj_a', status: 'live' }, alerts)).toBeNull();
    expect(disconnectedAt({ id: 'prj_c', status: 'disconnected' }, alerts)).toBeNull();
    expect([graceSeconds(2), graceSeconds(-1), graceSeconds(10_000)]).toEqual([7200, 0, 720 * 3600]);
  });
});

describe('a lead in its cadence', () => {
  const window = { days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' };
  const lead = (over: Partial<PipelineLead>): PipelineLead => ({
    _id: 'lead_1', queueId: 'q', cadenceStep: 0, callStatus: 'scheduled', nextCallTime: '2026-03-02T15:00:00Z', timezone: 'America/Los_Angeles', firstName: 'Ana', fullName: 'Ana Lopez', email: '',
    phone: '+15125550123', live: true, callerPreference: '', createdAt: '2026-03-02T13:30:00Z', tags: [], locationId: 'loc', businessName: 'B', pipeline: '', campaignId: 'cmp', campaignName: 'C', ...over,
  });
  const ctx = (mtc: boolean) => ({
    steps: [{ delayMinutes: 0 }, { delayMinutes: 240, label: 'After 4 hours' }, { delayMinutes: 0, at: '10:00', dayOffset: 1 }],
    windows: [{ ...window }],
    campaign: { multipleTimezoneCheck: mtc },
    project: { multipleTimezoneCheck: false, timezone: 'America/Chicago' },
  });

  it('says days, steps and windows in words', () => {
    expect([daysText([1, 2, 3, 4, 5]), daysText([1, 3, 6, 7]), daysText([7, 1, 2, 3, 4, 5, 6])]).toEqual(['Mon–Fri', 'Mon, Wed, Sat–Sun', 'every day']);
    expect(ctx(false).steps.map((s, i) => stepRule(s, i))).toEqual(['at once after enrolment', '4 hours after the previous attempt', 'at 10:00, 1 day after the previous attempt']);
    expect(windowText(window)).toBe('Mon–Fri 9:00–17:30 (America/Chicago)');
  });

  it('places an instant at a window’s opening, inside it or outside, across midnight too', () => {
    expect(placeInWindow({ weekday: 1, minutes: 540 }, window)).toBe('opening');
    expect(placeInWindow({ weekday: 1, minutes: 600 }, window)).toBe('inside');
    expect(placeInWindow({ weekday: 6, minutes: 600 }, window)).toBe('outside');
    const night = { days: [5], start: '22:00', end: '2:00', tz: 'UTC' };
    expect([placeInWindow({ weekday: 5, minutes: 23 * 60 }, night), placeInWindow({ weekday: 6, minutes: 60 }, night), placeInWindow({ weekday: 7, minutes: 60 }, night)]).toEqual(['inside', 'inside', 'outside']);
  });

  it('reads the next call on the governing zone’s clock, as docs/power-dialer.md’s example does', () => {
    // The window read in Chicago (the switch off): 9:00 there, the window's opening.
    const chicago = explainNextCall(lead({}), ctx(false));
    expect([chicago.zone, chicago.hhmm, chicago.zoneWhy]).toEqual(['America/Chicago', '09:00', 'the calling window’s zone']);
    expect(chicago.why).toEqual(['attempt 1 of 3: at once after enrolment', 'the calling window Mon–Fri 9:00–17:30 (America/Chicago) opens then']);
    // The switch on: the lead's own zone, 9:00 in Los Angeles.
    const la = explainNextCall(lead({ nextCallTime: '2026-03-02T17:00:00Z' }), ctx(true));
    expect([la.zone, la.hhmm, la.zoneWhy]).toEqual(['America/Los_Angeles', '09:00', 'the lead’s own zone (multiple time zones on)']);
    // A callback the lead asked for, inside the window.
    const callback = explainNextCall(lead({ cadenceStep: 1, callStatus: 'callback', callerPreference: 'after lunch', nextCallTime: '2026-03-03T19:30:00Z' }), ctx(false));
    expect(callback.why).toEqual(['the lead asked to be called back: “after lunch” (attempt 2 of 3)', 'inside the calling window Mon–Fri 9:00–17:30 (America/Chicago)']);
  });
});
