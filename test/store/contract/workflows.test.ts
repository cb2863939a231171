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

  const LEASE = 30_000;

  it('idempotency: the first reserve owns the key; later ones see it in progress, then completed; per agency', async () => {
    const a = unique('ag');
    const b = unique('ag');
    const key = unique('key');
    expect(await s.store.idempotency.reserve(a, key, 'fp1', 'req-1', LEASE)).toBeNull();
    expect(await s.store.idempotency.reserve(a, key, 'fp2', 'req-2', LEASE)).toEqual({ fingerprint: 'fp1', status: 0, body: null });
    expect(await s.store.idempotency.reserve(b, key, 'fp3', 'req-3', LEASE)).toBeNull();
    // Only the holder settles its claim.
    await s.store.idempotency.complete(a, key, 'req-2', 500, { not: 'mine' });
    await s.store.idempotency.release(a, key, 'req-2');
    expect(await s.store.idempotency.reserve(a, key, 'fp1', 'req-4', LEASE)).toEqual({ fingerprint: 'fp1', status: 0, body: null });
    await s.store.idempotency.complete(a, key, 'req-1', 201, { success: true, data: { id: 'x' } });
    expect(await s.store.idempotency.reserve(a, key, 'fp1', 'req-5', LEASE)).toEqual({ fingerprint: 'fp1', status: 201, body: { success: true, data: { id: 'x' } } });
    const other = unique('key');
    expect(await s.store.idempotency.reserve(a, other, 'fp', 'req-6', LEASE)).toBeNull();
    await s.store.idempotency.release(a, other, 'req-6');
    expect(await s.store.idempotency.reserve(a, other, 'fp4', 'req-7', LEASE)).toBeNull();
  });

  it('idempotency: a claim whose lease ran out is taken over; one renewed is not; prune drops only records older than a day', async () => {
    const a = unique('ag');
    const abandoned = unique('key');
    const held = unique('key');
    const done = unique('key');
    expect(await s.store.idempotency.reserve(a, abandoned, 'fp', 'dead', 1)).toBeNull();
    expect(await s.store.idempotency.reserve(a, held, 'fp', 'alive', 1)).toBeNull();
    expect(await s.store.idempotency.renew(a, held, 'alive', LEASE)).toBe(true);
    expect(await s.store.idempotency.renew(a, held, 'someone-else', LEASE)).toBe(false);
    await s.store.idempotency.reserve(a, done, 'fp', 'req', LEASE);
    await s.store.idempotency.complete(a, done, 'req', 200, null);
    // Past the 1 ms leases.
    const at = Date.now();
    await vi.waitUntil(() => Date.now() > at + 5);
    expect(await s.store.idempotency.reserve(a, abandoned, 'fp', 'next', LEASE)).toBeNull();
    expect(await s.store.idempotency.renew(a, abandoned, 'dead', LEASE)).toBe(false);
    expect(await s.store.idempotency.reserve(a, held, 'fp', 'next', LEASE)).toEqual({ fingerprint: 'fp', status: 0, body: null });
    expect(await s.store.idempotency.reserve(a, done, 'fp', 'next', LEASE)).toEqual({ fingerprint: 'fp', status: 200, body: null });
    expect(await s.store.idempotency.prune()).toBe(0);
    expect(await s.store.idempotency.reserve(a, done, 'fp', 'next', LEASE)).toMatchObject({ status: 200 });
  });

  it('leases: one holder at a time until it releases or its lease runs out; claiming again extends it', async () => {
    const name = unique('lease');
    expect(await s.store.leases.claim(name, 'p1', LEASE)).toBe(true);
    expect(await s.store.leases.claim(name, 'p2', LEASE)).toBe(false);
    expect(await s.store.leases.claim(name, 'p1', LEASE)).toBe(true);
    await s.store.leases.release(name, 'p2');
    expect(await s.store.leases.claim(name, 'p2', LEASE)).toBe(false);
    await s.store.leases.release(name, 'p1');
    expect(await s.store.leases.claim(name, 'p2', 1)).toBe(true);
    const at = Date.now();
    await vi.waitUntil(() => Date.now() > at + 5);
    expect(await s.store.leases.claim(name, 'p3', LEASE)).toBe(true);
    expect(await s.store.leases.claim(name, 'p2', LEASE)).toBe(false);
  });

  it('idempotency: a record older than a day is replaced by the next reserve, and pruned', async () => {
    const a = unique('ag');
    const key = unique('key');
    const other = unique('key');
    // Both records are written "a day and a minute ago" (only Date is faked: the store's I/O runs on).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() - 24 * 3600 * 1000 - 60_000);
      expect(await s.store.idempotency.reserve(a, key, 'old', 'r1', LEASE)).toBeNull();
      await s.store.idempotency.complete(a, key, 'r1', 200, { old: true });
      expect(await s.store.idempotency.reserve(a, other, 'old', 'r2', LEASE)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
    expect(await s.store.idempotency.reserve(a, key, 'new', 'r3', LEASE)).toBeNull();
    expect(await s.store.idempotency.reserve(a, key, 'newer', 'r4', LEASE)).toEqual({ fingerprint: 'new', status: 0, body: null });
    expect(await s.store.idempotency.prune()).toBeGreaterThanOrEqual(1);
    expect(await s.store.idempotency.reserve(a, other, 'fresh', 'r5', LEASE)).toBeNull();
  });
});
