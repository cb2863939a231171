import { randomBytes } from 'node:crypto';
import type { AgenciesRepository } from '../index.js';
import type { AgencySettings } from '../records.js';
import { nowIso } from '../../ids.js';
import type { Sql } from './sql.js';
import { agencyFromRow as fromRow, type AgencyRow as Row } from '../rows.js';

const COLUMNS = 'id, name, plan_limit, signing_secret, created_at';
const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;
const INSERT = `INSERT INTO agencies (id, name, plan_limit, signing_secret, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`;

export function agenciesRepo(sql: Sql): AgenciesRepository {
  const get = async (id: string) => {
    const r = await sql.one<Row>(`SELECT ${COLUMNS} FROM agencies WHERE id = $1`, [id]);
    return r ? fromRow(r) : undefined;
  };
  /** Inserts the agency unless a row has its id: a racing insert waits for the other's commit, then does nothing. */
  const create = async (id: string, name: string, planLimit: number) => {
    const r = await sql.one<Row>(INSERT, [id, name, planLimit, newSigningSecret(), nowIso()]);
    return r ? fromRow(r) : undefined;
  };
  return {
    get,
    async lockForUpdate(id) {
      await sql.one('SELECT 1 FROM agencies WHERE id = $1 FOR UPDATE', [id]);
    },
    async settings(id) {
      const r = await sql.one<{ settings: string }>('SELECT settings FROM agencies WHERE id = $1', [id]);
      return r ? (JSON.parse(r.settings) as AgencySettings) : {};
    },
    async saveSettings(id, next) {
      await sql.run('UPDATE agencies SET settings = $1 WHERE id = $2', [JSON.stringify(next), id]);
    },
    async verificationSecrets(id, now = Date.now()) {
      const r = await sql.one<{ signing_secret: string; previous_signing_secret: string | null; previous_secret_until: string | null }>(
        'SELECT signing_secret, previous_signing_secret, previous_secret_until FROM agencies WHERE id = $1',
        [id],
      );
      if (!r) return [];
      const previous = r.previous_signing_secret && r.previous_secret_until && Date.parse(r.previous_secret_until) > now ? [r.previous_signing_secret] : [];
      return [r.signing_secret, ...previous];
    },
    async revealSigningSecret(id) {
      const r = await sql.one<{ signing_secret: string }>(
        'UPDATE agencies SET signing_secret_revealed_at = $1 WHERE id = $2 AND signing_secret_revealed_at IS NULL RETURNING signing_secret',
        [nowIso(), id],
      );
      return r?.signing_secret ?? null;
    },
    async rotateSigningSecret(id, graceSeconds) {
      const secret = newSigningSecret();
      const previousValidUntil = new Date(Date.now() + graceSeconds * 1000).toISOString();
      await sql.run(
        `UPDATE agencies SET previous_signing_secret = signing_secret, previous_secret_until = $1, signing_secret = $2, signing_secret_revealed_at = $3 WHERE id = $4`,
        [previousValidUntil, secret, nowIso(), id],
      );
      return { secret, previousValidUntil };
    },
    /** Any number of processes may ensure one agency at once: one inserts it, every one reads it. */
    async ensure(id, name, planLimit) {
      return (await get(id)) ?? (await create(id, name, planLimit)) ?? (await get(id))!;
    },
    create,
  };
}
