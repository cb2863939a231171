import type { EffectContext, EffectJournal } from '../../../engine/ports.js';
import { journaled, type PendingAttempt } from '../effect-journal.js';
import { seg, type GhlClient } from './client.js';
import { CLOCK_SKEW_MS } from './contacts.js';
import { arr, emailHtml, obj, plainText, str, type Json } from './mapping.js';

/**
 * Messages go out through the location's own channels (its LeadConnector phone number, its email
 * domain) with POST /conversations/messages (Version 2021-04-15). Each send is journaled; after an
 * unknown outcome the contact's conversations are searched for the same outbound message.
 */
export function conversationOps(client: GhlClient, journal: EffectJournal) {
  /**
   * GET /conversations/search?locationId&contactId, then GET /conversations/{id}/messages?type=…
   * of each: an outbound message of that type since the attempt began whose text matches.
   */
  async function findSent(locationId: string, contactId: string, type: 'TYPE_SMS' | 'TYPE_EMAIL', matches: (m: Json) => boolean, pending: PendingAttempt): Promise<Json | undefined> {
    const since = Date.parse(pending.startedAt) - CLOCK_SKEW_MS;
    const found = obj(await client.call('conversations', { method: 'GET', path: '/conversations/search', query: { locationId, contactId, limit: 20 } }));
    for (const conv of arr(found.conversations).map(obj)) {
      const id = str(conv.id);
      if (!id) continue;
      const page = obj(obj(await client.call('conversations', { method: 'GET', path: `/conversations/${seg(id)}/messages`, query: { type, limit: 100 } })).messages);
      const hit = arr(page.messages)
        .map(obj)
        .find((m) => m.direction === 'outbound' && str(m.id) && Date.parse(str(m.dateAdded) ?? '') >= since && matches(m));
      if (hit) return hit;
    }
    return undefined;
  }

  async function send(payload: Json): Promise<string> {
    const raw = obj(await client.call('conversations', { method: 'POST', path: '/conversations/messages', json: payload }));
    const id = str(raw.messageId) ?? str(raw.emailMessageId);
    if (!id) throw new Error('gohighlevel POST /conversations/messages answered without a message id');
    return id;
  }

  return {
    async sendSms(e: EffectContext, msg: { contactId: string; to: string; from: string | null; body: string }) {
      return journaled(journal, { agencyId: e.agencyId, key: e.idempotencyKey, kind: 'sms' }, {
        perform: async () => {
          const messageId = await send({ type: 'SMS', contactId: msg.contactId, message: msg.body, toNumber: msg.to, ...(msg.from && { fromNumber: msg.from }) });
          return { messageId, status: 'queued', body: msg.body };
        },
        findExisting: async (pending) => {
          const m = await findSent(e.locationId, msg.contactId, 'TYPE_SMS', (x) => plainText(str(x.body) ?? '') === plainText(msg.body), pending);
          return m ? { messageId: m.id as string, status: str(m.status) ?? 'sent', body: msg.body } : null;
        },
      });
    },

    async sendEmail(e: EffectContext, msg: { contactId: string; to: string; subject: string; body: string }) {
      const html = emailHtml(msg.body);
      return journaled(journal, { agencyId: e.agencyId, key: e.idempotencyKey, kind: 'email' }, {
        perform: async () => ({ messageId: await send({ type: 'Email', contactId: msg.contactId, emailTo: msg.to, subject: msg.subject, html }), status: 'queued' }),
        // The listed body of an email is its text or its HTML depending on how it was sent; both compare as text.
        findExisting: async (pending) => {
          const m = await findSent(e.locationId, msg.contactId, 'TYPE_EMAIL', (x) => plainText(str(x.body) ?? '') === plainText(html), pending);
          return m ? { messageId: m.id as string, status: str(m.status) ?? 'sent' } : null;
        },
      });
    },
  };
}
