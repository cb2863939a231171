import { fakeId, startHttpFake, type FakeRequest, type FakeResponse, type HttpFake, type Route } from './http-fake.js';

/**
 * A stateful GoHighLevel (LeadConnector v2) for adapter behaviour tests: the paths the adapter uses,
 * with real state (a contact's tags after two adds, an opportunity created then moved, a taken
 * slot), the vendor's auth and `Version` checks, and fault injection from http-fake.
 */

export interface FakeContact {
  id: string;
  locationId: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  timezone?: string;
  tags: string[];
  customFields: { id: string; value: unknown }[];
  notes: { id: string; body: string; dateAdded: string }[];
}
export interface FakeField {
  id: string;
  locationId: string;
  name: string;
  fieldKey: string;
  dataType: string;
}
export interface FakePipeline {
  id: string;
  locationId: string;
  name: string;
  stages: { id: string; name: string }[];
}
export interface FakeOpportunity {
  id: string;
  locationId: string;
  contactId: string;
  pipelineId: string;
  pipelineStageId: string;
  name: string;
  status: string;
}
export interface FakeCalendar {
  id: string;
  locationId: string;
  name: string;
  slotMinutes: number;
  /** open hours in UTC, every day: [from, to) */
  openHoursUtc: [number, number];
}
export interface FakeAppointment {
  id: string;
  locationId: string;
  calendarId: string;
  contactId: string;
  startTime: string;
  endTime: string;
  appointmentStatus: string;
}
export interface FakeMessage {
  id: string;
  conversationId: string;
  locationId: string;
  contactId: string;
  messageType: 'TYPE_SMS' | 'TYPE_EMAIL';
  direction: 'outbound' | 'inbound';
  body: string;
  subject?: string;
  to?: string;
  from?: string;
  dateAdded: string;
  status: string;
}

export interface GhlFakeState {
  locations: Map<string, { id: string; name: string; timezone: string; country: string; phone?: string; address?: string; city?: string; state?: string; postalCode?: string; email?: string; website?: string }>;
  contacts: Map<string, FakeContact>;
  fields: FakeField[];
  values: { id: string; locationId: string; name: string; fieldKey: string; value: string }[];
  pipelines: FakePipeline[];
  opportunities: Map<string, FakeOpportunity>;
  calendars: FakeCalendar[];
  appointments: FakeAppointment[];
  conversations: { id: string; locationId: string; contactId: string }[];
  messages: FakeMessage[];
}

const VERSION_OF: Record<string, string> = {
  contacts: '2021-07-28',
  opportunities: '2021-07-28',
  locations: '2021-07-28',
  calendars: '2021-04-15',
  conversations: '2021-04-15',
};

const err = (status: number, message: string): FakeResponse => ({ status, body: { statusCode: status, message } });
const ok = (body: unknown, status = 200): FakeResponse => ({ status, body });
type Body = Record<string, unknown>;
const body = (r: FakeRequest) => (r.body ?? {}) as Body;

export interface GohighlevelFake extends HttpFake {
  state: GhlFakeState;
  /** the access token the fake accepts now; replace it to revoke the old one */
  token: string;
  /** an OAuth app whose refresh token the fake exchanges at POST /oauth/token (single use) */
  oauth: { clientId: string; clientSecret: string; refreshToken: string; issued: number };
}

export async function startGohighlevelFake(opts: { token: string }): Promise<GohighlevelFake> {
  const state: GhlFakeState = {
    locations: new Map(),
    contacts: new Map(),
    fields: [],
    values: [],
    pipelines: [],
    opportunities: new Map(),
    calendars: [],
    appointments: [],
    conversations: [],
    messages: [],
  };
  const now = () => new Date().toISOString();

  const contactOr404 = (id: string) => state.contacts.get(id);
  const overlaps = (calendarId: string, start: number, end: number) =>
    state.appointments.some((a) => a.calendarId === calendarId && a.appointmentStatus !== 'cancelled' && Date.parse(a.startTime) < end && Date.parse(a.endTime) > start);

  const routes: Route[] = [
    {
      method: 'GET',
      path: '/contacts/search/duplicate',
      handler: (r) => {
        const digits = (s: string | undefined) => (s ?? '').replace(/\D/g, '');
        const number = digits(r.query.get('number') ?? '');
        const c = [...state.contacts.values()].find((x) => x.locationId === r.query.get('locationId') && number && digits(x.phone) === number);
        return ok({ contact: c ? view(c) : null });
      },
    },
    {
      method: 'GET',
      path: '/contacts/:contactId',
      handler: (_r, p) => {
        const c = contactOr404(p.contactId!);
        return c ? ok({ contact: view(c) }) : err(404, 'Contact not found');
      },
    },
    {
      method: 'PUT',
      path: '/contacts/:contactId',
      handler: (r, p) => {
        const c = contactOr404(p.contactId!);
        if (!c) return err(404, 'Contact not found');
        for (const f of (body(r).customFields ?? []) as { id: string; field_value: unknown }[]) {
          if (!state.fields.some((d) => d.id === f.id && d.locationId === c.locationId)) return err(400, `Custom field ${f.id} does not exist`);
          c.customFields = [...c.customFields.filter((x) => x.id !== f.id), { id: f.id, value: f.field_value }];
        }
        return ok({ succeded: true, contact: view(c) });
      },
    },
    {
      method: 'POST',
      path: '/contacts/:contactId/tags',
      handler: (r, p) => {
        const c = contactOr404(p.contactId!);
        if (!c) return err(404, 'Contact not found');
        const tags = body(r).tags;
        if (!Array.isArray(tags)) return err(422, 'tags must be an array');
        c.tags = [...new Set([...c.tags, ...(tags as string[])])];
        return ok({ tags: c.tags }, 201);
      },
    },
    {
      method: 'DELETE',
      path: '/contacts/:contactId/tags',
      handler: (r, p) => {
        const c = contactOr404(p.contactId!);
        if (!c) return err(404, 'Contact not found');
        const tags = (body(r).tags ?? []) as string[];
        c.tags = c.tags.filter((t) => !tags.includes(t));
        return ok({ tags: c.tags });
      },
    },
    {
      method: 'GET',
      path: '/contacts/:contactId/notes',
      handler: (_r, p) => {
        const c = contactOr404(p.contactId!);
        return c ? ok({ notes: c.notes.map((n) => ({ ...n, contactId: c.id })) }) : err(404, 'Contact not found');
      },
    },
    {
      method: 'POST',
      path: '/contacts/:contactId/notes',
      handler: (r, p) => {
        const c = contactOr404(p.contactId!);
        if (!c) return err(404, 'Contact not found');
        const text = body(r).body;
        if (typeof text !== 'string' || !text) return err(422, 'body should not be empty');
        const note = { id: fakeId('n'), body: text, dateAdded: now() };
        c.notes.push(note);
        return ok({ note: { ...note, contactId: c.id } }, 201);
      },
    },
    {
      method: 'GET',
      path: '/opportunities/search',
      handler: (r) => {
        const q = r.query;
        const list = [...state.opportunities.values()].filter(
          (o) => o.locationId === q.get('location_id') && (!q.get('contact_id') || o.contactId === q.get('contact_id')) && (!q.get('pipeline_id') || o.pipelineId === q.get('pipeline_id')),
        );
        return ok({ opportunities: list, meta: { total: list.length } });
      },
    },
    {
      method: 'GET',
      path: '/opportunities/pipelines',
      handler: (r) => ok({ pipelines: state.pipelines.filter((p) => p.locationId === r.query.get('locationId')) }),
    },
    {
      method: 'POST',
      path: '/opportunities/',
      handler: (r) => {
        const b = body(r);
        for (const k of ['pipelineId', 'locationId', 'name', 'status', 'contactId']) if (typeof b[k] !== 'string') return err(422, `${k} must be a string`);
        const bad = badStage(b.pipelineId as string, b.pipelineStageId as string | undefined);
        if (bad) return bad;
        const o: FakeOpportunity = {
          id: fakeId('o'),
          locationId: b.locationId as string,
          contactId: b.contactId as string,
          pipelineId: b.pipelineId as string,
          pipelineStageId: (b.pipelineStageId as string | undefined) ?? state.pipelines.find((p) => p.id === b.pipelineId)!.stages[0]!.id,
          name: b.name as string,
          status: b.status as string,
        };
        state.opportunities.set(o.id, o);
        return ok({ opportunity: o }, 201);
      },
    },
    {
      method: 'PUT',
      path: '/opportunities/:id',
      handler: (r, p) => {
        const o = state.opportunities.get(p.id!);
        if (!o) return err(404, 'Opportunity not found');
        const b = body(r);
        const pipelineId = (b.pipelineId as string | undefined) ?? o.pipelineId;
        const bad = badStage(pipelineId, b.pipelineStageId as string | undefined);
        if (bad) return bad;
        o.pipelineId = pipelineId;
        if (typeof b.pipelineStageId === 'string') o.pipelineStageId = b.pipelineStageId;
        return ok({ opportunity: o });
      },
    },
    {
      method: 'POST',
      path: '/conversations/messages',
      handler: (r) => {
        const b = body(r);
        const c = typeof b.contactId === 'string' ? state.contacts.get(b.contactId) : undefined;
        if (!c) return err(400, 'Contact not found');
        if (b.type !== 'SMS' && b.type !== 'Email') return err(422, 'type must be one of SMS, Email');
        if (b.type === 'SMS' && !(b.toNumber ?? c.phone)) return err(400, 'Contact does not have a phone number');
        if (b.type === 'Email' && !(b.emailTo ?? c.email)) return err(400, 'Contact does not have an email');
        let conv = state.conversations.find((x) => x.contactId === c.id);
        if (!conv) {
          conv = { id: fakeId('cv'), locationId: c.locationId, contactId: c.id };
          state.conversations.push(conv);
        }
        const m: FakeMessage = {
          id: fakeId('m'),
          conversationId: conv.id,
          locationId: c.locationId,
          contactId: c.id,
          messageType: b.type === 'SMS' ? 'TYPE_SMS' : 'TYPE_EMAIL',
          direction: 'outbound',
          body: String(b.type === 'SMS' ? (b.message ?? '') : (b.html ?? b.message ?? '')),
          ...(b.type === 'Email' && { subject: String(b.subject ?? ''), to: String(b.emailTo ?? c.email) }),
          ...(b.type === 'SMS' && { to: String(b.toNumber ?? c.phone), ...(typeof b.fromNumber === 'string' && { from: b.fromNumber }) }),
          dateAdded: now(),
          status: 'sent',
        };
        state.messages.push(m);
        return ok({ conversationId: conv.id, messageId: m.id, ...(b.type === 'Email' && { emailMessageId: fakeId('em') }), msg: 'Message queued successfully.' });
      },
    },
    {
      method: 'GET',
      path: '/conversations/search',
      handler: (r) => {
        const list = state.conversations.filter((x) => x.locationId === r.query.get('locationId') && (!r.query.get('contactId') || x.contactId === r.query.get('contactId')));
        return ok({ conversations: list.map((x) => ({ ...x, type: 'TYPE_PHONE' })), total: list.length });
      },
    },
    {
      method: 'GET',
      path: '/conversations/:conversationId/messages',
      handler: (r, p) => {
        if (!state.conversations.some((x) => x.id === p.conversationId)) return err(404, 'Conversation not found');
        const type = r.query.get('type');
        const list = state.messages.filter((m) => m.conversationId === p.conversationId && (!type || type.split(',').includes(m.messageType))).reverse();
        return ok({ messages: { lastMessageId: list.at(-1)?.id ?? '', nextPage: false, messages: list.map((m) => ({ ...m, type: m.messageType === 'TYPE_SMS' ? 2 : 3, contentType: 'text/plain' })) } });
      },
    },
    {
      method: 'GET',
      path: '/calendars/',
      handler: (r) => ok({ calendars: state.calendars.filter((c) => c.locationId === r.query.get('locationId')).map((c) => ({ id: c.id, name: c.name, locationId: c.locationId, isActive: true })) }),
    },
    {
      method: 'GET',
      path: '/calendars/events',
      handler: (r) => {
        const from = Number(r.query.get('startTime'));
        const to = Number(r.query.get('endTime'));
        if (!r.query.get('locationId') || Number.isNaN(from) || Number.isNaN(to)) return err(422, 'locationId, startTime and endTime are required');
        const events = state.appointments.filter(
          (a) => a.locationId === r.query.get('locationId') && (!r.query.get('calendarId') || a.calendarId === r.query.get('calendarId')) && Date.parse(a.startTime) < to && Date.parse(a.endTime) > from,
        );
        return ok({ events });
      },
    },
    {
      method: 'GET',
      path: '/calendars/:calendarId/free-slots',
      handler: (r, p) => {
        const cal = state.calendars.find((c) => c.id === p.calendarId);
        if (!cal) return err(404, 'Calendar not found');
        const from = Number(r.query.get('startDate'));
        const to = Number(r.query.get('endDate'));
        if (!Number.isFinite(from) || !Number.isFinite(to)) return err(422, 'startDate and endDate must be numbers');
        // Like the vendor: every free slot of each day the range touches.
        const out: Record<string, { slots: string[] }> = {};
        for (let day = Math.floor(from / 86_400_000) * 86_400_000; day <= to; day += 86_400_000) {
          const slots: string[] = [];
          for (let t = day + cal.openHoursUtc[0] * 3_600_000; t + cal.slotMinutes * 60_000 <= day + cal.openHoursUtc[1] * 3_600_000; t += cal.slotMinutes * 60_000) {
            if (!overlaps(cal.id, t, t + cal.slotMinutes * 60_000)) slots.push(new Date(t).toISOString().replace('.000Z', '+00:00'));
          }
          if (slots.length) out[new Date(day).toISOString().slice(0, 10)] = { slots };
        }
        return ok(out);
      },
    },
    {
      method: 'POST',
      path: '/calendars/events/appointments',
      handler: (r) => {
        const b = body(r);
        const cal = state.calendars.find((c) => c.id === b.calendarId);
        if (!cal) return err(400, 'Calendar not found');
        if (!state.contacts.has(b.contactId as string)) return err(400, 'Contact not found');
        const start = Date.parse(String(b.startTime));
        const end = b.endTime ? Date.parse(String(b.endTime)) : start + cal.slotMinutes * 60_000;
        if (overlaps(cal.id, start, end)) return err(400, 'The slot you have selected is no longer available');
        const a: FakeAppointment = {
          id: fakeId('a'),
          locationId: b.locationId as string,
          calendarId: cal.id,
          contactId: b.contactId as string,
          startTime: new Date(start).toISOString(),
          endTime: new Date(end).toISOString(),
          appointmentStatus: 'confirmed',
        };
        state.appointments.push(a);
        return ok({ ...a, title: 'Appointment' });
      },
    },
    {
      method: 'GET',
      path: '/locations/:locationId',
      handler: (_r, p) => {
        const l = state.locations.get(p.locationId!);
        return l ? ok({ location: l }) : err(404, 'Location not found');
      },
    },
    {
      method: 'GET',
      path: '/locations/:locationId/customValues',
      handler: (_r, p) => ok({ customValues: state.values.filter((v) => v.locationId === p.locationId) }),
    },
    {
      method: 'GET',
      path: '/locations/:locationId/customFields',
      handler: (r, p) => ok({ customFields: state.fields.filter((f) => f.locationId === p.locationId).map((f) => ({ ...f, model: r.query.get('model') === 'opportunity' ? 'opportunity' : 'contact' })) }),
    },
  ];

  function badStage(pipelineId: string, stageId: string | undefined): FakeResponse | null {
    const p = state.pipelines.find((x) => x.id === pipelineId);
    if (!p) return err(400, `Pipeline ${pipelineId} not found`);
    if (stageId && !p.stages.some((s) => s.id === stageId)) return err(400, `Stage ${stageId} is not in pipeline ${pipelineId}`);
    return null;
  }

  function view(c: FakeContact) {
    const { notes: _notes, ...rest } = c;
    return { ...rest, name: [c.firstName, c.lastName].filter(Boolean).join(' ') || undefined };
  }

  const oauth = { clientId: 'fake-client', clientSecret: 'fake-client-secret', refreshToken: 'refresh-0', issued: 0 };
  routes.push({
    method: 'POST',
    path: '/oauth/token',
    handler: (r) => {
      const form = (r.body ?? {}) as Record<string, string>;
      if (form.client_id !== oauth.clientId || form.client_secret !== oauth.clientSecret) return { status: 401, body: { error: 'invalid_client' } };
      if (form.grant_type !== 'refresh_token' || form.refresh_token !== oauth.refreshToken) return { status: 400, body: { error: 'invalid_grant', error_description: 'refresh token is invalid or was used' } };
      oauth.issued += 1;
      fake.token = `access-${oauth.issued}`;
      oauth.refreshToken = `refresh-${oauth.issued}`;
      return ok({ access_token: fake.token, token_type: 'Bearer', expires_in: 86_399, refresh_token: oauth.refreshToken, scope: 'contacts.write', userType: 'Location' });
    },
  });

  const http = await startHttpFake({
    routes,
    errorBody: (status, message) => ({ statusCode: status, message, ...(status === 401 && { error: 'Unauthorized' }) }),
    gate: (r) => {
      if (r.path === '/oauth/token') return null;
      if (r.headers.authorization !== `Bearer ${fake.token}`) return { status: 401, body: { statusCode: 401, message: 'Invalid JWT', error: 'Unauthorized' } };
      const family = r.path.split('/')[1] ?? '';
      const want = VERSION_OF[family];
      if (want && r.headers.version !== want) return err(400, `Version header must be ${want}`);
      return null;
    },
  });
  const fake: GohighlevelFake = Object.assign(http, { state, token: opts.token, oauth });
  return fake;
}

/** Seeds a location with a contact, fields, values, a pipeline and a calendar; returns their ids. */
export function seedLocation(fake: GohighlevelFake, locationId = fakeId('L')) {
  const s = fake.state;
  s.locations.set(locationId, { id: locationId, name: 'Sunrise Dental', timezone: 'America/Chicago', country: 'US', phone: '+15125550100', city: 'Austin', state: 'TX' });
  const callbackField = { id: fakeId('f'), locationId, name: 'Callback time', fieldKey: 'contact.callback_time', dataType: 'DATE' };
  const insuranceField = { id: fakeId('f'), locationId, name: 'Insurance provider', fieldKey: 'contact.insurance_provider', dataType: 'TEXT' };
  s.fields.push(callbackField, insuranceField);
  s.values.push({ id: fakeId('v'), locationId, name: 'Business name', fieldKey: '{{ custom_values.business_name }}', value: 'Sunrise Dental' });
  const contact: FakeContact = {
    id: fakeId('c'),
    locationId,
    firstName: 'Ana',
    lastName: 'Lopez',
    email: 'ana@example.com',
    phone: '+15125550123',
    timezone: 'America/Chicago',
    tags: ['lead'],
    customFields: [{ id: insuranceField.id, value: 'Delta' }],
    notes: [],
  };
  s.contacts.set(contact.id, contact);
  const pipeline: FakePipeline = { id: fakeId('p'), locationId, name: 'Sales', stages: [{ id: fakeId('s'), name: 'New' }, { id: fakeId('s'), name: 'Booked' }, { id: fakeId('s'), name: 'Won' }] };
  s.pipelines.push(pipeline);
  const calendar: FakeCalendar = { id: fakeId('k'), locationId, name: 'Consultations', slotMinutes: 30, openHoursUtc: [14, 22] };
  s.calendars.push(calendar);
  return { locationId, contact, callbackField, insuranceField, pipeline, calendar };
}
