import type { Messaging } from '../../engine/ports.js';
import type { Db } from '../store/db.js';
import type { EffectsRepo } from '../store/effects.js';
import { newId, nowIso } from '../store/ids.js';

/**
 * The sandbox carrier: messages go into the outbox table and are "delivered" at once. The unique
 * idempotency key on the outbox row is a second guard behind the effects table.
 */
export function sandboxMessaging(db: Db, effects: EffectsRepo, latencyMs = 0): Messaging {
  // A real carrier answers in hundreds of milliseconds; the delay comes before the effect, like a request in flight.
  const wait = () => (latencyMs > 0 ? new Promise((r) => setTimeout(r, latencyMs)) : Promise.resolve());
  const insert = db.prepare(
    `INSERT INTO outbox (id, agency_id, channel, idempotency_key, contact_id, recipient, sender, subject, body, status, created_at)
     VALUES (@id, @agencyId, @channel, @key, @contactId, @recipient, @sender, @subject, @body, 'delivered', @createdAt)`,
  );
  return {
    async sendSms(e, msg) {
      await wait();
      return effects.once(e.idempotencyKey, e.agencyId, 'sms', () => {
        const id = newId('sms');
        insert.run({ id, agencyId: e.agencyId, channel: 'sms', key: e.idempotencyKey, contactId: msg.contactId, recipient: msg.to, sender: msg.from, subject: null, body: msg.body, createdAt: nowIso() });
        return { messageId: id, status: 'delivered', body: msg.body };
      });
    },
    async sendEmail(e, msg) {
      await wait();
      return effects.once(e.idempotencyKey, e.agencyId, 'email', () => {
        const id = newId('eml');
        insert.run({ id, agencyId: e.agencyId, channel: 'email', key: e.idempotencyKey, contactId: msg.contactId, recipient: msg.to, sender: null, subject: msg.subject, body: msg.body, createdAt: nowIso() });
        return { messageId: id, status: 'delivered' };
      });
    },
  };
}
