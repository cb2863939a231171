import type { CredentialsRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { SealedCredential } from '../records.js';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';
import { credentialFromRow as fromRow, type CredentialRow as Row } from '../rows.js';

export function credentialsRepo(db: Db): Sync<CredentialsRepository> {
  const get = db.prepare<[string, string, string], Row>('SELECT * FROM credentials WHERE agency_id = ? AND owner = ? AND provider = ?');
  const list = db.prepare<[string], Row>('SELECT * FROM credentials WHERE agency_id = ? ORDER BY owner, provider');
  const put = db.prepare(
    `INSERT INTO credentials (agency_id, owner, provider, sealed, key_id, hint, created_at, updated_at)
     VALUES (@agencyId, @owner, @provider, @sealed, @keyId, @hint, @at, @at)
     ON CONFLICT (agency_id, owner, provider) DO UPDATE SET sealed = excluded.sealed, key_id = excluded.key_id, hint = excluded.hint, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM credentials WHERE agency_id = ? AND owner = ? AND provider = ?');
  return {
    get(agencyId: string, owner: string, provider: string): SealedCredential | undefined {
      const r = get.get(agencyId, owner, provider);
      return r ? fromRow(r) : undefined;
    },
    list: (agencyId: string) => list.all(agencyId).map(fromRow),
    put(c: Omit<SealedCredential, 'createdAt' | 'updatedAt'>): void {
      put.run({ ...c, at: nowIso() });
    },
    remove: (agencyId: string, owner: string, provider: string) => remove.run(agencyId, owner, provider).changes === 1,
  };
}
