/**
 * The product as `npm start` runs it (server/main.ts, API + worker in one process, embedded
 * defaults) with GHL_BASE_URL pointing at Prism serving GoHighLevel's own documents: connect a
 * crm_a project with a token, append actions, post a signed call.ended. The execution history shows
 * each step succeeded with the vendor's (documented) response, and every request the product sent
 * conformed to the vendor's document.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDb } from '../../server/store/sqlite/db.js';
import { sqliteRepositories } from '../../server/store/sqlite/store.js';
import { SCOPES } from '../../server/store/index.js';
import { freePort } from '../../server/temporal/launcher.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../../server/domain/event-signature.js';
import { requestViolations, startPrismMocks, type PrismMocks } from '../helpers/prism.js';
import { waitFor } from '../helpers/power-dialer.js';

const root = path.resolve(import.meta.dirname, '../..');
const docs = path.join(root, 'test/fixtures/vendor-openapi/gohighlevel/apps');
// The documents' own example ids, so Prism's answers describe one consistent location.
const LOCATION = 've9EPM428h8vShlRW1KT';
const CONTACT = 'ocQHyuzHvysMo5N5VsXc';
const TOKEN = 'pit-prism-demo-token-0123456789';

let mocks: PrismMocks;
let product: ChildProcess | null = null;
let url = '';
let key = '';
let secret = '';
let dir = '';
let output = '';

beforeAll(async () => {
  mocks = await startPrismMocks(['contacts', 'opportunities', 'conversations', 'calendars', 'locations'].map((app) => ({ prefix: `/${app}`, document: path.join(docs, `${app}.json`) })));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-prism-'));
  // An agency and its admin key in the product's own store, as `npm run apikey` would make them.
  const db = openDb(path.join(dir, 'app.db'));
  const repos = sqliteRepositories(db);
  const agency = repos.agencies.ensure('prism', 'Prism Agency', 5);
  secret = agency.signingSecret;
  key = repos.apiKeys.create({ agencyId: agency.id, name: 'e2e', role: 'agency_admin', scopes: [...SCOPES], projectIds: [] }).secret;
  db.close();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  product = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
    cwd: root,
    env: {
      ...process.env, DATA_DIR: dir, PORT: String(port), SEED_DEMO: 'false', LOG_LEVEL: 'info',
      GHL_BASE_URL: mocks.url, TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE: `prism-${process.pid}-${Date.now()}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    product!.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('API on')) resolve();
    });
    product!.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    product!.once('exit', (code) => reject(new Error(`the product exited with ${code}:\n${output}`)));
  });
});
afterAll(async () => {
  if (product) {
    const exited = new Promise((r) => product!.once('exit', r));
    product.kill('SIGINT');
    await exited;
  }
  await mocks?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function api(method: string, p: string, body?: unknown) {
  const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('npm start against a Prism mock of GoHighLevel', () => {
  it('connects with a token, runs a post-call chain on the vendor, and records each vendor response', async () => {
    const project = await api('POST', '/api/v2/projects', { crm: 'crm_a', locationId: LOCATION, credentials: { token: TOKEN } });
    expect(project.status, JSON.stringify(project.body)).toBe(200);
    expect(project.body.data.crm_a).toMatchObject({ id: LOCATION, name: expect.any(String) });
    const agent = await api('POST', '/api/agent-builder/agents', { name: 'Front desk', agentType: 'outreach', locationId: LOCATION, capabilityIds: ['appointment_booking'] });
    expect(agent.status).toBe(200);
    const campaignId = agent.body.data.campaignId as string;
    await api('PATCH', `/api/agent-builder/projects/${LOCATION}/campaigns/${campaignId}`, { fromNumbers: ['+15125550100'] });
    const appended = await api('POST', `/api/agent-builder/agents/${agent.body.data.id}/campaign/workflow/outcomes/SUCCESS/nodes`, {
      nodes: [
        { type: 'add-tag', config: { tags: ['booked'] } },
        { type: 'set-field', config: { field: 'contact.pincode', value: '{{call.fields.pincode}}' } },
        { type: 'move-stage', config: { pipelineId: 'VDm7RPYC2GLUvdpKmBfC', stageId: 'stage-won' } },
        { type: 'add-note', config: { body: 'Booked by the voice agent: {{call.callSummary}}' } },
        { type: 'send-sms', config: { body: 'See you soon, {{contact.firstName}}!' } },
        { type: 'book-appointment', config: { calendarId: 'ocQHyuzHvysMo5N5VsXc', durationMinutes: 60 } },
      ],
    });
    expect(appended.status, JSON.stringify(appended.body)).toBe(200);

    const raw = JSON.stringify({
      type: 'call.ended',
      call: {
        callId: `prism-call-${Date.now()}`, campaignId, contactId: CONTACT, phoneNumber: '+18832327657', disposition: 'SUCCESS', dateTime: new Date().toISOString(),
        callSummary: 'wants a cleaning', fields: [{ key: 'appointment_time', value: '2024-10-28T15:00:00.000Z' }, { key: 'pincode', value: '94107' }],
      },
    });
    const accepted = await fetch(`${url}/api/events/calls`, { method: 'POST', headers: { 'content-type': 'application/json', [AGENCY_HEADER]: 'prism', [SIGNATURE_HEADER]: signPayload(secret, raw) }, body: raw });
    expect(accepted.status, await accepted.clone().text()).toBe(202);

    const run = await waitFor('the post-call run to finish', async () => {
      const list = await api('GET', `/api/agent-builder/agents/${agent.body.data.id}/campaign/workflow/executions`);
      const r = list.body.data[0];
      return r && r.status !== 'running' ? r : undefined;
    }, 60_000);
    expect(run.status, JSON.stringify(run)).toBe('succeeded');
    expect(run.steps.map((s: { nodeType: string; status: string }) => [s.nodeType, s.status])).toEqual([
      ['add-tag', 'succeeded'], ['set-field', 'succeeded'], ['move-stage', 'succeeded'], ['add-note', 'succeeded'], ['send-sms', 'succeeded'], ['book-appointment', 'succeeded'],
    ]);
    // The vendor's own answers, as its document's examples give them.
    const out = Object.fromEntries(run.steps.map((s: { nodeType: string; output: unknown }) => [s.nodeType, s.output]));
    expect(out['add-note']).toMatchObject({ noteId: expect.any(String) });
    expect(out['send-sms']).toMatchObject({ messageId: expect.any(String) });
    expect(out['book-appointment']).toMatchObject({ appointmentId: expect.any(String), calendarId: 'ocQHyuzHvysMo5N5VsXc' });
    // Every request the product sent conformed to GoHighLevel's documents.
    expect(mocks.exchanges.length).toBeGreaterThan(10);
    expect(mocks.exchanges.flatMap(requestViolations)).toEqual([]);
    expect(output).not.toContain(TOKEN);
  });
});
