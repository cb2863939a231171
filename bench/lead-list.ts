/**
 * Lead lists at 1,000,000 leads (spec 4.7): p50 / p99 of one page (count + rows, as the route
 * runs it) through the repository, against the list as it was read before migration 010 (count
 * and page both walking the step's partial index; raw better-sqlite3 statements). Every shape
 * prints the statements the repository chose and SQLite's plan for each.
 *
 *   npx tsx bench/lead-list.ts            # BENCH_LEADS=1000000 BENCH_ITERATIONS=100 (per side per round)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sqliteRepositories, openSqliteStore } from '../server/store/sqlite/store.js';
import { openDb, type Db } from '../server/store/sqlite/db.js';
import type { LeadPageQuery, LeadRecord } from '../server/store/index.js';
import { leadListSql } from '../server/store/sqlite/lead-list.js';
import type { LeadCallStatus } from '../schemas/cadence.js';
import { alternate, emit, median, percentile, spreadOf } from './figures.js';
import { seededRandom } from '../test/helpers/random.js';

const FIRST = ['ana', 'bo', 'cy', 'dana', 'eli', 'fay', 'gus', 'hana', 'ivo', 'jo', 'kai', 'lea', 'max', 'nia', 'olu', 'pia', 'quin', 'ravi', 'sam', 'tess'];
const LAST = ['garcia', 'smith', 'nguyen', 'kim', 'lopez', 'brown', 'okafor', 'patel', 'rossi', 'novak', 'silva', 'khan', 'meyer', 'diaz', 'sato', 'haddad', 'ivanova', 'murphy', 'chen', 'adeyemi'];
/** A lead follows its campaign's cadence: alternate campaigns use each. */
const CADENCES = ['cad_daily', 'cad_weekly'];
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

interface World {
  db: Db;
  dir: string;
  agencyId: string;
  campaignIds: string[];
  projectIds: string[];
  insertMs: number;
}

/**
 * An agency with 4 projects x 10 campaigns on two cadences (alternate campaigns) and `count` leads
 * over 5 cadence steps, inserted in one transaction through the repository.
 */
function build(count: number): World {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-bench-leads-'));
  const store = openSqliteStore(path.join(dir, 'app.db'));
  const db = store.db;
  // Setup on the SQLite implementation itself, synchronously; the product runs on `store`.
  const repos = sqliteRepositories(db);
  const agencyId = 'bench';
  repos.agencies.ensure(agencyId, 'Bench Agency', 100);
  const campaigns: { id: string; projectId: string; locationId: string; name: string; cadenceId: string }[] = [];
  for (let p = 0; p < 4; p++) {
    const project = repos.projects.insert({ agencyId, crm: 'crm_a', locationId: `loc_bench_${p}`, timezone: 'America/Chicago', agencyName: 'Bench', active: true, status: 'live', installed: true, businessName: `Clinic ${p}` });
    const agent = repos.agents.insert({ agencyId, projectId: project.id, locationId: project.locationId, name: 'a', agentType: 'outreach', capabilities: [], campaignId: null, postCallFields: [] } as never);
    for (let c = 0; c < 10; c++) {
      const campaign = repos.campaigns.insert({ agencyId, projectId: project.id, agentId: agent.id, name: `Campaign ${p}.${c}`, activeTags: ['new-lead'], inactiveTags: [], dialing: 'pd', agentType: null, fromNumbers: [], active: true, config: {} });
      campaigns.push({ id: campaign.id, projectId: project.id, locationId: project.locationId, name: campaign.name, cadenceId: CADENCES[c % 2]! });
    }
  }
  const random = seededRandom(42);
  const statuses: LeadCallStatus[] = ['scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled', 'calling', 'callback', 'waiting_for_window', 'completed', 'exhausted'];
  const started = performance.now();
  const base = Date.UTC(2026, 0, 1);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const campaign = campaigns[Math.floor(random() * campaigns.length)]!;
      const first = FIRST[Math.floor(random() * FIRST.length)]!;
      const last = LAST[Math.floor(random() * LAST.length)]!;
      const status = statuses[Math.floor(random() * statuses.length)]!;
      const at = new Date(base + i * 1000).toISOString();
      const lead: LeadRecord = {
        id: `lead_${i.toString(36).padStart(8, '0')}`,
        agencyId,
        projectId: campaign.projectId,
        campaignId: campaign.id,
        contactId: `ct_${i}`,
        queueId: `queue_${campaign.id}`,
        cadenceId: campaign.cadenceId,
        cadenceStep: Math.floor(random() * 5),
        callStatus: status,
        nextCallTime: at,
        timezone: 'America/Chicago',
        firstName: cap(first),
        fullName: `${cap(first)} ${cap(last)}`,
        email: `${first}.${last}${i}@example.net`,
        phone: `+1512${String(2_000_000 + i).padStart(7, '0')}`,
        live: !['completed', 'exhausted', 'dropped'].includes(status),
        callerPreference: '',
        tags: ['new-lead'],
        locationId: campaign.locationId,
        businessName: 'Clinic',
        pipeline: '',
        campaignName: campaign.name,
        createdAt: at,
        updatedAt: at,
      };
      repos.leads.insert(lead);
    }
  }).immediate();
  // The search documents, written behind the rows (migration 013), count as part of the insert.
  repos.leadSearch.sync();
  const insertMs = performance.now() - started;
  return { db, dir, agencyId, campaignIds: campaigns.map((c) => c.id), projectIds: [...new Set(campaigns.map((c) => c.projectId))], insertMs };
}

/**
 * Times two implementations of the same work in alternating rounds (bench/figures.ts `alternate`):
 * after a warm-up, ROUNDS rounds of `perRound` calls of each, the order alternating from round to
 * round, so both see the same cache and load. Returns every call's time per round and side.
 */
async function timePair(perRound: number, ours: (i: number) => unknown, raw: (i: number) => unknown) {
  const side = (fn: (i: number) => unknown) => async () => {
    const xs: number[] = [];
    for (let i = 0; i < perRound; i++) {
      const t = performance.now();
      fn(i);
      xs.push(performance.now() - t);
    }
    return xs;
  };
  return alternate({ ours: side(ours), base: side(raw) });
}

const pct = (xs: number[], q: number) => percentile([...xs].sort((a, b) => a - b), q);

/** p50 and p99 over every round's calls; ratio = median of the per-round ratios. */
function emitPair(name: string, against: string, ours: number[][], base: number[][], plan: string) {
  for (const q of [50, 99]) {
    const ratios = ours.map((o, i) => pct(o, q) / pct(base[i]!, q));
    emit({ name: `${name}.p${q}`, value: pct(ours.flat(), q), unit: 'ms', baseline: pct(base.flat(), q), against: `${against}; percentile over all rounds' calls`, ratio: median(ratios), spread: spreadOf(ratios), rounds: ours.length, plan });
  }
}

export async function run(): Promise<void> {
  const count = Number(process.env.BENCH_LEADS || 1_000_000);
  const perRound = Number(process.env.BENCH_ITERATIONS || 100);
  process.stderr.write(`[lead-list] inserting ${count} leads in one transaction...\n`);
  const world = build(count);
  process.stderr.write(`[lead-list] inserted in ${(world.insertMs / 1000).toFixed(1)} s\n`);
  emit({ name: 'lead-list.insert', value: count / (world.insertMs / 1000), unit: 'leads/s', baseline: null, against: 'one transaction through the repository; 9 indexes besides the primary key and the unique (agency, campaign, contact), the list counts kept by triggers, and the search documents they note written in one flush after it (migration 013)' });
  const repos = sqliteRepositories(world.db);
  const limit = 25;

  const shapes: { name: string; query: (i: number) => LeadPageQuery }[] = [
    {
      name: 'page-search',
      // A surname typed into the search box: ~1 in 20 leads carry it.
      query: (i) => ({ agencyId: world.agencyId, mode: 'pipeline', cadenceStep: 0, search: LAST[i % LAST.length]!, limit, offset: (i % 5) * limit }),
    },
    {
      name: 'page-search-rare',
      // An email typed in part: a handful of leads at the step (read by rowid, not walked).
      query: (i) => ({ agencyId: world.agencyId, mode: 'pipeline', cadenceStep: 0, search: `${LAST[i % LAST.length]!}${100 + (i % 50)}`, limit, offset: 0 }),
    },
    {
      name: 'page-campaignIds',
      // A combined view of three campaigns.
      query: (i) => ({ agencyId: world.agencyId, mode: 'pipeline', cadenceStep: 1, campaignIds: world.campaignIds.slice(i % 30, (i % 30) + 3), limit, offset: (i % 5) * limit }),
    },
    {
      name: 'page-campaignId-search',
      // One campaign's leads at a step, searched.
      query: (i) => ({ agencyId: world.agencyId, mode: 'pipeline', cadenceStep: 0, campaignIds: [world.campaignIds[i % 40]!], search: LAST[i % LAST.length]!, limit, offset: 0 }),
    },
    {
      name: 'page-project-search',
      // A project_user key's search: its project (a quarter of the leads at a step), searched.
      query: (i) => ({ agencyId: world.agencyId, mode: 'pipeline', cadenceStep: 0, projectIds: [world.projectIds[i % 4]!], search: LAST[i % LAST.length]!, limit, offset: 0 }),
    },
    {
      name: 'page-cadence-search',
      // One cadence's leads at a step (half of them), searched: counted from the index since
      // migration 012, which names the cadence in each document.
      query: (i) => ({ agencyId: world.agencyId, mode: 'pipeline', cadenceStep: 0, cadenceId: CADENCES[i % 2]!, search: LAST[i % LAST.length]!, limit, offset: 0 }),
    },
    {
      name: 'page-step',
      query: (i) => ({ agencyId: world.agencyId, mode: 'pipeline', cadenceStep: 2, limit, offset: (i % 5) * limit }),
    },
  ];

  for (const shape of shapes) {
    const q0 = shape.query(0);
    const { from, where } = leadListSql(q0);
    const chosen = repos.leadSearch.explain(q0);
    const plan = `count: ${chosen.count} ; page: ${chosen.page ?? '(past the end)'}`;
    process.stderr.write(`[lead-list] ${shape.name}: ${plan}\n`);
    // The baseline: the list as read before migration 010, raw statements prepared once, rows left as they come.
    const rawCount = world.db.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${where}`).pluck();
    const rawPage = world.db.prepare(`SELECT * FROM ${from} WHERE ${where} ORDER BY created_at, id LIMIT @limit OFFSET @offset`);
    const n = shape.name.startsWith('page-search') ? Math.max(20, Math.floor(perRound / 4)) : perRound;
    const { ours, base } = await timePair(
      n,
      (i) => repos.leadSearch.page(shape.query(i)),
      (i) => {
        const q = shape.query(i);
        const { params } = leadListSql(q);
        rawCount.get(params);
        return rawPage.all({ ...params, limit: q.limit, offset: q.offset });
      },
    );
    const total = repos.leadSearch.page(q0).total;
    emitPair(`lead-list.${shape.name}`, `the list as read before migration 010 (count and page walking the step's index; raw statements, page of ${limit}), ${n} calls per side per round; ${total} matching leads`, ours, base, plan);
  }
  world.db.close();
  fs.rmSync(world.dir, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
