/**
 * An integrator generates a client from GET /api/openapi.json: openapi-typescript turns the
 * document into types, openapi-fetch makes a typed client of them, and a call of every operation
 * (its path parameters, its required query parameters, and its documented example body) must
 * type-check under strict TypeScript. A document that stops compiling, or an example that stops
 * matching its schema's types, fails here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await createHarness();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vc-client-'));
});
afterAll(async () => {
  await h?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema: { type?: string | string[]; enum?: unknown[]; pattern?: string; minimum?: number };
}
interface Operation {
  operationId: string;
  parameters?: Param[];
  requestBody?: { content: Record<string, { examples?: { sample?: { value: unknown } } }> };
}

/** A value of the parameter's type the schema allows (enums first, E.164 for phone numbers). */
function sample(p: Param): unknown {
  const s = p.schema;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (s.pattern?.includes('\\+')) return '+15125550100';
  return 'x1';
}

describe('a client generated from the OpenAPI document', () => {
  it('type-checks a call of every operation with openapi-typescript types and openapi-fetch', async () => {
    const doc = (await h.api('GET', '/api/openapi.json', { key: null })).body;
    const types = astToString(await openapiTS(doc));
    fs.writeFileSync(path.join(dir, 'api.d.ts'), types);

    const require = createRequire(import.meta.url);
    const fetchTypes = path.dirname(require.resolve('openapi-fetch/package.json'));
    const calls: string[] = [];
    for (const [p, methods] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const params = op.parameters ?? [];
        const pathParams = Object.fromEntries(params.filter((x) => x.in === 'path').map((x) => [x.name, sample(x)]));
        const query = Object.fromEntries(params.filter((x) => x.in === 'query' && x.required).map((x) => [x.name, sample(x)]));
        const init: Record<string, unknown> = {};
        if (Object.keys(pathParams).length || Object.keys(query).length) init.params = { ...(Object.keys(pathParams).length && { path: pathParams }), ...(Object.keys(query).length && { query }) };
        const body = op.requestBody?.content['application/json']?.examples?.sample?.value;
        if (body !== undefined) init.body = body;
        calls.push(`  // ${op.operationId}\n  await client.${method.toUpperCase()}(${JSON.stringify(p)}, ${JSON.stringify(init)});`);
      }
    }
    fs.writeFileSync(
      path.join(dir, 'calls.ts'),
      [`import createClient from ${JSON.stringify(fetchTypes)};`, `import type { paths } from './api';`, `const client = createClient<paths>({ baseUrl: 'http://localhost:3000' });`, 'export async function everyOperation() {', ...calls, '}', ''].join('\n'),
    );

    const program = ts.createProgram([path.join(dir, 'calls.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(diagnostics).toEqual([]);
    expect(calls.length).toBeGreaterThan(70);
  }, 120_000);
});
