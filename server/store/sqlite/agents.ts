import type { AgentsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { AgentRecord, PostCallFieldRecord } from '../records.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { newId, nowIso } from '../../ids.js';



interface Row {
  doc: string;
}

export function agentsRepo(db: Db): Sync<AgentsRepository> {
  const get = db.prepare<[string, string], Row>('SELECT doc FROM agents WHERE agency_id = ? AND id = ?');
  const list = db.prepare<[string], Row>('SELECT doc FROM agents WHERE agency_id = ? ORDER BY created_at, id');
  const insert = db.prepare(
    `INSERT INTO agents (id, agency_id, project_id, agent_type, primary_campaign_id, doc, created_at, updated_at)
     VALUES (@id, @agencyId, @projectId, @agentType, @campaignId, @doc, @createdAt, @updatedAt)`,
  );
  const update = db.prepare(
    `UPDATE agents SET agent_type = @agentType, primary_campaign_id = @campaignId, doc = @doc, updated_at = @updatedAt
     WHERE agency_id = @agencyId AND id = @id`,
  );
  const params = (a: AgentRecord) => ({
    id: a.id,
    agencyId: a.agencyId,
    projectId: a.projectId,
    agentType: a.agentType,
    campaignId: a.campaignId,
    doc: JSON.stringify(a),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  });
  const read = (r: Row | undefined) => (r ? parseJson<AgentRecord>(r.doc, 'agents.doc') : undefined);
  return {
    get: (agencyId: string, id: string) => read(get.get(agencyId, id)),
    list: (agencyId: string) => list.all(agencyId).map((r) => read(r)!),
    insert(input: Omit<AgentRecord, 'id' | 'createdAt' | 'updatedAt'>): AgentRecord {
      const at = nowIso();
      const a: AgentRecord = { ...input, id: newId('agt'), createdAt: at, updatedAt: at };
      insert.run(params(a));
      return a;
    },
    save(a: AgentRecord): AgentRecord {
      const next = { ...a, updatedAt: nowIso() };
      update.run(params(next));
      return next;
    },
  };
}
