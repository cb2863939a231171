/**
 * Records Temporal histories of representative lead cadence runs into test/fixtures/histories
 * (`lead-<tag>-<name>.json`), beside the post-call ones: the replay test replays every file there,
 * so a change to the lead cadence workflow that would break leads in flight fails it unless it is
 * guarded with `patched`. Run with `npx tsx scripts/record-lead-histories.ts [tag]` after a
 * deliberate, patched change, to add the new shape beside the old ones (never replace old files).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createLeadCadenceActivities } from '../engine/activities/lead-cadence.js';
import { leadWorkflowId } from '../engine/workflows/lead-cadence-types.js';
import type { VoicePlatform } from '../engine/ports.js';
import { storeLeadQueue } from '../server/adapters/lead-queue.js';
import { loadConfig } from '../server/config.js';
import { createLogger } from '../server/logger.js';
import { enrol, removeLead, signalCallEnded } from '../server/domain/power-dialer/dialer.js';
import { sqliteRepositories, openSqliteStore } from '../server/store/sqlite/store.js';
import { composeProviders, composeServices } from '../server/compose.js';
import { openDb } from '../server/store/sqlite/db.js';
import { connectTemporal } from '../server/temporal/client.js';
import { findTemporalCli, startDevServer } from '../server/temporal/launcher.js';
import { createWorker } from '../server/temporal/worker.js';

Runtime.install({ logger: new DefaultLogger('WARN') });
const out = path.resolve(import.meta.dirname, '../test/fixtures/histories');
const tag = process.argv[2] ?? 'v1';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-lead-'));
const server = await startDevServer({ uiPort: null });
const store = openSqliteStore(path.join(dir, 'app.db'));
const db = store.db;
// Setup on the SQLite implementation itself, synchronously; the product runs on `store`.
const repos = sqliteRepositories(db);
const config = { ...loadConfig({}), taskQueue: 'record-lead', dataDir: dir, cadenceTimeScale: 60, dialerCallTimeoutSeconds: 60 };
const providers = composeProviders(config, store, createLogger('silent'));
const ports = providers.ports;
const temporal = await connectTemporal(server.address, 'default', config.taskQueue);
const s = composeServices({ config, store, providers, temporal, logger: createLogger('silent') });

// The scripted outcomes per lead: the platform "answers" each call 300 ms after placing it.
const script = new Map<string, { outcome: string; fields?: Record<string, unknown> }[]>();
const voice: VoicePlatform = {
  async placeCall(req) {
    const next = script.get(req.leadId!)?.shift();
    if (next) setTimeout(() => void signalCallEnded(s, req.agencyId, req.leadId!, { callId: req.callId, ...next }), 300);
    return { callId: req.callId };
  },
};
const activities = createLeadCadenceActivities({ voice, leads: storeLeadQueue(store) });
const { worker } = await createWorker({ address: server.address, namespace: 'default', taskQueue: config.taskQueue, ports, activities });
const running = worker.run();

const agency = repos.agencies.ensure('rec', 'Recorder', 10);
const project = repos.projects.insert({ agencyId: agency.id, crm: 'crm_a', locationId: 'loc_rec', timezone: 'America/Chicago', agencyName: 'R', businessName: 'Bright Smile Dental', active: true, status: 'live', installed: true });
const agent = repos.agents.insert({ agencyId: agency.id, projectId: project.id, locationId: 'loc_rec', name: 'A', agentType: 'outreach', capabilities: ['appointment_booking'], campaignId: null, postCallFields: [] });
const campaignWith = (dialing: 's2l' | 'pd', steps: { delayMinutes: number }[]) => {
  const cadence = repos.cadences.insert({ agencyId: agency.id, name: 'rec', steps });
  return repos.campaigns.insert({ agencyId: agency.id, projectId: project.id, agentId: agent.id, name: 'C', activeTags: ['new-lead'], inactiveTags: ['dnc'], dialing, agentType: 'appointment_booking', fromNumbers: ['+15125550100'], active: true, config: { cadenceId: cadence.id } });
};

let n = 0;
const runs: { name: string; dialing: 's2l' | 'pd'; steps: { delayMinutes: number }[]; outcomes: { outcome: string; fields?: Record<string, unknown> }[]; stopAfter?: number }[] = [
  { name: 'pd-voicemail-voicemail-success', dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 1 }, { delayMinutes: 1 }], outcomes: [{ outcome: 'VOICEMAIL' }, { outcome: 'VOICEMAIL' }, { outcome: 'SUCCESS' }] },
  { name: 'pd-exhausted', dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 1 }], outcomes: [{ outcome: 'NO_ACTION' }, { outcome: 'VOICEMAIL' }] },
  { name: 'callback-then-success', dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 600 }], outcomes: [{ outcome: 'CALLBACK', fields: { callback_time: 'later' } }, { outcome: 'SUCCESS' }] },
  { name: 'stopped-mid-cadence', dialing: 'pd', steps: [{ delayMinutes: 0 }, { delayMinutes: 600 }], outcomes: [{ outcome: 'VOICEMAIL' }], stopAfter: 1 },
  { name: 's2l-call-now', dialing: 's2l', steps: [{ delayMinutes: 0 }], outcomes: [{ outcome: 'SUCCESS' }] },
];
fs.mkdirSync(out, { recursive: true });
for (const r of runs) {
  const campaign = campaignWith(r.dialing, r.steps);
  const contact = repos.crm.createContact(agency.id, { locationId: 'loc_rec', firstName: `Lead${++n}`, phone: `+1512555${String(4000 + n)}`, tags: ['new-lead'] });
  // A callback two seconds after the call: decided when the call ends, so the script fills it in then.
  const outcomes = r.outcomes.map((o) => (o.fields?.callback_time === 'later' ? { ...o, get fields() { return { callback_time: new Date(Date.now() + 2000).toISOString() }; } } : o));
  const { lead } = await enrol(s, project, campaign, contact);
  script.set(lead.id, outcomes);
  const handle = temporal.client.workflow.getHandle(leadWorkflowId(lead.id));
  if (r.stopAfter) {
    while (repos.leads.get(agency.id, lead.id)?.cadenceStep !== r.stopAfter) await new Promise((res) => setTimeout(res, 100));
    await removeLead(s, repos.leads.get(agency.id, lead.id)!, 'excluded');
  }
  const result = await handle.result();
  const file = path.join(out, `lead-${tag}-${r.name}.json`);
  // The CLI's JSON is the format historyFromJSON (and so Worker.runReplayHistory) reads.
  const json = execFileSync(findTemporalCli(), ['workflow', 'show', '--workflow-id', handle.workflowId, '--address', server.address, '--output', 'json']);
  fs.writeFileSync(file, json);
  process.stderr.write(`recorded ${path.relative(process.cwd(), file)} (${JSON.stringify(result)})\n`);
}
worker.shutdown();
await running;
await temporal.close();
await server.stop();
db.close();
fs.rmSync(dir, { recursive: true, force: true });
