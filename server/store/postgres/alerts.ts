import type { AlertsRepository } from '../index.js';
import { newId, nowIso } from '../../ids.js';
import type { Sql } from './sql.js';
import { alertFromRow as fromRow, type AlertRow as Row } from '../rows.js';

export function alertsRepo(sql: Sql): AlertsRepository {
  return {
    async record(agencyId, kind, payload) {
      const id = newId('alr');
      await sql.run('INSERT INTO alerts (agency_id, id, kind, payload, created_at) VALUES ($1, $2, $3, $4, $5)', [agencyId, id, kind, JSON.stringify(payload), nowIso()]);
      return id;
    },
    async get(agencyId, id) {
      const r = await sql.one<Row>('SELECT * FROM alerts WHERE agency_id = $1 AND id = $2', [agencyId, id]);
      return r ? fromRow(r) : undefined;
    },
    waiting: async (limit = 100) => (await sql.rows<Row>('SELECT * FROM alerts WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1', [limit])).map(fromRow),
    list: async (agencyId, limit = 50) => (await sql.rows<Row>('SELECT * FROM alerts WHERE agency_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [agencyId, limit])).map(fromRow),
    async markDispatched(agencyId, id) {
      await sql.run('UPDATE alerts SET dispatched_at = $1 WHERE agency_id = $2 AND id = $3 AND dispatched_at IS NULL', [nowIso(), agencyId, id]);
    },
    async markDelivered(agencyId, id) {
      await sql.run('UPDATE alerts SET delivered_at = coalesce(delivered_at, $1), attempts = attempts + 1, last_error = NULL WHERE agency_id = $2 AND id = $3', [nowIso(), agencyId, id]);
    },
    async noteFailedAttempt(agencyId, id, error) {
      await sql.run('UPDATE alerts SET attempts = attempts + 1, last_error = $1 WHERE agency_id = $2 AND id = $3', [error.slice(0, 500), agencyId, id]);
    },
    async markEmailed(agencyId, id) {
      await sql.run('UPDATE alerts SET emailed_at = coalesce(emailed_at, $1) WHERE agency_id = $2 AND id = $3', [nowIso(), agencyId, id]);
    },
  };
}
