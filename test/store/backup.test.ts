/**
 * `npm run backup -- <file>`: an online copy of the embedded store, taken by another process while
 * the API keeps writing, that opens as a store of its own with everything written before it began.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { createProjectAgentCampaign } from '../helpers/fixtures.js';
import { openSqliteStore } from '../../server/store/sqlite/store.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const backup = (dest: string, env: Record<string, string> = {}) =>
  run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/cli/backup.ts'), dest], { cwd: ROOT, env: { ...process.env, DATA_DIR: h.dir, ...env } });

it('copies the store while the API writes to it: the copy opens, and holds everything written before', async () => {
  const ctx = await createProjectAgentCampaign(h);
  const tag = (i: number) => h.api('POST', `/api/agent-builder/agents/${ctx.agentId}/campaign/workflow/outcomes/VOICEMAIL/nodes`, { body: { nodes: [{ type: 'add-tag', config: { tags: [`t${i}`] } }] } });
  for (let i = 0; i < 20; i++) expect((await tag(i)).status).toBe(200);
  const before = (await h.store.workflows.get(h.agencyId, ctx.campaignId)).version;
  let writing = true;
  let written = 0;
  const writer = (async () => {
    while (writing) if ((await tag(1000 + written++)).status !== 200) throw new Error('a write failed during the backup');
  })();
  const dest = path.join(h.dir, 'copy.db');
  const { stderr } = await backup(dest);
  writing = false;
  await writer;
  expect(stderr).toMatch(/integrity ok/);
  expect(written).toBeGreaterThan(0);
  const copy = openSqliteStore(dest);
  try {
    const version = (await copy.workflows.get(h.agencyId, ctx.campaignId)).version;
    expect(version).toBeGreaterThanOrEqual(before);
    expect(version).toBeLessThanOrEqual(before + written);
    expect((await copy.projects.get(h.agencyId, ctx.projectId))?.id).toBe(ctx.projectId);
  } finally {
    await copy.close();
  }
});

it('never overwrites a file, and sends a Postgres store to pg_dump', async () => {
  const taken = path.join(h.dir, 'taken.db');
  fs.writeFileSync(taken, 'keep me');
  await expect(backup(taken)).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/exists: choose a new file/) });
  expect(fs.readFileSync(taken, 'utf8')).toBe('keep me');
  await expect(backup(path.join(h.dir, 'pg.db'), { DATABASE_URL: 'postgres://db.internal/voice' })).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/pg_dump/) });
});
