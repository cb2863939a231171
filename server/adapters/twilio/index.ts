import { PermanentPortError, type EffectJournal, type Messaging } from '../../../engine/ports.js';
import { journaled } from '../effect-journal.js';
import { accountPath, twilioHttp } from './http.js';
import { isSameSend, toTwilioMessage, toTwilioMessages } from './messages.js';

export { TWILIO_BASE_URL } from './http.js';

export interface TwilioMessagingOptions {
  baseUrl?: string;
  accountSid: string;
  authToken: string;
  journal: EffectJournal;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** sends from this Messaging Service when a step gives no sender number */
  messagingServiceSid?: string;
}

/** The vendor's clock and ours differ; a message is looked for from a little before our attempt began. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * SMS through Twilio's Messages resource (2010-04-01), Basic auth with the account SID and auth
 * token. Each send is journaled; after an unknown outcome the account's messages to that number
 * (and from that sender) are listed and the same text sent since the first attempt is taken as
 * the earlier send.
 */
export function twilioMessaging(opts: TwilioMessagingOptions): Messaging & { verify(): Promise<void> } {
  const http = twilioHttp(opts);
  const messagesPath = `${accountPath(opts.accountSid)}/Messages.json`;

  return {
    async sendSms(e, msg) {
      if (!msg.from && !opts.messagingServiceSid) throw new PermanentPortError('twilio needs a sender: the campaign has no caller ID and no messaging service is configured');
      return journaled(opts.journal, { agencyId: e.agencyId, key: e.idempotencyKey, kind: 'sms' }, {
        /** POST …/Messages.json, form-encoded `To`, `From` (or `MessagingServiceSid`), `Body` */
        perform: async () => {
          const raw = await http.request({
            method: 'POST',
            path: messagesPath,
            form: { To: msg.to, Body: msg.body, ...(msg.from ? { From: msg.from } : { MessagingServiceSid: opts.messagingServiceSid }) },
          });
          const m = toTwilioMessage(raw);
          if (!m) throw new Error('twilio POST Messages.json answered without a message sid');
          return { messageId: m.sid, status: m.status, body: msg.body };
        },
        /**
         * GET …/Messages.json?To&From, newest first. Not filtered by `DateSent`: a message still
         * queued has no date_sent yet and would be missed; creation time is compared here instead.
         */
        findExisting: async ({ startedAt }) => {
          const raw = await http.request({ method: 'GET', path: messagesPath, query: { To: msg.to, From: msg.from ?? undefined, PageSize: 50 } });
          const since = Date.parse(startedAt) - CLOCK_SKEW_MS;
          const m = toTwilioMessages(raw).find((x) => isSameSend(x, msg, since));
          return m ? { messageId: m.sid, status: m.status, body: msg.body } : null;
        },
      });
    },
    async sendEmail() {
      throw new PermanentPortError('twilio carries SMS only: send-email needs the CRM messaging adapter');
    },
    /** Checks the credentials: one page of one message of the account (a 401 rejects them). */
    async verify() {
      await http.request({ method: 'GET', path: messagesPath, query: { PageSize: 1 } });
    },
  };
}
