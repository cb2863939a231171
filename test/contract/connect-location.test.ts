/**
 * Connecting (and reconnecting) a GoHighLevel location against Prism serving GoHighLevel's own
 * Locations document. Prism answers every location read with the document's example, whose id is
 * `ve9EPM428h8vShlRW1KT`: for any other requested location that is exactly a token of another
 * location, which must be refused with nothing stored.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { rowsOf } from '../helpers/state.js';
import { startPrismMocks, type PrismMocks } from '../helpers/prism.js';

const docs = path.resolve(import.meta.dirname, '../fixtures/vendor-openapi/gohighlevel/apps');
const EXAMPLE_LOCATION = 've9EPM428h8vShlRW1KT';
const TOKEN = 'pit-connect-location-token-0123456789';
let mocks: PrismMocks;
let h: Harness;

beforeAll(async () => {
  mocks = await startPrismMocks([{ prefix: '/locations', document: path.join(docs, 'locations.json') }]);
  h = await createHarness({ config: { gohighlevelBaseUrl: mocks.url, defaultPlanLimit: 20 } });
});
afterAll(async () => {
  await h?.close();
  await mocks?.stop();
});

describe('a location read that answers another location', () => {
  it('the location the token reads is connected, crm_a.id being that location', async () => {
    const r = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: EXAMPLE_LOCATION, credentials: { token: TOKEN } } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ locationId: EXAMPLE_LOCATION, crm_a: { id: EXAMPLE_LOCATION } });
  });

  it('connecting is a 400 naming both locations, and nothing is stored', async () => {
    const before = rowsOf(h.db, ['projects', 'credentials']);
    const r = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'loc_requested_1', credentials: { token: TOKEN } } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'VALIDATION' });
    expect(r.body.message).toBe(
      `body.credentials belong to location ${EXAMPLE_LOCATION}, not to body.locationId loc_requested_1: GoHighLevel answered the location read with that location's id. Send the token of location loc_requested_1`,
    );
    expect(mocks.exchanges.at(-1)).toMatchObject({ method: 'GET', path: '/locations/loc_requested_1', status: 200 });
    expect(rowsOf(h.db, ['projects', 'credentials'])).toEqual(before);
  });

  it('reconnecting a project is the same 400, and the project is left as it was', async () => {
    const sandbox = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'loc_requested_2', timezone: 'America/Chicago' } });
    expect(sandbox.status, sandbox.text).toBe(200);
    const before = rowsOf(h.db, ['projects', 'credentials']);
    const r = await h.api('POST', `/api/v2/projects/${sandbox.body.data.id}/reconnect`, { body: { credentials: { token: TOKEN } } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(new RegExp(`^body\\.credentials belong to location ${EXAMPLE_LOCATION}, not to the project's location loc_requested_2: .* Send the token of location loc_requested_2$`));
    expect(rowsOf(h.db, ['projects', 'credentials'])).toEqual(before);
    expect((await h.api('GET', `/api/v2/projects/${sandbox.body.data.id}`)).body.data).toMatchObject({ crm_a: { id: 'loc_requested_2' }, status: 'live' });
  });
});
