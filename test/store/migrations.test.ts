/**
 * Store upgrades: a database written by an earlier schema (test/fixtures/db/schema-3.db, made by
 * the schema-3 code through the real API: a contact event, an idempotent append, a post-call run
 * of four actions) opens under the current code with every row intact and its keys rewritten to
 * the tenant-scoped form; runs started before keep their workflow ids and are still found; a
 * database newer than the code is refused with a clear message.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { describeUpgrade, openDb, type UpgradeEvent } from '../../server/store/sqlite/db.js';
import { migrations } from '../../server/store/sqlite/migrations/index.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { callEnded, postCallEvent } from '../helpers/events.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/db/schema-3.db');
const AGENCY = 'agency_1_32757';
const LOCATION = 'loc_fixture';
const CAMPAIGN = 'cmp__kWC45zXnyVjpg';
const OLD_RUN = 'post-call:call_fixture';
const AGENT = 'agt_mOreTiAZ9j3dWg';

let h: Harness;
let copyDir: string;
beforeAll(async () => {
  // The fixture's Idempotency-Key was stored on the day it was made; replays last 24 hours, so the
  // copy dates it to now: the upgrade happens right after the request, whenever the test runs.
  copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-schema-3-'));
  const copy = path.join(copyDir, 'schema-3.db');
  fs.copyFileSync(FIXTURE, copy);
  const db = new Database(copy);
  db.prepare('UPDATE idempotency_keys SET created_at = ?').run(new Date().toISOString());
  db.close();
  h = await createHarness({ temporal: true, fromDb: copy });
});
afterAll(async () => {
  await h?.close();
  fs.rmSync(copyDir, { recursive: true, force: true });
});

describe('a schema-3 database', () => {
  it('migrates to the current schema with every row kept', () => {
    expect(h.db.pragma('user_version', { simple: true })).toBe(migrations.length);
    const old = new Database(FIXTURE, { readonly: true });
    try {
      for (const table of ['projects', 'agents', 'campaigns', 'workflows', 'workflow_versions', 'crm_contacts', 'calls', 'call_events', 'executions', 'execution_steps', 'run_inputs', 'port_effects', 'outbox', 'appointments', 'leads', 'contact_events', 'idempotency_keys']) {
        const before = (old.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
        expect((h.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, table).toBe(before);
        expect(before, `${table} is represented in the fixture`).toBeGreaterThan(0);
      }
    } finally {
      old.close();
    }
    expect(h.db.pragma('foreign_key_check')).toEqual([]);
    expect(h.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('has exactly the schema a new store has: tables, columns, indexes, triggers, word for word', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-new-store-'));
    const fresh = openDb(path.join(dir, 'app.db'));
    try {
      // Whitespace aside: ALTER TABLE rewrites a table's text as it was written, spacing included.
      const schemaOf = (db: Database.Database) =>
        (db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as { type: string; name: string; tbl_name: string; sql: string | null }[]).map((r) => ({ ...r, sql: r.sql?.replace(/\s+/g, ' ').trim() ?? null }));
      const theirs = schemaOf(fresh);
      expect(theirs.length).toBeGreaterThan(30);
      expect(schemaOf(h.db)).toEqual(theirs);
    } finally {
      fresh.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the old rows through the tenant-scoped keys', async () => {
    expect(await h.store.crm.getContact(AGENCY, LOCATION, 'ct_fixture')).toMatchObject({ firstName: 'Fia', tags: ['new-lead', 'vm-left'] });
    expect((await h.store.crm.getContact(AGENCY, LOCATION, 'ct_fixture'))!.notes).toHaveLength(1);
    expect(await h.store.leads.ofContact(AGENCY, LOCATION, 'ct_fixture')).toHaveLength(1);
    expect(await h.store.effects.countWithPrefix(AGENCY, `${OLD_RUN}:`)).toBe(4);
    expect(h.db.prepare('SELECT location_id, calendar_id FROM appointments WHERE agency_id = ?').all(AGENCY)).toEqual([{ location_id: LOCATION, calendar_id: 'cal_1' }]);
    const run = (await h.store.executions.firstOfCall(AGENCY, 'call_fixture'))!;
    expect(run).toMatchObject({ workflowId: OLD_RUN, status: 'succeeded' });
    expect(run.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(await h.store.runInputs.get(AGENCY, OLD_RUN)).toMatchObject({ executionId: run.id, campaignId: CAMPAIGN });
  });

  it("indexes the old lead's campaign, project and cadence: a search of any finds it from the index, another's does not", async () => {
    const q = { agencyId: AGENCY, mode: 'pipeline', cadenceStep: 0, search: '5550111', limit: 10, offset: 0 } as const;
    const { projectId, cadenceId } = (await h.store.leads.ofContact(AGENCY, LOCATION, 'ct_fixture'))[0]!;
    expect(cadenceId).toMatch(/^cad_/);
    for (const filter of [{ campaignIds: [CAMPAIGN] }, { projectIds: [projectId] }, { cadenceId: cadenceId! }]) {
      expect((await h.store.leadSearch.page({ ...q, ...filter })).leads.map((l) => l.contactId)).toEqual(['ct_fixture']);
      expect((await h.store.leadSearch.explain({ ...q, ...filter })).count).toMatch(/lead_search MATCH/);
    }
    // The same id in another case is another campaign: ids are case-sensitive, the index's words are not.
    expect(await h.store.leadSearch.page({ ...q, campaignIds: [CAMPAIGN.toUpperCase()] })).toEqual({ leads: [], total: 0 });
    expect(await h.store.leadSearch.page({ ...q, cadenceId: cadenceId!.toUpperCase() })).toEqual({ leads: [], total: 0 });
  });

  it('finds a run started before the upgrade: a re-delivered event is a duplicate of it, under its old id', async () => {
    const r = await postCallEvent(h, callEnded(CAMPAIGN, { callId: 'call_fixture', contactId: 'ct_fixture' }), { agencyId: AGENCY });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ callId: 'call_fixture', duplicate: true, workflowId: OLD_RUN });
    // The run re-started from its stored input found every effect recorded under its old keys: nothing acted twice.
    await h.temporal!.client.workflow.getHandle(OLD_RUN).result();
    expect((await h.store.crm.getContact(AGENCY, LOCATION, 'ct_fixture'))!.notes).toHaveLength(1);
    expect(h.db.prepare('SELECT count(*) AS n FROM outbox WHERE agency_id = ?').get(AGENCY)).toEqual({ n: 1 });
    expect(h.db.prepare('SELECT count(*) AS n FROM appointments WHERE agency_id = ?').get(AGENCY)).toEqual({ n: 1 });
  });

  it('replays an Idempotency-Key stored before the upgrade', async () => {
    const key = await h.key({ agencyId: AGENCY });
    // The very request the schema-3 code stored under that key.
    const nodes = [{ type: 'add-tag', config: { tags: ['vm-left'] } }, { type: 'add-note', config: { body: 'note {{contact.firstName}}' } }, { type: 'send-sms', config: { body: 'Hi {{contact.firstName}}', fromNumber: '+15125550100' } }, { type: 'book-appointment', config: { durationMinutes: 30 } }];
    const r = await h.api('POST', `/api/agent-builder/agents/${AGENT}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { key, headers: { 'Idempotency-Key': 'fixture-key' }, body: { nodes } });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('idempotent-replayed')).toBe('true');
    expect((await h.store.workflows.get(AGENCY, CAMPAIGN)).graph.nodes).toHaveLength(4);
  });
});

describe('upgrade progress', () => {
  it('names each step that upgrades an existing store, before, during (the long ones) and after it (with its time); a new store has none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-progress-'));
    try {
      const file = path.join(dir, 'app.db');
      fs.copyFileSync(FIXTURE, file);
      const events: UpgradeEvent[] = [];
      openDb(file, (e) => events.push(e)).close();
      // The steps that write the lead-search documents also tell how far they are (the fixture has one lead).
      const rewrites = ['lead-search', 'lead-search-filters', 'lead-search-cadences'];
      const steps = migrations.slice(3).map((m, i) => ({ version: i + 4, name: m.name }));
      expect(events).toEqual(steps.flatMap((s) => [s, ...(rewrites.includes(s.name) ? [{ ...s, done: 1, total: 1, unit: 'leads' }] : []), { ...s, ms: expect.any(Number) }]));
      expect(events.filter((e) => e.version === 12).map(describeUpgrade)).toEqual([
        'upgrading the store to schema 12 (lead-search-cadences)',
        'upgrading the store to schema 12 (lead-search-cadences): 1 of 1 leads',
        expect.stringMatching(/^store at schema 12 \(lead-search-cadences\) in \d+ ms$/),
      ]);
      const fresh: unknown[] = [];
      openDb(path.join(dir, 'new.db'), (e) => fresh.push(e)).close();
      expect(fresh).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a database newer than the code', () => {
  it('is refused with a message naming both versions', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-newer-'));
    const file = path.join(dir, 'app.db');
    const db = new Database(file);
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    expect(() => openDb(file)).toThrow(new RegExp(`schema version ${migrations.length + 1} is newer than this code knows \\(${migrations.length}\\)`));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
