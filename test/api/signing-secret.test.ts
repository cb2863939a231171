/**
 * The agency's webhook signing secret: read once and rotated through the API (its own scope) and
 * the CLI; during a rotation's grace period the old and the new secret both verify, after it only
 * the new one.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { SCOPES } from '../../server/store/index.js';
import { signPayload, AGENCY_HEADER, SIGNATURE_HEADER } from '../../server/domain/event-signature.js';
import { waitFor } from '../helpers/power-dialer.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
let h: Harness;
let n = 0;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A call.started event (stores only its own record) signed with `secret`; its status says whether the secret verifies. */
async function signedWith(secret: string, agencyId = h.agencyId) {
  const raw = JSON.stringify({ type: 'call.started', call: { callId: `secret-probe-${++n}-${Date.now()}`, campaignId: 'cmp_probe', phoneNumber: '+15125550100' } });
  const r = await h.api('POST', '/api/events/calls', { key: null, rawBody: raw, headers: { 'content-type': 'application/json', [AGENCY_HEADER]: agencyId, [SIGNATURE_HEADER]: signPayload(secret, raw) } });
  return r.status;
}

const cli = async (...args: string[]) => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(root, 'server/cli/signing-secret.ts'), ...args], { cwd: root, env: { ...process.env, DATA_DIR: h.dir } });
  return stdout.trim();
};

describe('webhook signing secret', () => {
  it('is shown once through the API, to a key with webhooks:write only', async () => {
    const without = await h.key({ scopes: SCOPES.filter((x) => x !== 'webhooks:write') });
    const refused = await h.api('POST', '/api/agency/signing-secret/reveal', { key: without });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('webhooks:write');
    const shown = await h.api('POST', '/api/agency/signing-secret/reveal');
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.data).toMatchObject({ secret: expect.stringMatching(/^whsec_/), header: 'X-Signature' });
    expect(await signedWith(shown.body.data.secret)).toBe(202);
    const again = await h.api('POST', '/api/agency/signing-secret/reveal');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('SecretAlreadyShown');
    expect(again.text).not.toContain(shown.body.data.secret);
  });

  it('rotation: both secrets verify during the grace period, only the new one after it', async () => {
    const old = (await h.store.agencies.get(h.agencyId))!.signingSecret;
    const rotated = await h.api('POST', '/api/agency/signing-secret/rotate', { body: { graceSeconds: 2 } });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(old);
    expect(Date.parse(rotated.body.data.previousValidUntil)).toBeGreaterThan(Date.now());
    expect(await signedWith(fresh)).toBe(202);
    expect(await signedWith(old)).toBe(202);
    // Once the grace period is over the old secret is refused; the new one still verifies.
    await waitFor('the old secret to expire', async () => (await signedWith(old)) === 401, 10_000);
    expect(await signedWith(fresh)).toBe(202);
  });

  it('the CLI reveals once and rotates with a grace period, like the API', async () => {
    const other = `${h.agencyId}_other`;
    const shown = await cli('reveal', '--agency', other);
    expect(shown).toBe((await h.store.agencies.get(other))!.signingSecret);
    await expect(cli('reveal', '--agency', other)).rejects.toThrow(/already shown once/);
    const rotated = await cli('rotate', '--agency', other, '--grace-seconds', '3600');
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(shown);
    expect(await signedWith(rotated, other)).toBe(202);
    expect(await signedWith(shown, other)).toBe(202);
    const noGrace = await cli('rotate', '--agency', other, '--grace-seconds', '0');
    expect(await signedWith(noGrace, other)).toBe(202);
    expect(await signedWith(rotated, other)).toBe(401);
  });
});
