/**
 * What the store file holds of secrets: API keys only as hashes, vendor credentials only sealed
 * (AES-GCM under CREDENTIALS_KEY, bound to their agency, owner and provider). Read from the SQLite
 * file itself, write-ahead log included, as someone holding a copy of the disk would.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Whether these bytes (UTF-8) are anywhere in the database file or its write-ahead log. */
const onDisk = (text: string) => [h.dbFile, `${h.dbFile}-wal`].some((f) => fs.existsSync(f) && fs.readFileSync(f).includes(Buffer.from(text)));

describe('secrets at rest', () => {
  it('an API key is stored as its hash only', async () => {
    const made = await h.api('POST', '/api/keys', { body: { name: 'at rest', role: 'agency_admin', scopes: ['calls:read'] } });
    expect(made.status, made.text).toBe(201);
    const secret: string = made.body.data.secret;
    expect(secret.length).toBeGreaterThan(20);
    expect(onDisk(secret)).toBe(false);
    expect(onDisk(made.body.data.key.id)).toBe(true);
  });

  it('a vendor credential is sealed: its secrets are not in the file, and it opens only as its own row', async () => {
    const authToken = 'twilio-auth-token-at-rest-0123456789';
    await h.services.credentials.put(h.agencyId, 'agency', 'twilio', { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken });
    // The file is readable as written (the row's hint is there in the clear); the token is not.
    expect(onDisk('account …cdef')).toBe(true);
    expect(onDisk(authToken)).toBe(false);
    expect(await h.services.credentials.get(h.agencyId, 'agency', 'twilio')).toMatchObject({ authToken });
    // Copied to another agency's row, the sealed bytes do not open: the seal is bound to its owner.
    h.db.prepare("INSERT INTO credentials (agency_id, owner, provider, sealed, key_id, hint, created_at, updated_at) SELECT 'agy_other_at_rest', owner, provider, sealed, key_id, hint, created_at, updated_at FROM credentials WHERE agency_id = ? AND owner = 'agency' AND provider = 'twilio'").run(h.agencyId);
    await expect(h.services.credentials.get('agy_other_at_rest', 'agency', 'twilio')).rejects.toThrow();
  });
});
