import { randomBytes } from 'node:crypto';
import { startHttpFake, type FakeResponse, type HttpFake } from './http-fake.js';

/**
 * A stateful Twilio Messages resource (2010-04-01): create (form-encoded, Basic auth) and list by
 * To/From, newest first, with Twilio's error bodies and fault injection from http-fake.
 */

export interface FakeTwilioMessage {
  sid: string;
  account_sid: string;
  to: string;
  from: string | null;
  messaging_service_sid: string | null;
  body: string;
  status: string;
  direction: 'outbound-api' | 'inbound';
  /** RFC 2822, as Twilio writes it */
  date_created: string;
  date_sent: string | null;
}

export interface TwilioFake extends HttpFake {
  messages: FakeTwilioMessage[];
}

const E164 = /^\+[1-9]\d{6,14}$/;
const rfc2822 = (d: Date) => d.toUTCString().replace('GMT', '+0000');
const twilioError = (status: number, code: number, message: string): FakeResponse => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

export async function startTwilioFake(opts: { accountSid: string; authToken: string }): Promise<TwilioFake> {
  const messages: FakeTwilioMessage[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
  const http = await startHttpFake({
    errorBody: (status, message) => ({ code: status === 401 ? 20003 : status === 429 ? 20429 : 20500, message, more_info: 'https://www.twilio.com/docs/errors', status }),
    gate: (r) => (r.headers.authorization === expectedAuth ? null : twilioError(401, 20003, 'Authenticate')),
    routes: [
      {
        method: 'POST',
        path: '/2010-04-01/Accounts/:accountSid/Messages.json',
        handler: (r, p) => {
          if (p.accountSid !== opts.accountSid) return twilioError(404, 20404, 'The requested resource was not found');
          const f = (r.body ?? {}) as Record<string, string>;
          if (!f.To) return twilioError(400, 21604, "A 'To' phone number is required.");
          if (!E164.test(f.To)) return twilioError(400, 21211, `The 'To' number ${f.To} is not a valid phone number.`);
          if (!f.From && !f.MessagingServiceSid) return twilioError(400, 21603, "A 'From' phone number is required.");
          if (!f.Body) return twilioError(400, 21602, 'Message body is required.');
          const now = new Date();
          const m: FakeTwilioMessage = {
            sid: `SM${randomBytes(16).toString('hex')}`,
            account_sid: opts.accountSid,
            to: f.To,
            from: f.From ?? null,
            messaging_service_sid: f.MessagingServiceSid ?? null,
            body: f.Body,
            status: 'queued',
            direction: 'outbound-api',
            date_created: rfc2822(now),
            // still queued: Twilio has not sent it yet
            date_sent: null,
          };
          messages.push(m);
          return { status: 201, body: m };
        },
      },
      {
        method: 'GET',
        path: '/2010-04-01/Accounts/:accountSid/Messages.json',
        handler: (r, p) => {
          if (p.accountSid !== opts.accountSid) return twilioError(404, 20404, 'The requested resource was not found');
          const to = r.query.get('To');
          const from = r.query.get('From');
          const size = Number(r.query.get('PageSize') ?? 50);
          const list = messages.filter((m) => (!to || m.to === to) && (!from || m.from === from)).reverse().slice(0, size);
          return { status: 200, body: { messages: list, page: 0, page_size: size, start: 0, end: list.length - 1, next_page_uri: null, previous_page_uri: null } };
        },
      },
    ],
  });
  return Object.assign(http, { messages });
}
