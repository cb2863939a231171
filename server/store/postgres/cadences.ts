import type { CadencesRepository } from '../index.js';
import type { CadenceRecord } from '../records.js';
import { newId, nowIso } from '../../ids.js';
import type { Sql } from './sql.js';
import { cadenceFromRow as fromRow, type CadenceRow as Row } from '../rows.js';

export function cadencesRepo(sql: Sql): CadencesRepository {
  return {
    async get(agencyId, id, opts) {
      const r = await sql.one<Row>(`SELECT * FROM cadences WHERE agency_id = $1 AND id = $2${opts?.forUpdate ? ' FOR UPDATE' : ''}`, [agencyId, id]);
      return r ? fromRow(r) : undefined;
    },
    list: async (agencyId) => (await sql.rows<Row>('SELECT * FROM cadences WHERE agency_id = $1 ORDER BY created_at, id', [agencyId])).map(fromRow),
    async insert(input) {
      const at = nowIso();
      const c: CadenceRecord = { ...input, id: newId('cad'), createdAt: at, updatedAt: at };
      await sql.run('INSERT INTO cadences (id, agency_id, name, steps, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)', [
        c.id, c.agencyId, c.name, JSON.stringify(c.steps), c.createdAt, c.updatedAt,
      ]);
      return c;
    },
    async save(c) {
      const next = { ...c, updatedAt: nowIso() };
      await sql.run('UPDATE cadences SET name = $3, steps = $4, updated_at = $5 WHERE agency_id = $1 AND id = $2', [next.agencyId, next.id, next.name, JSON.stringify(next.steps), next.updatedAt]);
      return next;
    },
  };
}
