/**
 * Records Temporal histories of representative post-call runs into test/fixtures/histories, for the
 * replay test: a later change to the workflow code that would break runs in flight fails that test
 * unless it is guarded with `patched`. Run with `npx tsx scripts/record-histories.ts` after a
 * deliberate, patched change, to add the new shape beside the old ones (never replace old files).
 */
import fs from 'node:fs';
import { postCallWorkflowId } from '../engine/workflows/post-call-types.js';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { findTemporalCli, startDevServer } from '../server/temporal/launcher.js';
import { connectTemporal } from '../server/temporal/client.js';
import { createWorker } from '../server/temporal/worker.js';
import { openDb } from '../server/store/sqlite/db.js';
import { sqliteRepositories, openSqliteStore } from '../server/store/sqlite/store.js';
import { composeProviders, composeServices } from '../server/compose.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { acceptCallEnded } from '../server/domain/calls/accept-call-ended.js';
import { signPayload } from '../server/domain/event-signature.js';

Runtime.install({ logger: new DefaultLogger('WARN') });
const out = path.resolve(import.meta.dirname, '../test/fixtures/histories');
const tag = process.argv[2] ?? 'v1';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));
const server = await startDevServer({ uiPort: null });
const store = openSqliteStore(path.join(dir, 'app.db'));
const db = store.db;
// Setup on the SQLite implementation itself, synchronously; the product runs on `store`.
const repos = sqliteRepositories(db);
const config = { ...loadConfig({}), taskQueue: 'record', dataDir: dir };
const providers = composeProviders(config, store, createLogger('silent'));
const ports = providers.ports;
const temporal = await connectTemporal(server.address, 'default', 'record');
const { worker } = await createWorker({ address: server.address, namespace: 'default', taskQueue: 'record', ports });
const running = worker.run();
const s = composeServices({ config, store, providers, temporal, logger: createLogger('silent') });

const agency = repos.agencies.ensure('rec', 'Recorder', 10);
const project = repos.projects.insert({ agencyId: agency.id, crm: 'crm_a', locationId: 'loc_rec', timezone: 'America/Chicago', agencyName: 'R', businessName: 'Bright Smile Dental', active: true, status: 'live', installed: true });
const agent = repos.agents.insert({ agencyId: agency.id, projectId: project.id, locationId: 'loc_rec', name: 'A', agentType: 'outreach', capabilities: ['appointment_booking'], campaignId: null, postCallFields: [] });
const campaign = repos.campaigns.insert({ agencyId: agency.id, projectId: project.id, agentId: agent.id, name: 'C', activeTags: [], inactiveTags: [], dialing: 'pd', agentType: 'appointment_booking', fromNumbers: ['+15125550100'], active: true, config: { calendarId: 'cal' } });
const contact = repos.crm.createContact(agency.id, { locationId: 'loc_rec', firstName: 'Ana', phone: '+15125550123', email: 'ana@clinic.dental', tags: ['vip'] });

const p = (i: number) => ({ x: 0, y: i * 140 });
const graph = {
  nodes: [
    { id: 'sms', type: 'send-sms', config: { body: 'Hi {{contact.firstName}}' }, position: p(0) },
    { id: 'tag', type: 'add-tag', config: { tags: ['vm-left'] }, position: p(1) },
    { id: 'cond', type: 'if', config: { match: 'all', conditions: [{ field: 'call.fields.callback_time', op: 'exists' }] }, position: p(0) },
    { id: 'set', type: 'set-field', config: { field: 'contact.callback_time', value: '{{call.fields.callback_time}}' }, position: p(1) },
    { id: 'draft', type: 'add-tag', config: {}, position: p(2) },
    { id: 'sw', type: 'switch', config: { cases: [{ id: 'vip', label: 'VIP', match: 'any', conditions: [{ field: 'contact.tags', op: 'contains', value: 'vip' }] }] }, position: p(0) },
    { id: 'stage', type: 'move-stage', config: { pipelineId: 'p', stageId: 'booked' }, position: p(1) },
    { id: 'book', type: 'book-appointment', config: { durationMinutes: 30 }, position: p(2) },
    { id: 'note', type: 'add-note', config: { body: '{{call.callSummary}}' }, position: p(3) },
  ],
  edges: [
    { id: 'e1', source: 'sms', target: 'tag' },
    { id: 'e2', source: 'cond', target: 'set', sourceHandle: 'true' },
    { id: 'e3', source: 'cond', target: 'draft', sourceHandle: 'false' },
    { id: 'e4', source: 'sw', target: 'stage', sourceHandle: 'vip' },
    { id: 'e5', source: 'stage', target: 'book' },
    { id: 'e6', source: 'book', target: 'note' },
  ],
  dispositionEntries: { VOICEMAIL: 'sms', CALLBACK: 'cond', SUCCESS: 'sw' },
};
repos.workflows.write({ agencyId: agency.id, campaignId: campaign.id, keyId: null, apply: () => ({ graph: graph as never, summary: 'recorder' }) });

const runs: [string, string, { key: string; value: unknown }[]][] = [
  ['linear-voicemail', 'VOICEMAIL', []],
  ['if-true', 'CALLBACK', [{ key: 'callback_time', value: '2026-12-01T15:00:00Z' }]],
  ['if-false-draft', 'CALLBACK', []],
  ['switch-book-note', 'SUCCESS', [{ key: 'appointment_time', value: '2026-12-02T15:00:00Z' }]],
  ['failed-double-booking', 'SUCCESS', [{ key: 'appointment_time', value: '2026-12-02T15:00:00Z' }]],
];
fs.mkdirSync(out, { recursive: true });
for (const [name, disposition, fields] of runs) {
  const callId = `rec-${name}`;
  const event = { type: 'call.ended' as const, call: { callId, campaignId: campaign.id, contactId: contact.id, phoneNumber: '+15125550123', dateTime: new Date().toISOString(), disposition, fields, callSummary: 'summary' } };
  await acceptCallEnded(s, agency.id, event as never, signPayload(agency.signingSecret, JSON.stringify(event)) + name);
  const handle = temporal.client.workflow.getHandle(postCallWorkflowId(agency.id, callId));
  const result = await handle.result();
  const file = path.join(out, `${tag}-${name}.json`);
  // The CLI's JSON is the format historyFromJSON (and so Worker.runReplayHistory) reads.
  const json = execFileSync(findTemporalCli(), ['workflow', 'show', '--workflow-id', handle.workflowId, '--address', server.address, '--output', 'json']);
  fs.writeFileSync(file, json);
  process.stderr.write(`recorded ${path.relative(process.cwd(), file)} (${JSON.stringify(result)})\n`);
}
process.stderr.write(`appointments: ${JSON.stringify(db.prepare('SELECT calendar_id, starts_at FROM appointments').all())}\n`);
worker.shutdown();
await running;
await temporal.close();
await server.stop();
db.close();
fs.rmSync(dir, { recursive: true, force: true });
