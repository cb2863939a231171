import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';
import { nowIso } from './ids.js';

/** Agency-wide settings. */
export interface AgencySettings {
  /** the SMS carrier of projects that do not choose one: the CRM's messaging, or Twilio */
  smsCarrier?: 'crm' | 'twilio';
}

export interface Agency {
  id: string;
  name: string;
  planLimit: number;
  signingSecret: string;
  createdAt: string;
}

interface Row {
  id: string;
  name: string;
  plan_limit: number;
  signing_secret: string;
  created_at: string;
}

const fromRow = (r: Row): Agency => ({
  id: r.id,
  name: r.name,
  planLimit: r.plan_limit,
  signingSecret: r.signing_secret,
  createdAt: r.created_at,
});

export function agenciesRepo(db: Db) {
  const get = db.prepare<[string], Row>('SELECT * FROM agencies WHERE id = ?');
  const settings = db.prepare<[string], { settings: string }>('SELECT settings FROM agencies WHERE id = ?');
  const saveSettings = db.prepare('UPDATE agencies SET settings = ? WHERE id = ?');
  const insert = db.prepare(
    'INSERT INTO agencies (id, name, plan_limit, signing_secret, created_at) VALUES (@id, @name, @planLimit, @signingSecret, @createdAt)',
  );
  return {
    get(id: string): Agency | undefined {
      const r = get.get(id);
      return r ? fromRow(r) : undefined;
    },
    settings(id: string): AgencySettings {
      const r = settings.get(id);
      return r ? (JSON.parse(r.settings) as AgencySettings) : {};
    },
    saveSettings(id: string, next: AgencySettings): void {
      saveSettings.run(JSON.stringify(next), id);
    },
    /** Creates the agency if it does not exist; returns it either way. */
    ensure(id: string, name: string, planLimit: number): Agency {
      const existing = get.get(id);
      if (existing) return fromRow(existing);
      const agency: Agency = {
        id,
        name,
        planLimit,
        signingSecret: `whsec_${randomBytes(24).toString('base64url')}`,
        createdAt: nowIso(),
      };
      insert.run(agency);
      return agency;
    },
  };
}
export type AgenciesRepo = ReturnType<typeof agenciesRepo>;
