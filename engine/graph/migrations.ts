import { layoutGraph, type LayoutInput } from './layout.js';
import { normalizeOutcome } from './outcomes.js';
import type { Graph, GraphEdge, NodeType } from './types.js';

/**
 * Stored graphs carry a `schemaVersion`. Reading one applies, in order, the pure steps from its
 * version up to `CURRENT_SCHEMA_VERSION`, so the stored shape can evolve without rewriting
 * history. A graph newer than this code is refused rather than guessed at.
 */
export const CURRENT_SCHEMA_VERSION = 1;

/** A stored graph of any version: JSON as it was written. */
export type StoredGraph = Record<string, unknown> & { schemaVersion?: number };

export interface MigrationStep {
  from: number;
  to: number;
  description: string;
  up(stored: StoredGraph): StoredGraph;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isPosition = (p: unknown): p is { x: number; y: number } =>
  isObject(p) && typeof p.x === 'number' && typeof p.y === 'number' && Number.isFinite(p.x) && Number.isFinite(p.y);

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    from: 0,
    to: 1,
    description:
      'graphs written before schemaVersion existed: nodes may lack a position or a config, entries may be keyed by dashboard type ("voicemail", "callBack"), edges may carry a null sourceHandle',
    up(stored) {
      const nodes: LayoutInput['nodes'] = (Array.isArray(stored.nodes) ? stored.nodes : []).filter(isObject).map((n) => ({
        id: String(n.id),
        type: String(n.type) as NodeType,
        ...(typeof n.label === 'string' && { label: n.label }),
        config: isObject(n.config) ? n.config : {},
        ...(isPosition(n.position) && { position: { x: n.position.x, y: n.position.y } }),
      }));
      const edges: GraphEdge[] = (Array.isArray(stored.edges) ? stored.edges : []).filter(isObject).map((e) => ({
        id: String(e.id),
        source: String(e.source),
        target: String(e.target),
        ...(typeof e.sourceHandle === 'string' && e.sourceHandle !== '' && { sourceHandle: e.sourceHandle }),
      }));
      const dispositionEntries: Record<string, string> = {};
      for (const [key, nodeId] of Object.entries(isObject(stored.dispositionEntries) ? stored.dispositionEntries : {})) {
        const d = normalizeOutcome(key);
        // An exact upper-case key wins over a dashboard spelling of the same outcome.
        if (d && typeof nodeId === 'string' && (dispositionEntries[d] === undefined || key === d)) dispositionEntries[d] = nodeId;
      }
      return { ...layoutGraph({ nodes, edges, dispositionEntries }), schemaVersion: 1 };
    },
  },
];

/** The current-version graph for a stored one (`schemaVersion` absent means 0). */
export function migrateStoredGraph(stored: StoredGraph): Graph {
  let g: StoredGraph = stored;
  let version = typeof g.schemaVersion === 'number' ? g.schemaVersion : 0;
  if (!Number.isInteger(version) || version < 0) throw new Error(`stored workflow graph has an invalid schemaVersion ${JSON.stringify(g.schemaVersion)}`);
  if (version > CURRENT_SCHEMA_VERSION) {
    throw new Error(`stored workflow graph has schemaVersion ${version}, newer than this code (${CURRENT_SCHEMA_VERSION}); upgrade the service before reading it`);
  }
  while (version < CURRENT_SCHEMA_VERSION) {
    const step = MIGRATIONS.find((m) => m.from === version);
    if (!step) throw new Error(`no migration from workflow graph schemaVersion ${version}`);
    g = step.up(g);
    version = step.to;
  }
  return { nodes: g.nodes as Graph['nodes'], edges: g.edges as Graph['edges'], dispositionEntries: g.dispositionEntries as Graph['dispositionEntries'] };
}

/** The graph as it is written: stamped with the current schema version. */
export function toStoredGraph(graph: Graph): StoredGraph {
  return { schemaVersion: CURRENT_SCHEMA_VERSION, nodes: graph.nodes, edges: graph.edges, dispositionEntries: graph.dispositionEntries };
}
