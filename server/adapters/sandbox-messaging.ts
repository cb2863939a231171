import type { Messaging } from '../../engine/ports.js';
import type { Store } from '../store/index.js';
import { newId } from '../ids.js';
import { effectOnce } from './effect-once.js';

/**
 * The sandbox carrier: messages go into the outbox and are "delivered" at once. The unique
 * idempotency key on the outbox row is a second guard behind the effects.
 */
export function sandboxMessaging(store: Store, latencyMs = 0): Messaging {
  // A real carrier answers in hundreds of milliseconds; the delay comes before the effect, like a request in flight.
  const wait = () => (latencyMs > 0 ? new Promise((r) => setTimeout(r, latencyMs)) : Promise.resolve());
  return {
    async sendSms(e, msg) {
      await wait();
      return effectOnce(store, e, 'sms', async (tx) => {
        const id = newId('sms');
        await tx.outbox.add({ id, agencyId: e.agencyId, channel: 'sms', key: e.idempotencyKey, contactId: msg.contactId, recipient: msg.to, sender: msg.from, subject: null, body: msg.body });
        return { messageId: id, status: 'delivered', body: msg.body };
      });
    },
    async sendEmail(e, msg) {
      await wait();
      return effectOnce(store, e, 'email', async (tx) => {
        const id = newId('eml');
        await tx.outbox.add({ id, agencyId: e.agencyId, channel: 'email', key: e.idempotencyKey, contactId: msg.contactId, recipient: msg.to, sender: null, subject: msg.subject, body: msg.body });
        return { messageId: id, status: 'delivered' };
      });
    },
  };
}
