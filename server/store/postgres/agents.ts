import type { AgentsRepository, ReadOptions } from '../index.js';
import type { AgentRecord } from '../records.js';
import { newId, nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

const lock = (opts?: ReadOptions) => (opts?.forUpdate ? ' FOR UPDATE' : '');
const GET = 'SELECT doc FROM agents WHERE agency_id = $1 AND id = $2';

export function agentsRepo(sql: Sql): AgentsRepository {
  const params = (a: AgentRecord) => [a.id, a.agencyId, a.projectId, a.agentType, a.campaignId, JSON.stringify(a), a.createdAt, a.updatedAt];
  const read = (r: { doc: string } | undefined) => (r ? parseJson<AgentRecord>(r.doc, 'agents.doc') : undefined);
  return {
    get: async (agencyId, id, opts) => read(await sql.one<{ doc: string }>(GET + lock(opts), [agencyId, id])),
    list: async (agencyId) => (await sql.rows<{ doc: string }>('SELECT doc FROM agents WHERE agency_id = $1 ORDER BY created_at, id', [agencyId])).map((r) => read(r)!),
    async insert(input) {
      const at = nowIso();
      const a: AgentRecord = { ...input, id: newId('agt'), createdAt: at, updatedAt: at };
      await sql.run(
        `INSERT INTO agents (id, agency_id, project_id, agent_type, primary_campaign_id, doc, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        params(a),
      );
      return a;
    },
    async save(a) {
      const next = { ...a, updatedAt: nowIso() };
      await sql.run('UPDATE agents SET agent_type = $3, primary_campaign_id = $4, doc = $5, updated_at = $6 WHERE agency_id = $1 AND id = $2', [
        next.agencyId, next.id, next.agentType, next.campaignId, JSON.stringify(next), next.updatedAt,
      ]);
      return next;
    },
  };
}
