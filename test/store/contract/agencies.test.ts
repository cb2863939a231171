import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../../server/store/index.js';
import { creationOrder, DIALECTS, unique, useStore } from './dialects.js';

describe.each(DIALECTS)('agencies, API keys and credentials on %s', (dialect) => {
  const s = useStore(dialect);

  it('ensure creates an agency once and returns it either way; get reads it; an unknown one is undefined', async () => {
    const id = unique('ag');
    const made = await s.store.agencies.ensure(id, 'First', 4);
    expect(made).toMatchObject({ id, name: 'First', planLimit: 4 });
    expect(made.signingSecret).toMatch(/^whsec_/);
    expect(await s.store.agencies.ensure(id, 'Second', 9)).toEqual(made);
    expect(await s.store.agencies.get(id)).toEqual(made);
    expect(await s.store.agencies.get(unique('none'))).toBeUndefined();
  });

  it('create answers the agency when it made it, undefined when it existed', async () => {
    const id = unique('ag');
    const made = await s.store.agencies.create(id, 'New', 2);
    expect(made).toMatchObject({ id, name: 'New', planLimit: 2 });
    expect(await s.store.agencies.create(id, 'Again', 7)).toBeUndefined();
    expect(await s.store.agencies.get(id)).toEqual(made);
  });

  it('settings start empty, are replaced whole, and are per agency', async () => {
    const a = unique('ag');
    const b = unique('ag');
    await s.store.agencies.ensure(a, 'A', 1);
    await s.store.agencies.ensure(b, 'B', 1);
    expect(await s.store.agencies.settings(a)).toEqual({});
    await s.store.agencies.saveSettings(a, { smsCarrier: 'twilio', vapiOutcomeMap: { yes: 'SUCCESS' } });
    expect(await s.store.agencies.settings(a)).toEqual({ smsCarrier: 'twilio', vapiOutcomeMap: { yes: 'SUCCESS' } });
    await s.store.agencies.saveSettings(a, { voicePlatform: 'vapi' });
    expect(await s.store.agencies.settings(a)).toEqual({ voicePlatform: 'vapi' });
    expect(await s.store.agencies.settings(b)).toEqual({});
    expect(await s.store.agencies.settings(unique('none'))).toEqual({});
  });

  it('the signing secret is revealed once; a rotation keeps the previous one for its grace period', async () => {
    const id = unique('ag');
    const agency = await s.store.agencies.ensure(id, 'A', 1);
    expect(await s.store.agencies.verificationSecrets(id)).toEqual([agency.signingSecret]);
    expect(await s.store.agencies.revealSigningSecret(id)).toBe(agency.signingSecret);
    expect(await s.store.agencies.revealSigningSecret(id)).toBeNull();
    const before = Date.now();
    const rotated = await s.store.agencies.rotateSigningSecret(id, 60);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(agency.signingSecret);
    expect(Date.parse(rotated.previousValidUntil)).toBeGreaterThanOrEqual(before + 60_000);
    expect(await s.store.agencies.verificationSecrets(id)).toEqual([rotated.secret, agency.signingSecret]);
    expect(await s.store.agencies.verificationSecrets(id, Date.parse(rotated.previousValidUntil) + 1)).toEqual([rotated.secret]);
    // The rotated secret was shown in the rotation's answer: not again.
    expect(await s.store.agencies.revealSigningSecret(id)).toBeNull();
    expect((await s.store.agencies.get(id))!.signingSecret).toBe(rotated.secret);
    expect(await s.store.agencies.verificationSecrets(unique('none'))).toEqual([]);
    expect(await s.store.agencies.revealSigningSecret(unique('none'))).toBeNull();
  });

  it('lockForUpdate holds inside a transaction and changes nothing', async () => {
    const id = unique('ag');
    const agency = await s.store.agencies.ensure(id, 'A', 1);
    await s.store.withTransaction(async (tx) => {
      await tx.agencies.lockForUpdate(id);
      await tx.agencies.lockForUpdate(unique('none'));
      expect(await tx.agencies.get(id)).toEqual(agency);
    });
    await s.store.agencies.lockForUpdate(id);
    expect(await s.store.agencies.get(id)).toEqual(agency);
  });

  it('an API key: its secret authenticates, only while active; list, get and revoke are per agency', async () => {
    const id = unique('ag');
    const other = unique('ag');
    await s.store.agencies.ensure(id, 'A', 1);
    await s.store.agencies.ensure(other, 'B', 1);
    const admin = await s.store.apiKeys.create({ agencyId: id, name: 'admin', role: 'agency_admin', scopes: [...SCOPES, 'projects:read'], projectIds: ['ignored'] });
    expect(admin.secret).toMatch(/^vck_/);
    expect(admin.key).toMatchObject({ agencyId: id, name: 'admin', role: 'agency_admin', prefix: admin.secret.slice(0, 10), projectIds: [], revokedAt: null, expiresAt: null, createdBy: null });
    expect(admin.key.scopes).toEqual([...SCOPES]);
    const user = await s.store.apiKeys.create({ agencyId: id, name: 'user', role: 'project_user', scopes: ['projects:read'], projectIds: ['p1', 'p1', 'p2'], createdBy: admin.key.id });
    expect(user.key).toMatchObject({ projectIds: ['p1', 'p2'], createdBy: admin.key.id });
    const expired = await s.store.apiKeys.create({ agencyId: id, name: 'old', role: 'agency_admin', scopes: ['projects:read'], projectIds: [], expiresAt: new Date(Date.now() - 1000).toISOString() });

    expect(await s.store.apiKeys.authenticate(admin.secret)).toEqual(admin.key);
    expect(await s.store.apiKeys.authenticate(user.secret)).toEqual(user.key);
    expect(await s.store.apiKeys.authenticate(expired.secret)).toBeUndefined();
    expect(await s.store.apiKeys.authenticate('vck_unknown')).toBeUndefined();
    expect(await s.store.apiKeys.get(id, user.key.id)).toEqual(user.key);
    expect(await s.store.apiKeys.get(other, user.key.id)).toBeUndefined();
    expect((await s.store.apiKeys.list(id)).map((k) => k.id)).toEqual(creationOrder([admin.key, user.key, expired.key]));
    expect(await s.store.apiKeys.list(other)).toEqual([]);

    expect(await s.store.apiKeys.revoke(other, user.key.id)).toBe(false);
    expect(await s.store.apiKeys.revoke(id, user.key.id)).toBe(true);
    expect(await s.store.apiKeys.revoke(id, user.key.id)).toBe(false);
    expect(await s.store.apiKeys.authenticate(user.secret)).toBeUndefined();
    expect((await s.store.apiKeys.get(id, user.key.id))!.revokedAt).toEqual(expect.any(String));
    expect(await s.store.apiKeys.authenticate(admin.secret)).toEqual(admin.key);
  });

  it('a key revoked through another store (another process) is refused', async () => {
    const id = unique('ag');
    await s.store.agencies.ensure(id, 'A', 1);
    const { key, secret } = await s.store.apiKeys.create({ agencyId: id, name: 'k', role: 'agency_admin', scopes: ['projects:read'], projectIds: [] });
    expect(await s.store.apiKeys.authenticate(secret)).toEqual(key);
    const other = await s.another();
    expect(await other.apiKeys.revoke(id, key.id)).toBe(true);
    expect(await s.store.apiKeys.authenticate(secret)).toBeUndefined();
  });

  it('lookups counts the secrets looked up in the store', async () => {
    const before = await s.store.apiKeys.lookups();
    await s.store.apiKeys.authenticate('vck_never_issued');
    expect(await s.store.apiKeys.lookups()).toBe(before + 1);
  });

  it('credentials: put inserts then replaces (keeping createdAt), list is ordered by owner and provider, remove says whether it removed', async () => {
    const id = unique('ag');
    await s.store.agencies.ensure(id, 'A', 1);
    expect(await s.store.credentials.get(id, 'agency', 'twilio')).toBeUndefined();
    await s.store.credentials.put({ agencyId: id, owner: 'agency', provider: 'twilio', sealed: 's1', keyId: 'k1', hint: '…1234' });
    const first = (await s.store.credentials.get(id, 'agency', 'twilio'))!;
    expect(first).toMatchObject({ agencyId: id, owner: 'agency', provider: 'twilio', sealed: 's1', keyId: 'k1', hint: '…1234' });
    expect(first.updatedAt).toBe(first.createdAt);
    await s.store.credentials.put({ agencyId: id, owner: 'agency', provider: 'twilio', sealed: 's2', keyId: 'k2', hint: '…9999' });
    const second = (await s.store.credentials.get(id, 'agency', 'twilio'))!;
    expect(second).toMatchObject({ sealed: 's2', keyId: 'k2', hint: '…9999', createdAt: first.createdAt });
    await s.store.credentials.put({ agencyId: id, owner: 'prj_b', provider: 'gohighlevel', sealed: 'x', keyId: 'k', hint: '' });
    await s.store.credentials.put({ agencyId: id, owner: 'agency', provider: 'vapi', sealed: 'y', keyId: 'k', hint: '' });
    expect((await s.store.credentials.list(id)).map((c) => `${c.owner}/${c.provider}`)).toEqual(['agency/twilio', 'agency/vapi', 'prj_b/gohighlevel']);
    expect(await s.store.credentials.list(unique('none'))).toEqual([]);
    expect(await s.store.credentials.remove(id, 'agency', 'vapi')).toBe(true);
    expect(await s.store.credentials.remove(id, 'agency', 'vapi')).toBe(false);
    expect(await s.store.credentials.get(id, 'agency', 'vapi')).toBeUndefined();
  });
});
