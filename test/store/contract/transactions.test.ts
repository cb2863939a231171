import { describe, expect, it } from 'vitest';
import { DIALECTS, unique, useStore } from './dialects.js';

describe.each(DIALECTS)('transactions on %s', (dialect) => {
  const s = useStore(dialect);

  it('commits what fn wrote and answers what it answered', async () => {
    const id = unique('ag');
    const answer = await s.store.withTransaction(async (tx) => {
      await tx.agencies.ensure(id, 'A', 1);
      return 42;
    });
    expect(answer).toBe(42);
    expect(await s.store.agencies.get(id)).toBeDefined();
  });

  it('rolls back everything fn wrote when it throws, and throws that error', async () => {
    const id = unique('ag');
    const boom = new Error('boom');
    await expect(
      s.store.withTransaction(async (tx) => {
        await tx.agencies.ensure(id, 'A', 1);
        await tx.agencies.saveSettings(id, { smsCarrier: 'twilio' });
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await s.store.agencies.get(id)).toBeUndefined();
  });

  it('a withTransaction on the transaction joins it: its writes commit and roll back with it', async () => {
    const kept = unique('ag');
    const dropped = unique('ag');
    await s.store.withTransaction(async (tx) => {
      await tx.withTransaction(async (inner) => {
        await inner.agencies.ensure(kept, 'A', 1);
      });
      expect(await tx.agencies.get(kept)).toBeDefined();
    });
    expect(await s.store.agencies.get(kept)).toBeDefined();
    await expect(
      s.store.withTransaction(async (tx) => {
        await tx.withTransaction(async (inner) => inner.agencies.ensure(dropped, 'B', 1));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await s.store.agencies.get(dropped)).toBeUndefined();
  });

  it('refuses the store used from inside its own transaction (checkTransactions)', async () => {
    const id = unique('ag');
    await expect(s.store.withTransaction(async () => s.store.agencies.get(id))).rejects.toThrow(/inside its own open transaction/);
    // The store works again afterwards.
    expect(await s.store.agencies.get(id)).toBeUndefined();
  });

  it('transactions one after another and side by side all commit', async () => {
    const ids = Array.from({ length: 6 }, () => unique('ag'));
    await Promise.all(ids.map((id) => s.store.withTransaction(async (tx) => tx.agencies.ensure(id, id, 1))));
    for (const id of ids) expect(await s.store.agencies.get(id)).toMatchObject({ id, name: id });
  });

  it('ping answers; a repository method that failed inside a transaction rolls it back', async () => {
    await s.store.ping();
    const id = unique('ag');
    await expect(
      s.store.withTransaction(async (tx) => {
        await tx.agencies.ensure(id, 'A', 1);
        // A key of an agency that does not exist: refused by the foreign key.
        await tx.apiKeys.create({ agencyId: unique('missing_agency'), name: 'k', role: 'agency_admin', scopes: [], projectIds: [] });
      }),
    ).rejects.toThrow();
    expect(await s.store.agencies.get(id)).toBeUndefined();
  });
});
