import { StoreConflict, type WorkflowsRepository } from '../index.js';
import type { StoredWorkflow } from '../records.js';
import { CURRENT_SCHEMA_VERSION, emptyGraph, migrateStoredGraph, type Graph } from '../../../engine/graph/index.js';
import { nowIso } from '../../ids.js';
import { parseJson, type Sql } from './sql.js';

interface Row {
  version: number;
  schema_version: number;
  graph: string;
  updated_at: string;
}

const decode = (schemaVersion: number, text: string): Graph => migrateStoredGraph({ ...parseJson<Record<string, unknown>>(text, 'workflows.graph'), schemaVersion }) as Graph;

/**
 * Stores the graph at `version` only if the stored one is still at `version - 1` (or absent, for
 * version 1), in one statement: of two writers that read the same version, the second waits for
 * the first to commit, then finds the version moved and stores nothing.
 */
const STORE = `INSERT INTO workflows (campaign_id, agency_id, version, schema_version, graph, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (campaign_id) DO UPDATE SET version = excluded.version, schema_version = excluded.schema_version, graph = excluded.graph, updated_at = excluded.updated_at
  WHERE workflows.version = $3 - 1 AND workflows.agency_id = $2`;

export function workflowsRepo(sql: Sql): WorkflowsRepository {
  async function read(on: Sql, agencyId: string, campaignId: string): Promise<StoredWorkflow> {
    const r = await on.one<Row>('SELECT version, schema_version, graph, updated_at FROM workflows WHERE agency_id = $1 AND campaign_id = $2', [agencyId, campaignId]);
    if (!r) return { campaignId, version: 0, graph: emptyGraph(), updatedAt: new Date(0).toISOString() };
    return { campaignId, version: r.version, graph: decode(r.schema_version, r.graph), updatedAt: r.updated_at };
  }
  const stale = (expected: number, current: number) =>
    new StoreConflict('StaleVersion', `expectedVersion ${expected} is stale: the workflow is at version ${current}; re-read it and retry`);

  return {
    get: (agencyId, campaignId) => read(sql, agencyId, campaignId),
    /**
     * Read, check `expectedVersion`, apply, store: the store is conditional on the version read
     * (see STORE), so a writer that lost a race learns it here, never from a key clash. With
     * `expectedVersion` that is a StoreConflict; without, the operation is applied again to the
     * graph the winner stored, so racing writers each see the one before them and none is lost.
     */
    write: (input) =>
      sql.atomic(async (tx) => {
        for (let lost: number | undefined; ; ) {
          const current = await read(tx, input.agencyId, input.campaignId);
          // A store refused with no newer version to read: the row is not this agency's.
          if (lost === current.version) throw new Error(`campaign ${input.campaignId}'s workflow is not agency ${input.agencyId}'s`);
          if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) throw stale(input.expectedVersion, current.version);
          const { graph, summary } = input.apply(current.graph);
          const next: StoredWorkflow = { campaignId: input.campaignId, version: current.version + 1, graph, updatedAt: nowIso() };
          const text = JSON.stringify(graph);
          if ((await tx.run(STORE, [input.campaignId, input.agencyId, next.version, CURRENT_SCHEMA_VERSION, text, next.updatedAt])) === 1) {
            await tx.run(
              `INSERT INTO workflow_versions (campaign_id, version, agency_id, schema_version, graph, key_id, summary, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
              [input.campaignId, next.version, input.agencyId, CURRENT_SCHEMA_VERSION, text, input.keyId, summary, next.updatedAt],
            );
            return next;
          }
          lost = current.version;
        }
      }),
    versions: async (agencyId, campaignId) =>
      (await sql.rows<{ version: number; created_at: string; key_id: string | null; summary: string }>(
        'SELECT version, created_at, key_id, summary FROM workflow_versions WHERE agency_id = $1 AND campaign_id = $2 ORDER BY version DESC',
        [agencyId, campaignId],
      )).map((r) => ({ version: r.version, createdAt: r.created_at, keyId: r.key_id, summary: r.summary })),
    async version(agencyId, campaignId, version) {
      const r = await sql.one<{ version: number; schema_version: number; graph: string; created_at: string }>(
        'SELECT version, schema_version, graph, created_at FROM workflow_versions WHERE agency_id = $1 AND campaign_id = $2 AND version = $3',
        [agencyId, campaignId, version],
      );
      return r ? { campaignId, version: r.version, graph: decode(r.schema_version, r.graph), updatedAt: r.created_at } : undefined;
    },
  };
}
