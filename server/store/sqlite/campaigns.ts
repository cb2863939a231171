import type { CampaignsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { CampaignRecord } from '../records.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { newId, nowIso } from '../../ids.js';


interface Row {
  doc: string;
}

export function campaignsRepo(db: Db): Sync<CampaignsRepository> {
  const get = db.prepare<[string, string], Row>('SELECT doc FROM campaigns WHERE agency_id = ? AND id = ?');
  const byProject = db.prepare<[string, string], Row>(
    'SELECT doc FROM campaigns WHERE agency_id = ? AND project_id = ? ORDER BY created_at, id',
  );
  const byAgent = db.prepare<[string, string], Row>('SELECT doc FROM campaigns WHERE agency_id = ? AND agent_id = ? ORDER BY created_at, id');
  const insert = db.prepare(
    `INSERT INTO campaigns (id, agency_id, project_id, agent_id, active, doc, created_at, updated_at)
     VALUES (@id, @agencyId, @projectId, @agentId, @active, @doc, @createdAt, @updatedAt)`,
  );
  const update = db.prepare(
    `UPDATE campaigns SET agent_id = @agentId, active = @active, doc = @doc, updated_at = @updatedAt
     WHERE agency_id = @agencyId AND id = @id`,
  );
  const params = (c: CampaignRecord) => ({
    id: c.id,
    agencyId: c.agencyId,
    projectId: c.projectId,
    agentId: c.agentId,
    active: c.active ? 1 : 0,
    doc: JSON.stringify(c),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  });
  const read = (r: Row | undefined) => (r ? parseJson<CampaignRecord>(r.doc, 'campaigns.doc') : undefined);
  return {
    get: (agencyId: string, id: string) => read(get.get(agencyId, id)),
    listByProject: (agencyId: string, projectId: string) => byProject.all(agencyId, projectId).map((r) => read(r)!),
    listByAgent: (agencyId: string, agentId: string) => byAgent.all(agencyId, agentId).map((r) => read(r)!),
    insert(input: Omit<CampaignRecord, 'id' | 'createdAt' | 'updatedAt'>): CampaignRecord {
      const at = nowIso();
      const c: CampaignRecord = { ...input, id: newId('cmp'), createdAt: at, updatedAt: at };
      insert.run(params(c));
      return c;
    },
    save(c: CampaignRecord): CampaignRecord {
      const next = { ...c, updatedAt: nowIso() };
      update.run(params(next));
      return next;
    },
  };
}
