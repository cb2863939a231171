/**
 * Seeds a running instance for scripts/schemathesis.sh, over the public API (and one signed call
 * event), and writes the schemathesis.toml that binds path, query and body parameters to the
 * seeded ids, so most generated requests reach real resources instead of ending in a 404.
 *
 * env: API_URL (http://host:port), API_KEY (an agency_admin key with every scope) of AGENCY_ID,
 * DATA_DIR (the instance's, to read the agency's signing secret), OUT (the config file to write).
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../server/store/sqlite/db.js';
import { sqliteRepositories, openSqliteStore } from '../server/store/sqlite/store.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../server/domain/event-signature.js';

const url = process.env.API_URL!;
const key = process.env.API_KEY!;
const out = process.env.OUT!;
const dataDir = process.env.DATA_DIR!;
const agencyId = process.env.AGENCY_ID!;

async function api(method: string, p: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url + p, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (!res.ok) throw new Error(`seed: ${method} ${p} -> ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function seed(n: number) {
  const locationId = `loc_fuzz_${n}`;
  const project = (await api('POST', '/api/v2/projects', { crm: 'crm_a', locationId, timezone: 'America/Chicago', businessName: `Fuzz Dental ${n}` })).data;
  const agent = (await api('POST', '/api/agent-builder/agents', { name: `Fuzz agent ${n}`, agentType: 'outreach', locationId, capabilityIds: ['appointment_booking', 'live_transfer'] })).data;
  const campaignId = agent.campaignId as string;
  const cadence = (await api('POST', '/api/power-dialer/cadences', { name: `Fuzz cadence ${n}`, steps: [{ delayMinutes: 0 }, { delayMinutes: 240 }] })).data;
  // Closed all week at an hour nobody calls: enrolled leads wait, the sandbox dialer stays quiet.
  await api('PATCH', `/api/agent-builder/projects/${locationId}/campaigns/${campaignId}`, {
    active: true, activeTags: ['fuzz'], inactiveTags: ['stop'], config: { cadenceId: cadence.id },
    callingWindow: { days: [1], start: '3:00', end: '3:01', tz: 'Pacific/Kiritimati' },
  });
  const appended = await api('POST', `/api/agent-builder/agents/${agent.id}/campaign/workflow/outcomes/VOICEMAIL/nodes`, {
    nodes: [{ type: 'add-tag', config: { tags: ['vm'] } }, { type: 'add-note', config: { body: 'left a voicemail' } }],
  });
  const number = (await api('POST', '/api/agent-builder/phone-numbers', { campaignId, areaCode: 512 })).phoneNumber.phoneNumber as string;
  const lead = (await api('POST', '/api/power-dialer/leads', { campaignId, contact: { firstName: 'Ana', phone: '+15125550123', tags: ['fuzz'] } })).data;

  // One finished call, signed as the voice platform signs it, so call and execution ids exist.
  const store = openSqliteStore(path.join(dataDir, 'app.db'));
  const db = store.db;
  // Setup on the SQLite implementation itself, synchronously; the product runs on `store`.
  const repos = sqliteRepositories(db);
  const secret = repos.agencies.get(agencyId)!.signingSecret;
  const callId = `call_fuzz_${n}_${Date.now()}`;
  const raw = JSON.stringify({
    type: 'call.ended',
    call: { callId, campaignId, phoneNumber: '+15125550123', leadName: 'Ana', direction: 'outbound', dateTime: new Date().toISOString(), duration: 30, disposition: 'VOICEMAIL', callSummary: 'voicemail', transcript: 'Agent: hi', fields: [] },
  });
  const ev = await fetch(`${url}/api/events/calls`, { method: 'POST', headers: { 'content-type': 'application/json', [AGENCY_HEADER]: agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw) }, body: raw });
  if (ev.status !== 202) throw new Error(`seed: call event -> ${ev.status} ${await ev.text()}`);
  db.close();
  const executions = (await api('GET', `/api/agent-builder/agents/${agent.id}/campaign/workflow/executions`)).data;
  const executionId = executions[0].id as string;
  return {
    projectId: project.id as string, locationId, agentId: agent.id as string, campaignId, cadenceId: cadence.id as string,
    nodeIds: (appended.workflow.nodes as { id: string }[]).map((x) => x.id), number, leadId: lead._id as string, callId, executionId,
  };
}

const sets = [await seed(1), await seed(2)];
// Keys the fuzzer may revoke: never the one it runs with, or every later request would be a 401.
const spareKeys: string[] = [];
for (let i = 1; i <= 3; i++) spareKeys.push((await api('POST', '/api/keys', { name: `Spare key ${i}`, role: 'agency_admin', scopes: ['calls:read'] })).data.key.id);
const all = <K extends keyof (typeof sets)[number]>(k: K) => sets.flatMap((x) => x[k] as string | string[]);
const list = (values: (string | number)[]) => `[${[...new Set(values)].map((v) => JSON.stringify(v)).join(', ')}]`;

// Dictionaries: a bound parameter takes a seeded value with the given probability, a generated
// one otherwise, so both the found and the not-found paths are exercised.
const dictionaries: Record<string, (string | number)[]> = {
  id: [...all('projectId'), ...all('agentId'), ...all('cadenceId'), ...all('locationId')],
  agentId: all('agentId'),
  locationId: [...all('locationId'), ...all('projectId')],
  campaignId: all('campaignId'),
  nodeId: all('nodeIds'),
  callId: all('callId'),
  number: all('number'),
  executionId: all('executionId'),
  leadId: all('leadId'),
  outcome: ['VOICEMAIL', 'voicemail', 'Voicemail', 'SUCCESS', 'Call Back', 'TRANSFER', 'NO_ACTION'],
  version: [1, 2, 3],
  keyId: spareKeys,
};
const bindings: [string, string][] = [
  ['path.id', 'id'], ['path.agentId', 'agentId'], ['path.locationId', 'locationId'], ['path.campaignId', 'campaignId'],
  ['path.nodeId', 'nodeId'], ['path.callId', 'callId'], ['path.number', 'number'], ['path.executionId', 'executionId'],
  ['path.leadId', 'leadId'], ['path.outcome', 'outcome'], ['path.version', 'version'], ['path.keyId', 'keyId'],
  ['query.locationId', 'locationId'], ['query.campaignId', 'campaignId'], ['query.scheduleId', 'id'],
  ['body.campaignId', 'campaignId'], ['body.locationId', 'locationId'], ['body.nodeId', 'nodeId'], ['body.nodes[*].id', 'nodeId'],
];
const probability = Number(process.env.SEEDED_PROBABILITY ?? '0.8');
const always = new Set(['path.keyId']);


const toml = [
  '# Written by scripts/schemathesis-seed.ts for one run; not kept.',
  `base-url = ${JSON.stringify(url)}`,
  `headers = { Authorization = ${JSON.stringify(`Bearer ${key}`)} }`,
  '',
  ...Object.entries(dictionaries).flatMap(([name, values]) => [`[dictionaries.${name}]`, `values = ${list(values)}`, '']),
  '[parameters]',
  ...bindings.map(([param, dict]) => `${JSON.stringify(param)} = { dictionary = ${JSON.stringify(dict)}, probability = ${always.has(param) ? 1 : probability} }`),
  '',
  // schemathesis's own list, 413 (a body over 1 MB is refused before it is parsed: a string made
  // longer than its maxLength can make it one) and 431 (a request line or headers over 16 KB).
  '[checks.negative_data_rejection]',
  `expected-statuses = ${list(['400', '401', '403', '404', '405', '406', '409', '413', '415', '422', '428', '429', '431', '5xx'])}`,
  '',
].join('\n');
fs.writeFileSync(out, toml);
process.stdout.write(`seeded ${sets.length} project/agent/campaign sets; config in ${out}\n`);
