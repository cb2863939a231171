import type { AgenciesRepository } from '../index.js';
import type { Sync } from './sync.js';
import type { Agency, AgencySettings } from '../records.js';
import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';
import { nowIso } from '../../ids.js';
import { agencyFromRow as fromRow, type AgencyRow as Row } from '../rows.js';

const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

export function agenciesRepo(db: Db): Sync<AgenciesRepository> {
  const get = db.prepare<[string], Row>('SELECT * FROM agencies WHERE id = ?');
  const settings = db.prepare<[string], { settings: string }>('SELECT settings FROM agencies WHERE id = ?');
  const secrets = db.prepare<[string], { signing_secret: string; previous_signing_secret: string | null; previous_secret_until: string | null }>(
    'SELECT signing_secret, previous_signing_secret, previous_secret_until FROM agencies WHERE id = ?',
  );
  const reveal = db.prepare<[string, string], { signing_secret: string }>(
    'UPDATE agencies SET signing_secret_revealed_at = ? WHERE id = ? AND signing_secret_revealed_at IS NULL RETURNING signing_secret',
  );
  const rotate = db.prepare(
    `UPDATE agencies SET previous_signing_secret = signing_secret, previous_secret_until = @until, signing_secret = @secret, signing_secret_revealed_at = @now
     WHERE id = @id`,
  );
  const saveSettings = db.prepare('UPDATE agencies SET settings = ? WHERE id = ?');
  const insert = db.prepare(
    'INSERT INTO agencies (id, name, plan_limit, signing_secret, created_at) VALUES (@id, @name, @planLimit, @signingSecret, @createdAt)',
  );
  const insertNew = db.prepare(
    'INSERT INTO agencies (id, name, plan_limit, signing_secret, created_at) VALUES (@id, @name, @planLimit, @signingSecret, @createdAt) ON CONFLICT (id) DO NOTHING',
  );
  const fresh = (id: string, name: string, planLimit: number): Agency => ({ id, name, planLimit, signingSecret: newSigningSecret(), createdAt: nowIso() });
  return {
    get(id: string): Agency | undefined {
      const r = get.get(id);
      return r ? fromRow(r) : undefined;
    },
    /** Nothing to hold: SQLite's IMMEDIATE transactions already keep every other writer out. */
    lockForUpdate(): void {},
    settings(id: string): AgencySettings {
      const r = settings.get(id);
      return r ? (JSON.parse(r.settings) as AgencySettings) : {};
    },
    saveSettings(id: string, next: AgencySettings): void {
      saveSettings.run(JSON.stringify(next), id);
    },
    /**
     * The secrets a signed delivery may be signed with now: the current one, and during a
     * rotation's grace period the one it replaced.
     */
    verificationSecrets(id: string, now = Date.now()): string[] {
      const r = secrets.get(id);
      if (!r) return [];
      const previous = r.previous_signing_secret && r.previous_secret_until && Date.parse(r.previous_secret_until) > now ? [r.previous_signing_secret] : [];
      return [r.signing_secret, ...previous];
    },
    /** The current signing secret, the first time it is asked for; null once it was shown (rotate to get a new one). */
    revealSigningSecret(id: string): string | null {
      return reveal.get(nowIso(), id)?.signing_secret ?? null;
    },
    /** A new signing secret (shown once, in the answer); the old one verifies for `graceSeconds` more. */
    rotateSigningSecret(id: string, graceSeconds: number): { secret: string; previousValidUntil: string } {
      const secret = newSigningSecret();
      const previousValidUntil = new Date(Date.now() + graceSeconds * 1000).toISOString();
      rotate.run({ id, secret, until: previousValidUntil, now: nowIso() });
      return { secret, previousValidUntil };
    },
    /** Creates the agency if it does not exist; returns it either way. */
    ensure(id: string, name: string, planLimit: number): Agency {
      const existing = get.get(id);
      if (existing) return fromRow(existing);
      const agency = fresh(id, name, planLimit);
      insert.run(agency);
      return agency;
    },
    /** Creates the agency unless it exists; undefined when it existed. */
    create(id: string, name: string, planLimit: number): Agency | undefined {
      const agency = fresh(id, name, planLimit);
      return insertNew.run(agency).changes === 1 ? agency : undefined;
    },
  };
}
