/**
 * Operations that verify credentials with a vendor answer 503 with Retry-After when the vendor
 * cannot be reached, and the OpenAPI document says so for each of them (schemathesis found these
 * 503s undocumented). Every vendor here is a port nothing listens on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { rowsOf } from '../helpers/state.js';
import { freePort } from '../../server/temporal/launcher.js';

let h: Harness;
let doc: { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, { required?: boolean; schema: { type: string; minimum?: number } }>; content: Record<string, unknown> }> }>> };

beforeAll(async () => {
  const nowhere = `http://127.0.0.1:${await freePort()}`;
  h = await createHarness({ config: { gohighlevelBaseUrl: nowhere, twilioBaseUrl: nowhere, vapiBaseUrl: nowhere, vendorTimeoutMs: 2000 } });
  doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
});
afterAll(async () => h?.close());

const TABLES = ['projects', 'credentials', 'agencies'];

describe('a vendor that cannot be reached', () => {
  const cases: [string, string, string, () => Promise<{ path: string; body: unknown }>][] = [
    ['connectProject', 'post', '/api/v2/projects', async () => ({ path: '/api/v2/projects', body: { crm: 'crm_a', locationId: 'loc_unreachable', credentials: { token: 'pit-unreachable-0123' } } })],
    ['reconnectProject', 'post', '/api/v2/projects/{id}/reconnect', async () => {
      const p = await h.api('POST', '/api/v2/projects', { body: { crm: 'crm_a', locationId: 'loc_unreachable_2' } });
      expect(p.status, p.text).toBe(200);
      return { path: `/api/v2/projects/${p.body.data.id}/reconnect`, body: { credentials: { token: 'pit-unreachable-0123' } } };
    }],
    ['putTwilioCredentials', 'put', '/api/agency/credentials/twilio', async () => ({ path: '/api/agency/credentials/twilio', body: { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'f00dfeedcafe4b1d9e8f7a6b5c4d3e2f' } })],
    ['putVapiCredentials', 'put', '/api/agency/credentials/vapi', async () => ({ path: '/api/agency/credentials/vapi', body: { apiKey: 'vapi-private-key-unreachable' } })],
  ];

  it.each(cases)('%s: a documented 503 with Retry-After, and nothing stored', async (_op, method, docPath, prepare) => {
    const documented = doc.paths[docPath]![method]!.responses['503'];
    expect(documented?.headers?.['Retry-After']).toEqual(expect.objectContaining({ required: true, schema: { type: 'integer', minimum: 0 } }));
    expect(documented?.content).toHaveProperty('application/json');
    const { path, body } = await prepare();
    const before = rowsOf(h.db, TABLES);
    const r = await h.api(method.toUpperCase(), path, { body });
    expect(r.status, r.text).toBe(503);
    expect(r.body).toMatchObject({ success: false, error: 'ServiceUnavailable', message: expect.stringMatching(/could not be reached; retry shortly/) });
    expect(r.headers.get('retry-after')).toBe('5');
    expect(rowsOf(h.db, TABLES)).toEqual(before);
  });
});
