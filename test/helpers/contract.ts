import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { allRoutes } from '../../server/app.js';
import type { RouteDef } from '../../server/http/route.js';
import type { Services } from '../../server/services.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
ajv.addKeyword({ keyword: 'x-summary', schemaType: 'string' });
const cache = new Map<object, ReturnType<typeof ajv.compile>>();

function compiled(schema: object) {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(schema, fn);
  }
  return fn;
}

/** Asserts a real response body against the response schema its route declares (ajv, strict). */
export function expectConforms(services: Services, operationId: string, status: number, body: unknown): void {
  const route = allRoutes(services).find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  const schema = route.responses[status]?.schema;
  if (!schema) throw new Error(`${operationId} declares no schema for ${status}`);
  const fn = compiled(schema);
  expect(fn(body), `${operationId} ${status}: ${ajv.errorsText(fn.errors)}`).toBe(true);
}

interface Matcher {
  method: string;
  re: RegExp;
  route: RouteDef;
}
const matchers = new WeakMap<Services, Matcher[]>();

/**
 * Every response a test receives through the harness is checked here against the schema its route
 * declares, so each API test is also a contract test. Undeclared statuses must be errors in the
 * spec's envelope.
 */
export function checkContract(services: Services, method: string, url: string, status: number, body: unknown, contentType: string | null): string | null {
  let list = matchers.get(services);
  if (!list) {
    list = allRoutes(services).map((route) => ({
      method: route.method.toUpperCase(),
      re: new RegExp(`^${route.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`),
      route,
    }));
    matchers.set(services, list);
  }
  const path = url.split('?')[0]!;
  const m = list.find((x) => x.method === method.toUpperCase() && x.re.test(path));
  if (!m || !contentType?.includes('application/json')) return null;
  const declared = m.route.responses[status]?.schema;
  if (declared) {
    const fn = compiled(declared);
    return fn(body) ? null : `${m.route.operationId} ${status}: ${ajv.errorsText(fn.errors)}`;
  }
  if (status >= 400) {
    const b = body as Record<string, unknown>;
    const ok = b && b.success === false && (typeof b.error === 'string' || typeof b.message === 'string');
    return ok ? null : `${m.route.operationId} ${status}: not an error envelope: ${JSON.stringify(body).slice(0, 200)}`;
  }
  return `${m.route.operationId} answered ${status}, which it does not declare`;
}
