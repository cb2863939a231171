import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { allRoutes } from '../../server/app.js';
import type { Services } from '../../server/services.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'x-summary', schemaType: 'string' });
const cache = new Map<string, ReturnType<typeof ajv.compile>>();

/** Asserts a real response body against the response schema its route declares (ajv, strict). */
export function expectConforms(services: Services, operationId: string, status: number, body: unknown): void {
  const key = `${operationId}:${status}`;
  let fn = cache.get(key);
  if (!fn) {
    const route = allRoutes(services).find((r) => r.operationId === operationId);
    if (!route) throw new Error(`no route ${operationId}`);
    const schema = route.responses[status]?.schema;
    if (!schema) throw new Error(`${operationId} declares no schema for ${status}`);
    fn = ajv.compile(schema);
    cache.set(key, fn);
  }
  const ok = fn(body);
  expect(ok, `${operationId} ${status}: ${ajv.errorsText(fn.errors)}`).toBe(true);
}
