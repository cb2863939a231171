/**
 * The verification examples in docs/examples (TypeScript and Python) agree with the product: each
 * accepts what the product signs and refuses a tampered body or another secret, and a delivery
 * signed by the example is accepted by the product's events endpoint.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../../server/domain/event-signature.js';
import { sign as exampleSign } from '../../docs/examples/verify-signature.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const verifiers: [string, string[]][] = [
  ['TypeScript', [process.execPath, '--import', 'tsx', path.join(root, 'docs/examples/verify-signature.ts')]],
  ['Python', ['python3', path.join(root, 'docs/examples/verify_signature.py')]],
];

async function verdict(cmd: string[], secret: string, header: string, body: string) {
  const file = path.join(h.dir, `body-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, body);
  try {
    const { stdout } = await run(cmd[0]!, [...cmd.slice(1), secret, header, file], { cwd: root });
    return stdout.trim();
  } catch (err) {
    return ((err as { stdout?: string }).stdout ?? '').trim() || String(err);
  }
}

describe.each(verifiers)('the %s verification example', (_lang, cmd) => {
  it("accepts the product's signature and refuses a tampered body, another secret and a stale timestamp", async () => {
    const secret = (await h.store.agencies.get(h.agencyId))!.signingSecret;
    const body = JSON.stringify({ type: 'call.started', call: { callId: 'ex-1', campaignId: 'cmp_x', phoneNumber: '+15125550100' } });
    const header = signPayload(secret, body);
    expect(await verdict(cmd, secret, header, body)).toBe('valid');
    expect(await verdict(cmd, secret, header, body.replace('ex-1', 'ex-2'))).toBe('invalid');
    expect(await verdict(cmd, 'whsec_another_secret', header, body)).toBe('invalid');
    expect(await verdict(cmd, secret, signPayload(secret, body, Math.floor(Date.now() / 1000) - 3600), body)).toBe('invalid');
  });
});

it("a delivery signed with the TypeScript example's sign() is accepted by the product", async () => {
  const secret = (await h.store.agencies.get(h.agencyId))!.signingSecret;
  const body = JSON.stringify({ type: 'call.started', call: { callId: 'ex-3', campaignId: 'cmp_x', phoneNumber: '+15125550100' } });
  const r = await h.api('POST', '/api/events/calls', { key: null, rawBody: body, headers: { 'content-type': 'application/json', [AGENCY_HEADER]: h.agencyId, [SIGNATURE_HEADER]: exampleSign(secret, body) } });
  expect(r.status, r.text).toBe(202);
});
