import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteRepositories } from '../../server/store/sqlite/store.js';
import { openDb, type Db } from '../../server/store/sqlite/db.js';

/**
 * A step's `attempts` counts the attempts that started. Temporal numbers an activity's attempts, but
 * a local activity cut off by a dead worker starts again at 1 when the workflow task is retried, so
 * the number alone would hide the attempt that died.
 */
let dir: string;
let db: Db;
let repos: ReturnType<typeof sqliteRepositories>;
let n = 0;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-execution-steps-'));
  db = openDb(path.join(dir, 'app.db'));
  repos = sqliteRepositories(db);
  repos.agencies.ensure('ag_one', 'ag_one', 10);
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh execution and a recorder of its step 1 (an SMS). */
function step() {
  const id = `ex_${++n}`;
  repos.executions.create({ id, agencyId: 'ag_one', workflowId: `post-call:ag_one:call_${n}`, campaignId: 'cmp', agentId: 'agt', callId: `call_${n}`, outcome: 'VOICEMAIL', graphVersion: 1 });
  const base = { executionId: id, seq: 1, nodeId: 'sms', nodeType: 'send-sms' };
  return {
    started: (attempt: number) => repos.executions.stepStarted({ ...base, attempt, input: { body: 'Hi' } }),
    finished: (attempt: number, status: 'succeeded' | 'failed') => repos.executions.stepFinished({ ...base, attempt, status, ...(status === 'failed' ? { error: 'carrier timed out' } : { output: { sid: 'SM1' } }) }),
    read: () => repos.executions.get('ag_one', id)!.steps[0]!,
  };
}

describe('execution steps count the attempts that started', () => {
  it('numbered attempts (activities): a failure, then a second attempt that succeeds', () => {
    const s = step();
    s.started(1);
    s.finished(1, 'failed');
    expect(s.read()).toMatchObject({ status: 'failed', attempts: 1, error: 'carrier timed out' });
    s.started(2);
    expect(s.read()).toMatchObject({ status: 'running', attempts: 2, error: null });
    s.finished(2, 'succeeded');
    expect(s.read()).toMatchObject({ status: 'succeeded', attempts: 2, output: { sid: 'SM1' }, input: { body: 'Hi' } });
  });

  it('an activity attempt that died unfinished, then attempt 2: two attempts', () => {
    const s = step();
    s.started(1);
    s.started(2);
    s.finished(2, 'succeeded');
    expect(s.read()).toMatchObject({ status: 'succeeded', attempts: 2 });
  });

  it('a local activity re-run from 1 after its worker died mid-attempt: two attempts, and a later failure makes three', () => {
    const s = step();
    s.started(1);
    s.started(1);
    expect(s.read()).toMatchObject({ status: 'running', attempts: 2 });
    s.finished(1, 'failed');
    expect(s.read()).toMatchObject({ status: 'failed', attempts: 2 });
    s.started(2);
    s.finished(2, 'succeeded');
    expect(s.read()).toMatchObject({ status: 'succeeded', attempts: 3 });
  });

  it('a local activity that finished but whose result the dead worker never reported runs again: two attempts', () => {
    const s = step();
    s.started(1);
    s.finished(1, 'succeeded');
    s.started(1);
    s.finished(1, 'succeeded');
    expect(s.read()).toMatchObject({ status: 'succeeded', attempts: 2 });
  });
});
