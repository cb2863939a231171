/**
 * The app's API types (editor/src/api/schema.gen.ts) are generated from the OpenAPI document by
 * `npm run api-types`. Here they are generated again in memory: a committed file that differs
 * (a schema or route changed without regenerating) fails the suite. The document the script
 * builds in-process is the one the server answers, so the two cannot drift apart either.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource, openApiDocument } from '../../scripts/api-types.js';
import { createHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

const committed = () => fs.readFileSync(API_TYPES_FILE, 'utf8');

describe('the generated API types', () => {
  it('are built from the document GET /api/openapi.json serves', async () => {
    const served = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    expect(openApiDocument()).toEqual(served);
  });

  it('are up to date with the schemas and routes (else: npm run api-types)', async () => {
    const fresh = (await apiTypesSource()).split('\n');
    const stored = committed().split('\n');
    // A failure shows where the two part (the first lines that differ), not two 1 MB strings.
    const at = fresh.findIndex((line, i) => line !== stored[i]);
    const first = at === -1 && fresh.length === stored.length ? null : { line: (at === -1 ? Math.min(fresh.length, stored.length) : at) + 1 };
    const where = first && { ...first, generated: fresh.slice(first.line - 1, first.line + 4), committed: stored.slice(first.line - 1, first.line + 4) };
    expect(where, 'editor/src/api/schema.gen.ts is stale: run `npm run api-types` and commit it').toBeNull();
  });

  it('are found stale when a schema changes', async () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { properties: { data: { properties: Record<string, unknown> } } } }> }> }>> };
    const call = doc.paths['/api/call-history/by-call-id/{callId}']!.get!.responses['200']!.content['application/json']!.schema.properties.data.properties;
    call.sentiment = { type: 'string' };
    const fresh = await apiTypesSource(doc);
    expect(fresh).not.toBe(committed());
    expect(fresh).toContain('sentiment?: string;');
  });
});
