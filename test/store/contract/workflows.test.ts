import { describe, expect, it, vi } from 'vitest';
import { StoreConflict } from '../../../server/store/index.js';
import { appendNodes } from '../../../engine/graph/append.js';
import { emptyGraph } from '../../../engine/graph/empty.js';
import type { Graph } from '../../../engine/graph/types.js';
import { DIALECTS, unique, useStore, world } from './dialects.js';

const withSms = (g: Graph, body: string) => appendNodes(g, 'VOICEMAIL', [{ type: 'send-sms', config: { body } }]);

describe.each(DIALECTS)('workflows and idempotency keys on %s', (dialect) => {
  const s = useStore(dialect);

  it('a campaign without a graph reads as the empty graph at version 0, with no history', async () => {
    const { agencyId, campaign } = await world(s.store);
    expect(await s.store.workflows.get(agencyId, campaign.id)).toEqual({ campaignId: campaign.id, version: 0, graph: emptyGraph(), updatedAt: new Date(0).toISOString() });
    expect(await s.store.workflows.versions(agencyId, campaign.id)).toEqual([]);
    expect(await s.store.workflows.version(agencyId, campaign.id, 1)).toBeUndefined();
  });

  it('each write applies to the current graph, stores the next version and its history row', async () => {
    const { agencyId, campaign } = await world(s.store);
    const other = await world(s.store);
    const seen: Graph[] = [];
    const first = await s.store.workflows.write({ agencyId, campaignId: campaign.id, keyId: 'key_1', apply: (g) => (seen.push(g), { graph: withSms(g, 'one'), summary: 'first' }) });
    expect(first.version).toBe(1);
    expect(seen).toEqual([emptyGraph()]);
    const second = await s.store.workflows.write({ agencyId, campaignId: campaign.id, expectedVersion: 1, keyId: null, apply: (g) => ({ graph: withSms(g, 'two'), summary: 'second' }) });
    expect(second.version).toBe(2);
    expect(second.graph.nodes).toHaveLength(2);
    expect(await s.store.workflows.get(agencyId, campaign.id)).toEqual(second);
    expect(await s.store.workflows.versions(agencyId, campaign.id)).toEqual([
      { version: 2, createdAt: second.updatedAt, keyId: null, summary: 'second' },
      { version: 1, createdAt: first.updatedAt, keyId: 'key_1', summary: 'first' },
    ]);
    expect(await s.store.workflows.version(agencyId, campaign.id, 1)).toEqual(first);
    expect(await s.store.workflows.version(agencyId, campaign.id, 3)).toBeUndefined();
    // Another agency sees none of it.
    expect((await s.store.workflows.get(other.agencyId, campaign.id)).version).toBe(0);
    expect(await s.store.workflows.versions(other.agencyId, campaign.id)).toEqual([]);
    expect(await s.store.workflows.version(other.agencyId, campaign.id, 1)).toBeUndefined();
  });

  it('a stale expectedVersion is a StoreConflict StaleVersion and stores nothing', async () => {
    const { agencyId, campaign } = await world(s.store);
    await s.store.workflows.write({ agencyId, campaignId: campaign.id, keyId: null, apply: (g) => ({ graph: withSms(g, 'a'), summary: 'a' }) });
    const err = await s.store.workflows.write({ agencyId, campaignId: campaign.id, expectedVersion: 0, keyId: null, apply: (g) => ({ graph: g, summary: 'x' }) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreConflict);
    expect(err).toMatchObject({ reason: 'StaleVersion' });
    expect((err as Error).message).toMatch(/expectedVersion 0 is stale: the workflow is at version 1/);
    expect((await s.store.workflows.get(agencyId, campaign.id)).version).toBe(1);
  });

  it('an operation that throws stores nothing', async () => {
    const { agencyId, campaign } = await world(s.store);
    await expect(s.store.workflows.write({ agencyId, campaignId: campaign.id, keyId: null, apply: () => { throw new Error('invalid graph'); } })).rejects.toThrow('invalid graph');
    expect((await s.store.workflows.get(agencyId, campaign.id)).version).toBe(0);
    expect(await s.store.workflows.versions(agencyId, campaign.id)).toEqual([]);
  });

  it('writes inside a transaction roll back with it', async () => {
    const { agencyId, campaign } = await world(s.store);
    await expect(
      s.store.withTransaction(async (tx) => {
        await tx.workflows.write({ agencyId, campaignId: campaign.id, keyId: null, apply: (g) => ({ graph: withSms(g, 'a'), summary: 'a' }) });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await s.store.workflows.get(agencyId, campaign.id)).version).toBe(0);
  });

  it('idempotency: the first reserve owns the key; later ones see it in progress, then completed; per agency', async () => {
    const a = unique('ag');
    const b = unique('ag');
    const key = unique('key');
    expect(await s.store.idempotency.reserve(a, key, 'fp1')).toBeNull();
    expect(await s.store.idempotency.reserve(a, key, 'fp2')).toEqual({ fingerprint: 'fp1', status: 0, body: null });
    expect(await s.store.idempotency.reserve(b, key, 'fp3')).toBeNull();
    await s.store.idempotency.complete(a, key, 201, { success: true, data: { id: 'x' } });
    expect(await s.store.idempotency.reserve(a, key, 'fp1')).toEqual({ fingerprint: 'fp1', status: 201, body: { success: true, data: { id: 'x' } } });
    await s.store.idempotency.release(a, key);
    expect(await s.store.idempotency.reserve(a, key, 'fp4')).toBeNull();
  });

  it('idempotency: releaseAbandoned drops only claims in progress; prune drops only those older than a day', async () => {
    const a = unique('ag');
    const running = unique('key');
    const done = unique('key');
    await s.store.idempotency.reserve(a, running, 'fp');
    await s.store.idempotency.reserve(a, done, 'fp');
    await s.store.idempotency.complete(a, done, 200, null);
    expect(await s.store.idempotency.releaseAbandoned()).toBeGreaterThanOrEqual(1);
    expect(await s.store.idempotency.reserve(a, running, 'again')).toBeNull();
    expect(await s.store.idempotency.reserve(a, done, 'fp')).toEqual({ fingerprint: 'fp', status: 200, body: null });
    expect(await s.store.idempotency.prune()).toBe(0);
    expect(await s.store.idempotency.reserve(a, done, 'fp')).toMatchObject({ status: 200 });
  });

  it('idempotency: a record older than a day is replaced by the next reserve, and pruned', async () => {
    const a = unique('ag');
    const key = unique('key');
    const other = unique('key');
    // Both records are written "a day and a minute ago" (only Date is faked: the store's I/O runs on).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() - 24 * 3600 * 1000 - 60_000);
      expect(await s.store.idempotency.reserve(a, key, 'old')).toBeNull();
      await s.store.idempotency.complete(a, key, 200, { old: true });
      expect(await s.store.idempotency.reserve(a, other, 'old')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
    expect(await s.store.idempotency.reserve(a, key, 'new')).toBeNull();
    expect(await s.store.idempotency.reserve(a, key, 'newer')).toEqual({ fingerprint: 'new', status: 0, body: null });
    expect(await s.store.idempotency.prune()).toBeGreaterThanOrEqual(1);
    expect(await s.store.idempotency.reserve(a, other, 'fresh')).toBeNull();
  });
});
