/**
 * Lead lists on Postgres at 1,000,000 leads: p50 / p99 of one page (count + rows, as the route
 * runs it) through the Postgres store's repository, the same shapes and data as bench/lead-list.ts
 * measures on SQLite, each with the plans Postgres chose. Part of `npm run bench`, or alone; it
 * makes its own throwaway cluster (test/helpers/postgres-cluster.ts) unless BENCH_PG_URL names a
 * database.
 *
 *   npx tsx bench/lead-list-postgres.ts     # BENCH_LEADS=1000000 BENCH_ITERATIONS=200
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openPostgresStore } from '../server/store/postgres/store.js';
import type { LeadPageQuery, LeadRecord } from '../server/store/index.js';
import { searchText } from '../server/store/shared.js';
import type { LeadCallStatus } from '../schemas/cadence.js';
import { emit, percentile } from './figures.js';
import { seededRandom } from '../test/helpers/random.js';
import { startPostgresCluster } from '../test/helpers/postgres-cluster.js';
import { leadRecord } from '../test/helpers/leads.js';

const FIRST = ['ana', 'bo', 'cy', 'dana', 'eli', 'fay', 'gus', 'hana', 'ivo', 'jo', 'kai', 'lea', 'max', 'nia', 'olu', 'pia', 'quin', 'ravi', 'sam', 'tess'];
const LAST = ['garcia', 'smith', 'nguyen', 'kim', 'lopez', 'brown', 'okafor', 'patel', 'rossi', 'novak', 'silva', 'khan', 'meyer', 'diaz', 'sato', 'haddad', 'ivanova', 'murphy', 'chen', 'adeyemi'];
const CADENCES = ['cad_daily', 'cad_weekly'];
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const COLUMNS = ['id', 'agency_id', 'project_id', 'campaign_id', 'contact_id', 'queue_id', 'cadence_id', 'cadence_step', 'call_status', 'next_call_time', 'timezone', 'first_name', 'full_name', 'email', 'phone', 'live', 'caller_preference', 'tags', 'location_id', 'business_name', 'pipeline', 'campaign_name', 'search', 'created_at', 'updated_at'];
const TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'int', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'bool', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text'];

const pct = (xs: number[], q: number) => percentile([...xs].sort((a, b) => a - b), q);

export async function run(): Promise<void> {
  const count = Number(process.env.BENCH_LEADS || 1_000_000);
  const perShape = Number(process.env.BENCH_ITERATIONS || 200);
  const cluster = process.env.BENCH_PG_URL ? null : await startPostgresCluster({ settings: { shared_buffers: '1GB', maintenance_work_mem: '256MB', max_wal_size: '4GB' } });
  let url = process.env.BENCH_PG_URL;
  if (cluster) {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    url = cluster.url.replace(/\/postgres$/, '/bench');
  }
  const store = await openPostgresStore(url!, { poolSize: 4 });
  try {
    const agencyId = 'bench';
    await store.agencies.ensure(agencyId, 'Bench Agency', 100);
    const campaigns: { id: string; projectId: string; locationId: string; name: string; cadenceId: string }[] = [];
    for (let p = 0; p < 4; p++) {
      const project = await store.projects.insert({ agencyId, crm: 'crm_a', locationId: `loc_bench_${p}`, timezone: 'America/Chicago', agencyName: 'Bench', active: true, status: 'live', installed: true, businessName: `Clinic ${p}` });
      const agent = await store.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'a', agentType: 'outreach', capabilities: [], campaignId: null, postCallFields: [] });
      for (let c = 0; c < 10; c++) {
        const campaign = await store.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: `Campaign ${p}.${c}`, activeTags: ['new-lead'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: {} });
        campaigns.push({ id: campaign.id, projectId: project.id, locationId: project.locationId, name: campaign.name, cadenceId: CADENCES[c % 2]! });
      }
    }
    const random = seededRandom(42);
    const statuses: LeadCallStatus[] = ['scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'calling', 'callback', 'waiting_for_window', 'completed', 'exhausted'];
    const base = Date.UTC(2026, 0, 1);
    const lead = (i: number): LeadRecord => {
      const campaign = campaigns[Math.floor(random() * campaigns.length)]!;
      const first = FIRST[Math.floor(random() * FIRST.length)]!;
      const last = LAST[Math.floor(random() * LAST.length)]!;
      const status = statuses[Math.floor(random() * statuses.length)]!;
      const at = new Date(base + i * 1000).toISOString();
      return leadRecord({
        id: `lead_${i.toString(36).padStart(8, '0')}`, agencyId, projectId: campaign.projectId, campaignId: campaign.id, contactId: `ct_${i}`, queueId: `queue_${campaign.id}`,
        cadenceId: campaign.cadenceId, cadenceStep: Math.floor(random() * 5), callStatus: status, fullName: `${cap(first)} ${cap(last)}`, firstName: cap(first),
        email: `${first}.${last}${i}@example.net`, phone: `+1512${String(2_000_000 + i).padStart(7, '0')}`, tags: ['new-lead'], locationId: campaign.locationId,
        businessName: 'Clinic', campaignName: campaign.name, createdAt: at,
      });
    };

    // The product's own insert, one lead per statement, for its rate; the rest in bulk (setup only).
    const sample = Math.min(5_000, count);
    let started = performance.now();
    for (let i = 0; i < sample; i++) await store.leads.insert(lead(i));
    const perLeadMs = (performance.now() - started) / sample;
    emit({ name: 'lead-list-pg.insert', value: 1000 / perLeadMs, unit: 'leads/s', baseline: null, against: `${sample} leads through the repository, one statement each (autocommit), 8 btree and 2 trigram GIN indexes besides the keys, and the list-count trigger's change row` });
    process.stderr.write(`[lead-list-pg] ${sample} leads through the repository at ${(1000 / perLeadMs).toFixed(0)}/s; bulk-loading the rest...\n`);
    started = performance.now();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const BATCH = 10_000;
    for (let from = sample; from < count; from += BATCH) {
      const cols: unknown[][] = COLUMNS.map(() => []);
      for (let i = from; i < Math.min(count, from + BATCH); i++) {
        const l = lead(i);
        const row = [l.id, l.agencyId, l.projectId, l.campaignId, l.contactId, l.queueId, l.cadenceId, l.cadenceStep, l.callStatus, l.nextCallTime, l.timezone, l.firstName, l.fullName, l.email, l.phone, l.live, l.callerPreference, JSON.stringify(l.tags), l.locationId, l.businessName, l.pipeline, l.campaignName, searchText(l), l.createdAt, l.updatedAt];
        row.forEach((v, k) => cols[k]!.push(v));
      }
      await client.query(`INSERT INTO leads (${COLUMNS.join(', ')}) SELECT * FROM unnest(${TYPES.map((t, k) => `$${k + 1}::${t}[]`).join(', ')})`, cols);
      if (((from - sample) / BATCH) % 10 === 0) process.stderr.write(`[lead-list-pg] ${from + BATCH} leads\n`);
    }
    await client.query('VACUUM ANALYZE leads');
    await client.end();
    process.stderr.write(`[lead-list-pg] ${count} leads loaded and vacuumed in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

    const campaignIds = campaigns.map((c) => c.id);
    const projectIds = [...new Set(campaigns.map((c) => c.projectId))];
    const limit = 25;
    const shapes: { name: string; query: (i: number) => LeadPageQuery }[] = [
      { name: 'page-search', query: (i) => ({ agencyId, mode: 'pipeline', cadenceStep: 0, search: LAST[i % LAST.length]!, limit, offset: (i % 5) * limit }) },
      { name: 'page-search-rare', query: (i) => ({ agencyId, mode: 'pipeline', cadenceStep: 0, search: `${LAST[i % LAST.length]!}${100 + (i % 50)}`, limit, offset: 0 }) },
      { name: 'page-campaignIds', query: (i) => ({ agencyId, mode: 'pipeline', cadenceStep: 1, campaignIds: campaignIds.slice(i % 30, (i % 30) + 3), limit, offset: (i % 5) * limit }) },
      { name: 'page-campaignId-search', query: (i) => ({ agencyId, mode: 'pipeline', cadenceStep: 0, campaignIds: [campaignIds[i % 40]!], search: LAST[i % LAST.length]!, limit, offset: 0 }) },
      { name: 'page-project-search', query: (i) => ({ agencyId, mode: 'pipeline', cadenceStep: 0, projectIds: [projectIds[i % 4]!], search: LAST[i % LAST.length]!, limit, offset: 0 }) },
      { name: 'page-cadence-search', query: (i) => ({ agencyId, mode: 'pipeline', cadenceStep: 0, cadenceId: CADENCES[i % 2]!, search: LAST[i % LAST.length]!, limit, offset: 0 }) },
      { name: 'page-step', query: (i) => ({ agencyId, mode: 'pipeline', cadenceStep: 2, limit, offset: (i % 5) * limit }) },
    ];
    for (const shape of shapes) {
      const plan = await store.leadSearch.explain(shape.query(0));
      process.stderr.write(`[lead-list-pg] ${shape.name}:\n  count: ${plan.count}\n  page: ${plan.page}\n`);
      for (let i = 0; i < 20; i++) await store.leadSearch.page(shape.query(i));
      const xs: number[] = [];
      for (let i = 0; i < perShape; i++) {
        const t = performance.now();
        await store.leadSearch.page(shape.query(i));
        xs.push(performance.now() - t);
      }
      const total = (await store.leadSearch.page(shape.query(0))).total;
      for (const q of [50, 99]) {
        emit({ name: `lead-list-pg.${shape.name}.p${q}`, value: pct(xs, q), unit: 'ms', baseline: null, against: `${perShape} pages of ${limit} through the Postgres store (count and rows side by side); ${total} matching leads at ${count} leads`, plan: `count: ${plan.count} ; page: ${plan.page}` });
      }
    }
  } finally {
    await store.close();
    cluster?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
