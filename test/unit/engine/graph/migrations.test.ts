import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION, MIGRATIONS, migrateStoredGraph, toStoredGraph } from '../../../../engine/graph/migrations.js';
import { findGraphProblems } from '../../../../engine/graph/validate.js';
import { danaGraph } from './fixtures.js';

describe('migrateStoredGraph', () => {
  it('has an ordered chain of steps up to the current version', () => {
    expect(CURRENT_SCHEMA_VERSION).toBe(1);
    MIGRATIONS.forEach((m, i) => expect([m.from, m.to]).toEqual([i, i + 1]));
    expect(MIGRATIONS.at(-1)!.to).toBe(CURRENT_SCHEMA_VERSION);
  });
  it('upgrades a version-0 graph: positions laid out, dashboard-type keys upper-cased, null handles and missing configs fixed', () => {
    const v0 = {
      nodes: [
        { id: 'a', type: 'if', config: { match: 'all', conditions: [{ field: 'x', op: 'exists' }] } },
        { id: 'b', type: 'add-tag', config: { tags: ['b'] }, position: { x: 11, y: 22 } },
        { id: 'c', type: 'add-note' },
        { id: 'd', type: 'add-tag', config: { tags: ['d'] } },
      ],
      edges: [
        { id: 'e1', source: 'a', target: 'b', sourceHandle: 'true' },
        { id: 'e2', source: 'b', target: 'c', sourceHandle: null },
      ],
      dispositionEntries: { callBack: 'a', voicemail: 'd', 'No Action': 'd', bogus: 'b' },
    };
    const g = migrateStoredGraph(v0);
    expect(g.dispositionEntries).toEqual({ CALLBACK: 'a', VOICEMAIL: 'd', NO_ACTION: 'd' });
    expect(g.edges[1]).toEqual({ id: 'e2', source: 'b', target: 'c' });
    expect(g.nodes.find((n) => n.id === 'c')!.config).toEqual({});
    expect(g.nodes.find((n) => n.id === 'b')!.position).toEqual({ x: 11, y: 22 });
    for (const n of g.nodes) expect(Number.isFinite(n.position.x) && Number.isFinite(n.position.y)).toBe(true);
    expect(findGraphProblems(g)).toEqual([]);
  });
  it('prefers an exact upper-case key over a dashboard spelling of the same outcome', () => {
    const g = migrateStoredGraph({ nodes: [{ id: 'a', type: 'add-tag', config: { tags: ['a'] } }, { id: 'b', type: 'add-tag', config: { tags: ['b'] } }], edges: [], dispositionEntries: { VOICEMAIL: 'a', voicemail: 'b' } });
    expect(g.dispositionEntries).toEqual({ VOICEMAIL: 'a' });
  });
  it('returns a current graph unchanged', () => {
    const g = danaGraph();
    expect(migrateStoredGraph({ ...g, schemaVersion: 1 })).toEqual(g);
    expect(migrateStoredGraph(toStoredGraph(g))).toEqual(g);
    expect(toStoredGraph(g).schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
  });
  it('refuses a graph newer than the code and nonsense versions', () => {
    expect(() => migrateStoredGraph({ ...danaGraph(), schemaVersion: 2 })).toThrow(/newer than this code/);
    expect(() => migrateStoredGraph({ ...danaGraph(), schemaVersion: -1 })).toThrow(/invalid schemaVersion/);
  });
});
