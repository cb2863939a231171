import type { CampaignsRepository } from '../index.js';
import type { CampaignRecord } from '../records.js';
import { newId, nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

export function campaignsRepo(sql: Sql): CampaignsRepository {
  const read = (r: { doc: string } | undefined) => (r ? parseJson<CampaignRecord>(r.doc, 'campaigns.doc') : undefined);
  const list = async (text: string, values: unknown[]) => (await sql.rows<{ doc: string }>(text, values)).map((r) => read(r)!);
  return {
    get: async (agencyId, id, opts) => read(await sql.one<{ doc: string }>(`SELECT doc FROM campaigns WHERE agency_id = $1 AND id = $2${opts?.forUpdate ? ' FOR UPDATE' : ''}`, [agencyId, id])),
    listByProject: (agencyId, projectId) => list('SELECT doc FROM campaigns WHERE agency_id = $1 AND project_id = $2 ORDER BY created_at, id', [agencyId, projectId]),
    listByAgent: (agencyId, agentId) => list('SELECT doc FROM campaigns WHERE agency_id = $1 AND agent_id = $2 ORDER BY created_at, id', [agencyId, agentId]),
    async insert(input) {
      const at = nowIso();
      const c: CampaignRecord = { ...input, id: newId('cmp'), createdAt: at, updatedAt: at };
      await sql.run('INSERT INTO campaigns (id, agency_id, project_id, agent_id, active, doc, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
        c.id, c.agencyId, c.projectId, c.agentId, c.active, JSON.stringify(c), c.createdAt, c.updatedAt,
      ]);
      return c;
    },
    async save(c) {
      const next = { ...c, updatedAt: nowIso() };
      await sql.run('UPDATE campaigns SET agent_id = $3, active = $4, doc = $5, updated_at = $6 WHERE agency_id = $1 AND id = $2', [
        next.agencyId, next.id, next.agentId, next.active, JSON.stringify(next), next.updatedAt,
      ]);
      return next;
    },
  };
}
