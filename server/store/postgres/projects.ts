import type { ProjectsRepository, ReadOptions } from '../index.js';
import type { ProjectRecord } from '../records.js';
import { newId, nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

const lock = (opts?: ReadOptions) => (opts?.forUpdate ? ' FOR UPDATE' : '');
const BY_ID = 'SELECT doc FROM projects WHERE agency_id = $1 AND id = $2 AND deleted_at IS NULL';
const BY_LOCATION = 'SELECT doc FROM projects WHERE agency_id = $1 AND location_id = $2 AND deleted_at IS NULL';

export function projectsRepo(sql: Sql): ProjectsRepository {
  const read = (r: { doc: string } | undefined) => (r ? parseJson<ProjectRecord>(r.doc, 'projects.doc') : undefined);
  const get = async (agencyId: string, id: string, opts?: ReadOptions) => read(await sql.one<{ doc: string }>(BY_ID + lock(opts), [agencyId, id]));
  const atLocation = async (agencyId: string, locationId: string, opts?: ReadOptions) => read(await sql.one<{ doc: string }>(BY_LOCATION + lock(opts), [agencyId, locationId]));
  return {
    get,
    find: async (agencyId, idOrLocation, opts) => (await get(agencyId, idOrLocation, opts)) ?? (await atLocation(agencyId, idOrLocation, opts)),
    atLocation,
    list: async (agencyId) => (await sql.rows<{ doc: string }>('SELECT doc FROM projects WHERE agency_id = $1 AND deleted_at IS NULL ORDER BY created_at, id', [agencyId])).map((r) => read(r)!),
    countLive: async (agencyId) => (await sql.one<{ n: number }>("SELECT count(*)::int AS n FROM projects WHERE agency_id = $1 AND deleted_at IS NULL AND status = 'live'", [agencyId]))!.n,
    async insert(input) {
      const at = nowIso();
      const p: ProjectRecord = { ...input, id: newId('prj'), createdAt: at, updatedAt: at };
      await sql.run(
        'INSERT INTO projects (id, agency_id, location_id, status, active, deleted_at, timezone, doc, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)',
        [p.id, p.agencyId, p.locationId, p.status, p.active, p.deletedAt ?? null, p.timezone ?? null, JSON.stringify(p), p.createdAt, p.updatedAt],
      );
      return p;
    },
    async save(p) {
      const next = { ...p, updatedAt: nowIso() };
      await sql.run('UPDATE projects SET status = $3, active = $4, deleted_at = $5, timezone = $6, doc = $7, updated_at = $8 WHERE agency_id = $1 AND id = $2', [
        next.agencyId, next.id, next.status, next.active, next.deletedAt ?? null, next.timezone ?? null, JSON.stringify(next), next.updatedAt,
      ]);
      return next;
    },
  };
}
