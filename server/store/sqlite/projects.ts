import type { ProjectsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { ProjectRecord } from '../records.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { newId, nowIso } from '../../ids.js';


interface Row {
  doc: string;
}

export function projectsRepo(db: Db): Sync<ProjectsRepository> {
  const get = db.prepare<[string, string], Row>('SELECT doc FROM projects WHERE agency_id = ? AND id = ? AND deleted_at IS NULL');
  const byLocation = db.prepare<[string, string], Row>(
    'SELECT doc FROM projects WHERE agency_id = ? AND location_id = ? AND deleted_at IS NULL',
  );
  const list = db.prepare<[string], Row>('SELECT doc FROM projects WHERE agency_id = ? AND deleted_at IS NULL ORDER BY created_at, id');
  const countLive = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM projects WHERE agency_id = ? AND deleted_at IS NULL AND status = 'live'",
  );
  const insert = db.prepare(
    `INSERT INTO projects (id, agency_id, location_id, status, active, deleted_at, doc, created_at, updated_at)
     VALUES (@id, @agencyId, @locationId, @status, @active, @deletedAt, @doc, @createdAt, @updatedAt)`,
  );
  const update = db.prepare(
    `UPDATE projects SET status = @status, active = @active, deleted_at = @deletedAt, doc = @doc, updated_at = @updatedAt
     WHERE agency_id = @agencyId AND id = @id`,
  );
  const params = (p: ProjectRecord) => ({
    id: p.id,
    agencyId: p.agencyId,
    locationId: p.locationId,
    status: p.status,
    active: p.active ? 1 : 0,
    deletedAt: p.deletedAt ?? null,
    doc: JSON.stringify(p),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  });
  const read = (r: Row | undefined) => (r ? parseJson<ProjectRecord>(r.doc, 'projects.doc') : undefined);

  return {
    get: (agencyId: string, id: string) => read(get.get(agencyId, id)),
    /** by id or by CRM location id: both name a project in the spec's paths */
    find(agencyId: string, idOrLocation: string): ProjectRecord | undefined {
      return read(get.get(agencyId, idOrLocation)) ?? read(byLocation.get(agencyId, idOrLocation));
    },
    /** by CRM location id only: where the caller holds a location (a run's, a CRM call's) */
    atLocation: (agencyId: string, locationId: string) => read(byLocation.get(agencyId, locationId)),
    list: (agencyId: string) => list.all(agencyId).map((r) => read(r)!),
    countLive: (agencyId: string) => countLive.get(agencyId)!.n,
    insert(input: Omit<ProjectRecord, 'id' | 'createdAt' | 'updatedAt'>): ProjectRecord {
      const at = nowIso();
      const p: ProjectRecord = { ...input, id: newId('prj'), createdAt: at, updatedAt: at };
      insert.run(params(p));
      return p;
    },
    save(p: ProjectRecord): ProjectRecord {
      const next = { ...p, updatedAt: nowIso() };
      update.run(params(next));
      return next;
    },
  };
}
