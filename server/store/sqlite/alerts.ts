import type { AlertsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Alert, AlertKind } from '../records.js';
import type { Db } from './db.js';
import { newId, nowIso } from '../../ids.js';
import { alertFromRow as fromRow, type AlertRow as Row } from '../rows.js';

/**
 * Alerts the agency must receive. A row is written with what caused it (same transaction), picked
 * up by the dispatcher (server/alerts/dispatcher.ts), which starts its delivery workflow once.
 */
export function alertsRepo(db: Db): Sync<AlertsRepository> {
  const insert = db.prepare('INSERT INTO alerts (agency_id, id, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)');
  const get = db.prepare<[string, string], Row>('SELECT * FROM alerts WHERE agency_id = ? AND id = ?');
  const waiting = db.prepare<[number], Row>('SELECT * FROM alerts WHERE dispatched_at IS NULL ORDER BY created_at LIMIT ?');
  const list = db.prepare<[string, number], Row>('SELECT * FROM alerts WHERE agency_id = ? ORDER BY created_at DESC, id DESC LIMIT ?');
  const dispatched = db.prepare('UPDATE alerts SET dispatched_at = ? WHERE agency_id = ? AND id = ? AND dispatched_at IS NULL');
  const delivered = db.prepare('UPDATE alerts SET delivered_at = coalesce(delivered_at, ?), attempts = attempts + 1, last_error = NULL WHERE agency_id = ? AND id = ?');
  const failedAttempt = db.prepare('UPDATE alerts SET attempts = attempts + 1, last_error = ? WHERE agency_id = ? AND id = ?');
  const emailed = db.prepare('UPDATE alerts SET emailed_at = coalesce(emailed_at, ?) WHERE agency_id = ? AND id = ?');
  return {
    record(agencyId: string, kind: AlertKind, payload: Record<string, unknown>): string {
      const id = newId('alr');
      insert.run(agencyId, id, kind, JSON.stringify(payload), nowIso());
      return id;
    },
    get(agencyId: string, id: string): Alert | undefined {
      const r = get.get(agencyId, id);
      return r ? fromRow(r) : undefined;
    },
    /** alerts whose delivery workflow was not started yet, oldest first */
    waiting: (limit = 100) => waiting.all(limit).map(fromRow),
    list: (agencyId: string, limit = 50) => list.all(agencyId, limit).map(fromRow),
    markDispatched: (agencyId: string, id: string) => void dispatched.run(nowIso(), agencyId, id),
    markDelivered: (agencyId: string, id: string) => void delivered.run(nowIso(), agencyId, id),
    noteFailedAttempt: (agencyId: string, id: string, error: string) => void failedAttempt.run(error.slice(0, 500), agencyId, id),
    markEmailed: (agencyId: string, id: string) => void emailed.run(nowIso(), agencyId, id),
  };
}
