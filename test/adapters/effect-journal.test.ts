import { describe, expect, it } from 'vitest';
import { CredentialRejectedError, PermanentPortError, RateLimitedError, VendorTimeoutError } from '../../engine/ports.js';
import { journaled } from '../../server/adapters/effect-journal.js';
import { storeJournal } from '../helpers/store-journal.js';

const scope = { agencyId: 'ag_1', key: 'wf_1:node_1', kind: 'note' };

describe('journaled', () => {
  it('performs once and records the result; a later call returns it without performing', async () => {
    const mj = storeJournal();
    let performed = 0;
    const perform = async () => ({ noteId: `n${++performed}` });
    expect(await journaled(mj.journal, scope, { perform })).toEqual({ noteId: 'n1' });
    expect(await journaled(mj.journal, scope, { perform })).toEqual({ noteId: 'n1' });
    expect(performed).toBe(1);
    expect(mj.calls).toEqual(['lookup wf_1:node_1', 'begin wf_1:node_1', 'complete wf_1:node_1', 'lookup wf_1:node_1']);
  });

  it('keys are per agency', async () => {
    const mj = storeJournal();
    await journaled(mj.journal, scope, { perform: async () => 'a' });
    expect(await journaled(mj.journal, { ...scope, agencyId: 'ag_2' }, { perform: async () => 'b' })).toBe('b');
  });

  it('a pending entry is checked at the vendor first; what it finds completes the entry without performing', async () => {
    const mj = storeJournal();
    mj.seed('ag_1', scope.key, { state: 'pending', startedAt: '2026-01-01T10:00:00.000Z', attempts: 2 });
    let asked: unknown;
    const result = await journaled(mj.journal, scope, {
      perform: async () => {
        throw new Error('must not perform');
      },
      findExisting: async (p) => {
        asked = p;
        return { noteId: 'n_existing' };
      },
    });
    expect(result).toEqual({ noteId: 'n_existing' });
    expect(asked).toEqual({ startedAt: '2026-01-01T10:00:00.000Z', attempts: 2 });
    expect(mj.entry('ag_1', scope.key)).toMatchObject({ state: 'done', result: { noteId: 'n_existing' } });
  });

  it('a pending entry the vendor knows nothing of is performed again, keeping the first startedAt', async () => {
    const mj = storeJournal();
    mj.seed('ag_1', scope.key, { state: 'pending', startedAt: '2026-01-01T10:00:00.000Z', attempts: 1 });
    const perform = async () => {
      // while performing, the entry is pending with the earliest start and two attempts
      expect(mj.entry('ag_1', scope.key)).toMatchObject({ state: 'pending', startedAt: '2026-01-01T10:00:00.000Z', attempts: 2 });
      return 'sent';
    };
    expect(await journaled(mj.journal, scope, { perform, findExisting: async () => null })).toBe('sent');
    expect(mj.entry('ag_1', scope.key)).toMatchObject({ state: 'done', result: 'sent' });
  });

  it('without findExisting a pending entry is performed again (at least once, where the vendor offers no check)', async () => {
    const mj = storeJournal();
    mj.seed('ag_1', scope.key, { state: 'pending', startedAt: '2026-01-01T10:00:00.000Z', attempts: 1 });
    expect(await journaled(mj.journal, scope, { perform: async () => 'again' })).toBe('again');
  });

  it.each([
    ['a permanent refusal', new PermanentPortError('slot taken')],
    ['a rejected credential', new CredentialRejectedError('gohighlevel', 'revoked')],
    ['a rate limit', new RateLimitedError('gohighlevel', 2000, 'slow down')],
  ])('%s abandons the entry: the vendor did not act', async (_name, refusal) => {
    const mj = storeJournal();
    await expect(journaled(mj.journal, scope, { perform: async () => Promise.reject(refusal) })).rejects.toBe(refusal);
    expect(mj.entry('ag_1', scope.key)).toBeNull();
    expect(await journaled(mj.journal, scope, { perform: async () => 'fresh' })).toBe('fresh');
  });

  it.each([
    ['a timeout', new VendorTimeoutError('gohighlevel', 300, 'no answer')],
    ['a 5xx or network error', new Error('HTTP 502')],
  ])('%s leaves the entry pending: the outcome is unknown', async (_name, failure) => {
    const mj = storeJournal(() => new Date('2026-02-02T09:00:00.000Z'));
    await expect(journaled(mj.journal, scope, { perform: async () => Promise.reject(failure) })).rejects.toBe(failure);
    expect(mj.entry('ag_1', scope.key)).toMatchObject({ state: 'pending', startedAt: '2026-02-02T09:00:00.000Z', attempts: 1 });
  });

  it('a failing check leaves the pending entry alone, even when the failure is a refusal', async () => {
    const mj = storeJournal();
    mj.seed('ag_1', scope.key, { state: 'pending', startedAt: '2026-01-01T10:00:00.000Z', attempts: 1 });
    const revoked = new CredentialRejectedError('gohighlevel', 'revoked');
    await expect(
      journaled(mj.journal, scope, {
        perform: async () => 'x',
        findExisting: async () => Promise.reject(revoked),
      }),
    ).rejects.toBe(revoked);
    expect(mj.entry('ag_1', scope.key)).toMatchObject({ state: 'pending', attempts: 1 });
  });
});
