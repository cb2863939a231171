import type { OutboxRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';

/** The sandbox carrier's sent messages; the unique idempotency key is a second guard behind the effects. */
export function outboxRepo(db: Db): Sync<OutboxRepository> {
  const insert = db.prepare(
    `INSERT INTO outbox (id, agency_id, channel, idempotency_key, contact_id, recipient, sender, subject, body, status, created_at)
     VALUES (@id, @agencyId, @channel, @key, @contactId, @recipient, @sender, @subject, @body, 'delivered', @createdAt)`,
  );
  return {
    add: (m) => void insert.run({ ...m, createdAt: nowIso() }),
  };
}
