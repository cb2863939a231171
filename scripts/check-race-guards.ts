/**
 * Shows that each race test of test/store/postgres-concurrency.test.ts depends on its guard: for
 * every guard, removes it from the source (a text edit), runs the tests that race it, expects them
 * to FAIL, and puts the file back (`git checkout`). Refuses to run on a work tree with changes, so
 * it never overwrites work. Prints one line per guard; exits non-zero if any test still passed.
 *
 *   npx tsx scripts/check-race-guards.ts [M1 M7 ...]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const P = 'server/store/postgres/';

interface Guard {
  id: string;
  what: string;
  edits: [file: string, from: string, to: string][];
  /** the tests (a -t pattern) that must fail without it */
  tests: string;
}

const GUARDS: Guard[] = [
  { id: 'M1', what: 'graph write: store not conditional on the version read', edits: [[`${P}workflows.ts`, '\n  WHERE workflows.version = $3 - 1 AND workflows.agency_id = $2`', '`']], tests: 'graph writes' },
  { id: 'M2', what: "agencies.lockForUpdate a no-op", edits: [[`${P}agencies.ts`, "await sql.one('SELECT 1 FROM agencies WHERE id = $1 FOR UPDATE', [id]);", 'void id;']], tests: 'plan slots|connected twice' },
  { id: 'M3', what: 'projects: forUpdate ignored', edits: [[`${P}projects.ts`, "(opts?.forUpdate ? ' FOR UPDATE' : '')", "(opts?.forUpdate ? '' : '')"]], tests: 'project PATCH' },
  { id: 'M4', what: 'campaigns: forUpdate ignored', edits: [[`${P}campaigns.ts`, "${opts?.forUpdate ? ' FOR UPDATE' : ''}", "${opts?.forUpdate ? '' : ''}"]], tests: 'campaign PATCH|assigned to one campaign' },
  { id: 'M5', what: 'agents: forUpdate ignored', edits: [[`${P}agents.ts`, "(opts?.forUpdate ? ' FOR UPDATE' : '')", "(opts?.forUpdate ? '' : '')"]], tests: 'agent PATCH' },
  {
    id: 'M6', what: 'contact found or created by phone without its advisory lock',
    edits: [[`${P}crm.ts`, "await tx.one(\"SELECT pg_advisory_xact_lock(hashtextextended('contact-phone:' || $1 || ':' || $2 || ':' || $3, 0))\", [agencyId, input.locationId, input.phone]);", '']],
    tests: 'one new number',
  },
  {
    id: 'M7', what: 'bookings without the exclusion constraint (check, then insert)',
    edits: [
      [`${P}migrations/001-schema.ts`, ',\n      CONSTRAINT appointments_no_overlap EXCLUDE USING gist (agency_id WITH =, location_id WITH =, calendar_id WITH =, tstzrange(starts_at, ends_at) WITH &&)', ''],
      [`${P}appointments.ts`, '    bookIfFree: async (a) =>\n      (await sql.run(', "    bookIfFree: async (a) =>\n      !(await sql.one('SELECT 1 FROM appointments WHERE agency_id = $1 AND location_id = $2 AND calendar_id = $3 AND starts_at < $4 AND ends_at > $5', [a.agencyId, a.locationId, a.calendarId, a.endsAt, a.startsAt])) && (await sql.run("],
      [`${P}appointments.ts`, ' ON CONFLICT ON CONSTRAINT appointments_no_overlap DO NOTHING`', '`'],
    ],
    tests: 'overlapping slots',
  },
  { id: 'M8', what: 'sandbox take without "still unsold"', edits: [[`${P}number-inventory.ts`, " AND bought_by IS NULL', [agencyId, phoneNumber]", "', [agencyId, phoneNumber]"]], tests: 'sold once' },
  {
    id: 'M8b', what: "sandbox buy ignoring take's answer (as before)",
    edits: [['server/adapters/sandbox-voice-numbers.ts', 'if (!(await tx.numberInventory.take(req.agencyId, chosen.phoneNumber))) throw new PermanentPortError(`${chosen.phoneNumber} is not available`);', 'await tx.numberInventory.take(req.agencyId, chosen.phoneNumber);']],
    tests: 'sold once',
  },
  { id: 'M9', what: 'failed run read without FOR UPDATE', edits: [[`${P}executions.ts`, "${opts?.forUpdate ? ' FOR UPDATE' : ''}", "${opts?.forUpdate ? '' : ''}"]], tests: 'finished twice' },
  {
    id: 'M10', what: "Idempotency-Key claimed as SQLite does it (read, delete, plain insert)",
    edits: [[`${P}idempotency.ts`, '        const claimed = await sql.run(', `        const seen = await sql.one<Row & { created_at: string }>('SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE agency_id = $1 AND idem_key = $2', [agencyId, key]);
        if (seen && Date.now() - Date.parse(seen.created_at) < RETENTION_MS) return claimOf(seen);
        if (seen) await sql.run('DELETE FROM idempotency_keys WHERE agency_id = $1 AND idem_key = $2', [agencyId, key]);
        await sql.run("INSERT INTO idempotency_keys (agency_id, idem_key, fingerprint, status, body, created_at) VALUES ($1, $2, $3, 0, '', $4)", [agencyId, key, fingerprint, nowIso()]);
        return null;
        const claimed = await sql.run(`]],
    tests: 'Idempotency-Key',
  },
  {
    id: 'M11', what: 'Idempotency-Key taken over without the age and lease conditions',
    edits: [[`${P}idempotency.ts`, '\n           WHERE idempotency_keys.created_at <= $5\n              OR (idempotency_keys.status = 0 AND (idempotency_keys.lease_until IS NULL OR idempotency_keys.lease_until < $4))`', ' WHERE $5::text IS NOT NULL AND $4::text IS NOT NULL`']],
    tests: 'Idempotency-Key|lease ran out',
  },
  {
    id: 'M12', what: 'migrations without the advisory lock',
    edits: [
      [`${P}migrate.ts`, "    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);\n", ''],
      [`${P}migrate.ts`, "      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]);\n", ''],
    ],
    tests: 'four processes',
  },
  { id: 'M13', what: 'demo seed guarded by ensure (as before)', edits: [['server/domain/seed.ts', "    if (!(await repos.agencies.create(DEMO_AGENCY, 'Demo Agency', planLimit))) return undefined;", "    await repos.agencies.ensure(DEMO_AGENCY, 'Demo Agency', planLimit);"]], tests: 'four processes' },
  { id: 'M14', what: 'agencies.create as a plain insert', edits: [[`${P}agencies.ts`, ' ON CONFLICT (id) DO NOTHING RETURNING', ' RETURNING']], tests: 'four processes' },
  { id: 'M15', what: 'a named lease taken whoever holds it', edits: [[`${P}leases.ts`, '\n           WHERE leases.expires_at < $4 OR leases.holder = excluded.holder`', ' WHERE $4::text IS NOT NULL`']], tests: 'named lease' },
];

const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim();
if (dirty) {
  process.stderr.write(`the work tree has changes; commit or stash them first (this script puts files back with git checkout):\n${dirty}\n`);
  process.exit(2);
}
const only = process.argv.slice(2);
let stillPassed = 0;
for (const g of GUARDS.filter((x) => only.length === 0 || only.includes(x.id))) {
  const files = [...new Set(g.edits.map(([f]) => f))];
  try {
    for (const [file, from, to] of g.edits) {
      const full = path.join(root, file);
      const text = fs.readFileSync(full, 'utf8');
      if (!text.includes(from)) throw new Error(`${g.id}: the guard's text is not in ${file} any more; update this script`);
      fs.writeFileSync(full, text.replace(from, to));
    }
    const run = spawnSync('npx', ['vitest', 'run', 'test/store/postgres-concurrency.test.ts', '-t', g.tests], { cwd: root, encoding: 'utf8' });
    const out = (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, '');
    const summary = out.split('\n').find((l) => l.trim().startsWith('Tests '))?.trim() ?? '(no summary)';
    // Failed as tests (a count of failed tests), not as a file that could not load.
    const failed = run.status !== 0 && /\b\d+ failed\b/.test(summary);
    if (!failed) stillPassed += 1;
    process.stdout.write(`${g.id} ${g.what}: ${failed ? 'FAILS without it, as it must' : run.status !== 0 ? 'did not run' : 'STILL PASSES without it'} (${summary})\n`);
  } finally {
    execFileSync('git', ['checkout', '--', ...files], { cwd: root });
  }
}
process.exit(stillPassed ? 1 : 0);
