import type { OutboxRepository } from '../index.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';

/** The sandbox carrier's sent messages; the unique idempotency key is a second guard behind the effects. */
export function outboxRepo(sql: Sql): OutboxRepository {
  return {
    async add(m) {
      await sql.run(
        `INSERT INTO outbox (id, agency_id, channel, idempotency_key, contact_id, recipient, sender, subject, body, status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'delivered', $10)`,
        [m.id, m.agencyId, m.channel, m.key, m.contactId, m.recipient, m.sender, m.subject, m.body, nowIso()],
      );
    },
  };
}
