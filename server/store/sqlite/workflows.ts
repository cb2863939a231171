import { StoreConflict, type WorkflowsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { StoredWorkflow, VersionSummary } from '../records.js';
import { CURRENT_SCHEMA_VERSION, emptyGraph, migrateStoredGraph, type Graph } from '../../../engine/graph/index.js';
import type { Db } from './db.js';
import { parseJson } from './db.js';
import { nowIso } from '../../ids.js';



interface Row {
  version: number;
  schema_version: number;
  graph: string;
  updated_at: string;
}

export function workflowsRepo(db: Db): Sync<WorkflowsRepository> {
  const get = db.prepare<[string, string], Row>(
    'SELECT version, schema_version, graph, updated_at FROM workflows WHERE agency_id = ? AND campaign_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO workflows (campaign_id, agency_id, version, schema_version, graph, updated_at)
     VALUES (@campaignId, @agencyId, @version, @schemaVersion, @graph, @updatedAt)
     ON CONFLICT (campaign_id) DO UPDATE SET version = excluded.version, schema_version = excluded.schema_version,
       graph = excluded.graph, updated_at = excluded.updated_at`,
  );
  const insertVersion = db.prepare(
    `INSERT INTO workflow_versions (campaign_id, version, agency_id, schema_version, graph, key_id, summary, created_at)
     VALUES (@campaignId, @version, @agencyId, @schemaVersion, @graph, @keyId, @summary, @updatedAt)`,
  );
  const listVersions = db.prepare<[string, string], { version: number; created_at: string; key_id: string | null; summary: string }>(
    'SELECT version, created_at, key_id, summary FROM workflow_versions WHERE agency_id = ? AND campaign_id = ? ORDER BY version DESC',
  );
  const getVersion = db.prepare<[string, string, number], { version: number; schema_version: number; graph: string; created_at: string }>(
    'SELECT version, schema_version, graph, created_at FROM workflow_versions WHERE agency_id = ? AND campaign_id = ? AND version = ?',
  );

  const decode = (schemaVersion: number, text: string): Graph =>
    migrateStoredGraph({ ...parseJson<Record<string, unknown>>(text, 'workflows.graph'), schemaVersion }) as Graph;

  function read(agencyId: string, campaignId: string): StoredWorkflow {
    const r = get.get(agencyId, campaignId);
    if (!r) return { campaignId, version: 0, graph: emptyGraph(), updatedAt: new Date(0).toISOString() };
    return { campaignId, version: r.version, graph: decode(r.schema_version, r.graph), updatedAt: r.updated_at };
  }

  return {
    /** A campaign with no stored graph reads as an empty graph at version 0. */
    get: read,
    /**
     * The one way a graph changes: in one IMMEDIATE transaction, read the current version, check
     * `expectedVersion`, apply the pure operation, store the result and its history row. SQLite
     * serialises writers, so racing writes each see the one before them and none is lost.
     */
    write(input: {
      agencyId: string;
      campaignId: string;
      expectedVersion?: number | undefined;
      keyId: string | null;
      apply: (current: Graph) => { graph: Graph; summary: string };
    }): StoredWorkflow {
      return db.transaction(() => {
        const current = read(input.agencyId, input.campaignId);
        if (input.expectedVersion !== undefined && input.expectedVersion !== current.version) {
          throw new StoreConflict('StaleVersion', `expectedVersion ${input.expectedVersion} is stale: the workflow is at version ${current.version}; re-read it and retry`);
        }
        const { graph, summary } = input.apply(current.graph);
        const next: StoredWorkflow = { campaignId: input.campaignId, version: current.version + 1, graph, updatedAt: nowIso() };
        const row = {
          campaignId: input.campaignId,
          agencyId: input.agencyId,
          version: next.version,
          schemaVersion: CURRENT_SCHEMA_VERSION,
          graph: JSON.stringify(graph),
          updatedAt: next.updatedAt,
          keyId: input.keyId,
          summary,
        };
        upsert.run(row);
        insertVersion.run(row);
        return next;
      }).immediate();
    },
    versions(agencyId: string, campaignId: string): VersionSummary[] {
      return listVersions.all(agencyId, campaignId).map((r) => ({ version: r.version, createdAt: r.created_at, keyId: r.key_id, summary: r.summary }));
    },
    version(agencyId: string, campaignId: string, version: number): StoredWorkflow | undefined {
      const r = getVersion.get(agencyId, campaignId, version);
      return r ? { campaignId, version: r.version, graph: decode(r.schema_version, r.graph), updatedAt: r.created_at } : undefined;
    },
  };
}
