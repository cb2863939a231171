import type { CadencesRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { CadenceRecord } from '../records.js';
import type { Db } from './db.js';
import { newId, nowIso } from '../../ids.js';
import { cadenceFromRow as fromRow, type CadenceRow as Row } from '../rows.js';

/** Saved power-dialer cadences, per agency. */
export function cadencesRepo(db: Db): Sync<CadencesRepository> {
  const get = db.prepare<[string, string], Row>('SELECT * FROM cadences WHERE agency_id = ? AND id = ?');
  const list = db.prepare<[string], Row>('SELECT * FROM cadences WHERE agency_id = ? ORDER BY created_at, id');
  const insert = db.prepare(
    `INSERT INTO cadences (id, agency_id, name, steps, created_at, updated_at)
     VALUES (@id, @agencyId, @name, @steps, @createdAt, @updatedAt)`,
  );
  const update = db.prepare('UPDATE cadences SET name = @name, steps = @steps, updated_at = @updatedAt WHERE agency_id = @agencyId AND id = @id');
  const params = (c: CadenceRecord) => ({ ...c, steps: JSON.stringify(c.steps) });
  return {
    get(agencyId: string, id: string): CadenceRecord | undefined {
      const r = get.get(agencyId, id);
      return r ? fromRow(r) : undefined;
    },
    list: (agencyId: string) => list.all(agencyId).map(fromRow),
    insert(input: Pick<CadenceRecord, 'agencyId' | 'name' | 'steps'>): CadenceRecord {
      const at = nowIso();
      const c: CadenceRecord = { ...input, id: newId('cad'), createdAt: at, updatedAt: at };
      insert.run(params(c));
      return c;
    },
    save(c: CadenceRecord): CadenceRecord {
      const next = { ...c, updatedAt: nowIso() };
      update.run(params(next));
      return next;
    },
  };
}
