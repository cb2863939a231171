/**
 * A local Vapi, on a real port: `POST /call`, `GET /call` (the list, with the filters Vapi
 * documents) and `GET /call/{id}`. Every request body is validated against Vapi's published
 * `CreateCallDTO` (ajv, test/helpers/vapi-schemas.ts): a body that does not conform is answered
 * 400 with the violations, as Vapi answers a bad request, and kept in `violations` so a test can
 * insist on none. Every Call it answers with, and every end-of-call report it builds, is held to
 * Vapi's `Call` and `ServerMessageEndOfCallReport` schemas, so the fake cannot drift from Vapi.
 *
 * Phone numbers: `POST /phone-number` imports a number bought at Twilio (`provider: "twilio"`, body
 * validated against Vapi's `CreateTwilioPhoneNumberDTO`, and a property the DTO does not declare
 * is refused, as Vapi's whitelisting validation does); the imported number can place calls at once.
 * `GET /phone-number` lists them (answers held to `TwilioPhoneNumber`).
 *
 * Faults are queued per route (`inject`) and used once each: an HTTP refusal (401, 429 with
 * Retry-After, 500, any 4xx with a message), `accept-then-hang` (the call is created, the answer
 * never comes) and `accept-then-500` (created, then a 500).
 */
import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileVapiSchemas, vapiSchemaProperties, vapiViolations } from '../helpers/vapi-schemas.js';

export type VapiFault =
  | { kind: 'status'; status: number; message?: string; retryAfter?: string }
  | { kind: 'accept-then-hang' }
  | { kind: 'accept-then-500' };

export type VapiFakeRoute = 'POST /call' | 'GET /call' | 'GET /call/{id}' | 'POST /phone-number' | 'GET /phone-number';

/** A number imported from Twilio, as the fake stores it and the request that made it. */
export interface FakePhoneNumber {
  number: Record<string, unknown> & { id: string; number: string };
  request: Record<string, unknown>;
}

export interface FakeCall {
  /** the Call object as the fake stores and answers it */
  call: Record<string, unknown> & { id: string; createdAt: string };
  /** the request body exactly as received */
  request: Record<string, unknown>;
}

export interface ReportOptions {
  endedReason: string;
  /** `analysis.structuredData` */
  structuredData?: Record<string, unknown>;
  summary?: string;
  /** spoken turns; also rendered into `artifact.transcript` the way Vapi does (`AI:` / `User:`) */
  turns?: { role: 'bot' | 'user'; text: string }[];
  /** leave `artifact.messages` out (only `artifact.transcript`) */
  transcriptOnly?: boolean;
  /** seconds between startedAt and endedAt; absent = the call never connected (no startedAt) */
  durationSeconds?: number;
  cost?: number;
  recording?: boolean;
  /** when the call ended (epoch ms); default now */
  endedAt?: number;
}

export interface SignedDelivery {
  raw: string;
  headers: Record<string, string>;
}

export interface VapiFake {
  url: string;
  apiKey: string;
  orgId: string;
  calls: FakeCall[];
  /** numbers imported with `POST /phone-number` */
  imported: FakePhoneNumber[];
  requests: { route: string; status: number | 'hung' }[];
  /** CreateCallDTO (and CreateTwilioPhoneNumberDTO) violations of refused bodies; a test expects this empty */
  violations: string[][];
  inject(route: VapiFakeRoute, fault: VapiFault): void;
  /** resolves when the fake has received `n` requests in total */
  receivedRequests(n: number): Promise<void>;
  /** an `end-of-call-report` server message for a placed call, valid per Vapi's schema */
  endOfCallReport(platformCallId: string, opts: ReportOptions): Record<string, unknown>;
  /** the delivery body (`{ message }`) signed as Vapi's HMAC credential signs it */
  sign(message: Record<string, unknown>, secret: string, opts?: { timestamp?: string }): SignedDelivery;
  close(): Promise<void>;
}

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};
/** Vapi (NestJS) error body */
const error = (status: number, message: string | string[], name: string) => ({ message, error: name, statusCode: status });

export async function startVapiFake(
  opts: {
    apiKey?: string;
    assistants?: string[];
    phoneNumbers?: { id: string; number: string }[];
    /** whether the Twilio account named in an import owns the number (Vapi checks with Twilio); default: yes */
    twilioOwns?: (q: { accountSid: string; authToken: string; number: string }) => boolean;
  } = {},
): Promise<VapiFake> {
  compileVapiSchemas();
  const apiKey = opts.apiKey ?? `vapi-private-${randomUUID()}`;
  const orgId = randomUUID();
  const assistants = new Set(opts.assistants ?? []);
  const phoneNumbers = new Map((opts.phoneNumbers ?? []).map((p) => [p.id, p.number]));
  const calls: FakeCall[] = [];
  const imported: FakePhoneNumber[] = [];
  const requests: VapiFake['requests'] = [];
  const violations: string[][] = [];
  const faults = new Map<VapiFakeRoute, VapiFault[]>();
  const waiters: { n: number; resolve: () => void }[] = [];

  const noted = (route: string, status: number | 'hung') => {
    requests.push({ route, status });
    for (const w of waiters.filter((w) => requests.length >= w.n)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };

  function checkedCall(call: Record<string, unknown>) {
    const bad = vapiViolations('Call', call);
    if (bad.length > 0) throw new Error(`vapi fake: its own Call does not conform to Vapi's schema: ${bad.join('; ')}`);
    return call;
  }

  function create(body: Record<string, unknown>): FakeCall | { status: number; message: string } {
    const assistantId = body.assistantId as string | undefined;
    const phoneNumberId = body.phoneNumberId as string | undefined;
    const customer = body.customer as { number?: string } | undefined;
    if (!assistantId) return { status: 400, message: 'Need Either `assistant`, `assistantId`, `squad`, `squadId`, `workflow`, or `workflowId`.' };
    if (assistants.size > 0 && !assistants.has(assistantId)) return { status: 400, message: `Couldn't Get Assistant. \`assistantId\` ${assistantId} Does Not Exist.` };
    if (!phoneNumberId) return { status: 400, message: 'Need Either `phoneNumberId` Or `phoneNumber`.' };
    if (phoneNumbers.size > 0 && !phoneNumbers.has(phoneNumberId)) return { status: 400, message: `Couldn't Get Phone Number. \`phoneNumberId\` ${phoneNumberId} Does Not Exist.` };
    if (!customer?.number) return { status: 400, message: 'Need Either `customerId` Or `customer`.' };
    const now = new Date().toISOString();
    const call = checkedCall({
      id: randomUUID(),
      orgId,
      createdAt: now,
      updatedAt: now,
      type: 'outboundPhoneCall',
      status: 'queued',
      phoneCallProvider: 'vapi',
      phoneCallTransport: 'pstn',
      assistantId,
      phoneNumberId,
      customer: body.customer,
      ...(body.assistantOverrides !== undefined && { assistantOverrides: body.assistantOverrides }),
      ...(body.name !== undefined && { name: body.name }),
    }) as FakeCall['call'];
    const placed = { call, request: body };
    calls.push(placed);
    return placed;
  }

  const twilioDtoProperties = new Set(Object.keys(vapiSchemaProperties('CreateTwilioPhoneNumberDTO')));

  function importNumber(body: Record<string, unknown>): FakePhoneNumber | { status: number; message: string | string[] } {
    const unknown = Object.keys(body).filter((k) => !twilioDtoProperties.has(k)).map((k) => `property ${k} should not exist`);
    if (unknown.length > 0) return { status: 400, message: unknown };
    const number = String(body.number);
    if (imported.some((p) => p.number.number === number)) return { status: 400, message: `Number ${number} Already Exists.` };
    const owns = opts.twilioOwns?.({ accountSid: String(body.twilioAccountSid), authToken: String(body.twilioAuthToken ?? ''), number }) ?? true;
    if (!owns) return { status: 400, message: `Number ${number} Not Found On Twilio Account ${String(body.twilioAccountSid)}.` };
    const now = new Date().toISOString();
    const made = {
      id: randomUUID(),
      orgId,
      createdAt: now,
      updatedAt: now,
      provider: 'twilio',
      number,
      twilioAccountSid: body.twilioAccountSid,
      status: 'active',
      ...(body.name !== undefined && { name: body.name }),
      ...(body.smsEnabled !== undefined && { smsEnabled: body.smsEnabled }),
    };
    const bad = vapiViolations('TwilioPhoneNumber', made);
    if (bad.length > 0) throw new Error(`vapi fake: its own TwilioPhoneNumber does not conform to Vapi's schema: ${bad.join('; ')}`);
    const entry = { number: made, request: body };
    imported.push(entry);
    // The dialer may call from it at once.
    phoneNumbers.set(made.id, number);
    return entry;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const route: VapiFakeRoute | null =
        req.method === 'POST' && url.pathname === '/call' ? 'POST /call'
        : req.method === 'GET' && url.pathname === '/call' ? 'GET /call'
        : req.method === 'GET' && /^\/call\/[^/]+$/.test(url.pathname) ? 'GET /call/{id}'
        : req.method === 'POST' && url.pathname === '/phone-number' ? 'POST /phone-number'
        : req.method === 'GET' && url.pathname === '/phone-number' ? 'GET /phone-number'
        : null;
      if (!route) {
        noted(`${req.method} ${url.pathname}`, 404);
        return send(res, 404, error(404, `Cannot ${req.method} ${url.pathname}`, 'Not Found'));
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        noted(route, 401);
        return send(res, 401, error(401, 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.', 'Unauthorized'));
      }
      const fault = faults.get(route)?.shift();
      if (fault?.kind === 'status') {
        noted(route, fault.status);
        const message = fault.message ?? (fault.status === 429 ? 'Too Many Requests' : fault.status >= 500 ? 'Internal server error' : 'Bad Request');
        return send(res, fault.status, error(fault.status, message, http.STATUS_CODES[fault.status] ?? 'Error'), fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
      }

      if (route === 'POST /call') {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          noted(route, 400);
          return send(res, 400, error(400, 'Unexpected token in JSON', 'Bad Request'));
        }
        const bad = vapiViolations('CreateCallDTO', body);
        if (bad.length > 0) {
          violations.push(bad);
          noted(route, 400);
          return send(res, 400, error(400, bad, 'Bad Request'));
        }
        const placed = create(body as Record<string, unknown>);
        if (!('call' in placed)) {
          noted(route, placed.status);
          return send(res, placed.status, error(placed.status, placed.message, 'Bad Request'));
        }
        if (fault?.kind === 'accept-then-hang') return noted(route, 'hung'); // never answered; close() ends the socket
        if (fault?.kind === 'accept-then-500') {
          noted(route, 500);
          return send(res, 500, error(500, 'Internal server error', 'Internal Server Error'));
        }
        noted(route, 201);
        return send(res, 201, placed.call);
      }

      if (route === 'POST /phone-number') {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          noted(route, 400);
          return send(res, 400, error(400, 'Unexpected token in JSON', 'Bad Request'));
        }
        const provider = (body as { provider?: unknown } | null)?.provider;
        const bad = provider === 'twilio' ? vapiViolations('CreateTwilioPhoneNumberDTO', body) : [`/provider must be one of the providers; this fake imports only "twilio", got ${JSON.stringify(provider)}`];
        if (bad.length > 0) {
          violations.push(bad);
          noted(route, 400);
          return send(res, 400, error(400, bad, 'Bad Request'));
        }
        const made = importNumber(body as Record<string, unknown>);
        if (!('number' in made)) {
          noted(route, made.status);
          return send(res, made.status, error(made.status, made.message, 'Bad Request'));
        }
        if (fault?.kind === 'accept-then-hang') return noted(route, 'hung');
        if (fault?.kind === 'accept-then-500') {
          noted(route, 500);
          return send(res, 500, error(500, 'Internal server error', 'Internal Server Error'));
        }
        noted(route, 201);
        return send(res, 201, made.number);
      }

      if (fault?.kind === 'accept-then-hang') return noted(route, 'hung');
      if (route === 'GET /phone-number') {
        const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : 100;
        noted(route, 200);
        return send(res, 200, imported.map((p) => p.number).slice(0, limit));
      }
      if (route === 'GET /call/{id}') {
        const id = decodeURIComponent(url.pathname.slice('/call/'.length));
        const found = calls.find((c) => c.call.id === id);
        noted(route, found ? 200 : 404);
        return found ? send(res, 200, found.call) : send(res, 404, error(404, 'Call not found', 'Not Found'));
      }
      // GET /call: the filters of CallController_findAll
      const q = url.searchParams;
      const limit = q.has('limit') ? Number(q.get('limit')) : 100;
      const time = (name: string) => (q.has(name) ? Date.parse(q.get(name)!) : null);
      const [ge, gt, le, lt] = [time('createdAtGe'), time('createdAtGt'), time('createdAtLe'), time('createdAtLt')];
      const list = calls
        .map((c) => c.call)
        .filter((c) => {
          const at = Date.parse(c.createdAt);
          return (
            (!q.has('id') || c.id === q.get('id')) &&
            (!q.has('assistantId') || c.assistantId === q.get('assistantId')) &&
            (!q.has('phoneNumberId') || c.phoneNumberId === q.get('phoneNumberId')) &&
            (ge === null || at >= ge) && (gt === null || at > gt) && (le === null || at <= le) && (lt === null || at < lt)
          );
        })
        .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
        .slice(0, limit);
      noted(route, 200);
      return send(res, 200, list);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    apiKey,
    orgId,
    calls,
    imported,
    requests,
    violations,
    inject(route, fault) {
      faults.set(route, [...(faults.get(route) ?? []), fault]);
    },
    receivedRequests(n) {
      return requests.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }));
    },
    endOfCallReport(platformCallId, o) {
      const placed = calls.find((c) => c.call.id === platformCallId);
      if (!placed) throw new Error(`vapi fake: no call ${platformCallId}`);
      const endedAtMs = o.endedAt ?? Date.now();
      const endedAt = new Date(endedAtMs).toISOString();
      const startedMs = o.durationSeconds !== undefined ? endedAtMs - o.durationSeconds * 1000 : null;
      const startedAt = startedMs !== null ? new Date(startedMs).toISOString() : undefined;
      const turns = o.turns ?? [];
      let t = startedMs ?? endedAtMs;
      const messages = [
        { role: 'system', message: 'You are the front desk of the business. Be brief.', time: t, secondsFromStart: 0 },
        ...turns.map((turn) => {
          const m = { role: turn.role, message: turn.text, time: t + 500, endTime: t + 2500, secondsFromStart: (t + 500 - (startedMs ?? t)) / 1000, duration: 2000 };
          t += 3000;
          return m;
        }),
      ];
      const transcript = turns.map((turn) => `${turn.role === 'bot' ? 'AI' : 'User'}: ${turn.text}`).join('\n');
      const recordingUrl = `https://storage.vapi.ai/${platformCallId}-mono.wav`;
      const cost = o.cost ?? 0;
      const call = checkedCall({
        ...placed.call,
        status: 'ended',
        endedReason: o.endedReason,
        updatedAt: endedAt,
        ...(startedAt && { startedAt }),
        endedAt,
        cost,
      }) as FakeCall['call'];
      placed.call = call;
      const report: Record<string, unknown> = {
        type: 'end-of-call-report',
        timestamp: endedAtMs,
        endedReason: o.endedReason,
        cost,
        ...(startedAt && { startedAt }),
        endedAt,
        call,
        customer: placed.request.customer,
        // CreateVapiPhoneNumberDTO has no `number`; the caller ID travels in its display name here.
        phoneNumber: { provider: 'vapi', name: `Caller ID ${phoneNumbers.get(String(call.phoneNumberId)) ?? String(call.phoneNumberId)}`.slice(0, 40) },
        artifact: {
          ...(!o.transcriptOnly && { messages }),
          ...(transcript && { transcript }),
          ...(o.recording && { recordingUrl, recording: { mono: { combinedUrl: recordingUrl } } }),
        },
        analysis: {
          ...(o.summary !== undefined && { summary: o.summary }),
          ...(o.structuredData !== undefined && { structuredData: o.structuredData }),
        },
      };
      const bad = vapiViolations('ServerMessageEndOfCallReport', report);
      if (bad.length > 0) throw new Error(`vapi fake: its end-of-call-report does not conform to Vapi's schema: ${bad.join('; ')}`);
      return report;
    },
    sign(message, secret, o = {}) {
      const raw = JSON.stringify({ message });
      const timestamp = o.timestamp ?? String(Date.now());
      const signature = createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex');
      return { raw, headers: { 'content-type': 'application/json', 'x-signature': signature, 'x-timestamp': timestamp } };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
