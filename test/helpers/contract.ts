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

function matchersOf(services: Services): Matcher[] {
  let list = matchers.get(services);
  if (!list) {
    list = allRoutes(services).map((route) => ({
      method: route.method.toUpperCase(),
      re: new RegExp(`^${route.path.replace(/:[A-Za-z0-9_]+/g, '[^/]+')}$`),
      route,
    }));
    matchers.set(services, list);
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// The envelope rules of spec sections 1 and 7 and docs/decisions.md ("Error bodies"), written out
// here on their own rather than imported from the server, so a server that drifts from them fails.
// ---------------------------------------------------------------------------------------------

/** The `error` string of each status (spec 7, plus the project's extensions of the table). */
export const ERROR_NAME: Readonly<Record<number, string>> = {
  400: 'VALIDATION',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'CONFLICT',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  // Node's HTTP parser refuses the request before Koa sees it; server/app.ts `listen` answers it.
  431: 'RequestHeaderFieldsTooLarge',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

/**
 * Success bodies that do not put their payload under `data` (spec 1): the top-level keys they use
 * instead, the first required. Keyed by operationId; a deprecated project-scoped twin (`...ProjectScoped`) shares its rule.
 */
export const TOP_LEVEL_PAYLOAD: Readonly<Record<string, readonly string[]>> = {
  buyPhoneNumber: ['phoneNumber'],
  assignPhoneNumber: ['phoneNumber'],
  listCampaignProjects: ['projects'],
  listCrmCustomValues: ['values'],
  listCrmCustomFields: ['fields'],
  appendWorkflowNodes: ['workflow', 'warnings'],
  deleteProject: ['message'],
};

/** Not an API envelope at all: the OpenAPI document is served as is. */
const NOT_AN_ENVELOPE = new Set(['openapi']);

export type ErrorFamily = 'standard' | 'projects' | 'power-dialer';
export const errorFamilyOf = (path: string): ErrorFamily =>
  path.startsWith('/api/power-dialer/') || path === '/api/power-dialer' ? 'power-dialer' : path.startsWith('/api/v2/projects') ? 'projects' : 'standard';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (body: unknown) => JSON.stringify(body)?.slice(0, 200);
const nonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Why an error body breaks spec 7 for its path and status, or null. */
export function errorEnvelopeViolation(path: string, status: number, body: unknown): string | null {
  if (!isObject(body)) return `a ${status} must be a JSON object in the error envelope, got ${show(body)}`;
  if (body.success !== false) return `a ${status} must say success: false, got ${show(body)}`;
  const keys = Object.keys(body).sort().join(',');
  const family = errorFamilyOf(path);
  if (family === 'power-dialer') {
    // spec 7: "only success and an error string"
    if (keys !== 'error,success') return `power-dialer errors are { success, error } only, got keys ${keys}: ${show(body)}`;
    if (!nonEmptyString(body.error)) return `power-dialer error must be a non-empty string: ${show(body)}`;
    if (status === 401 && body.error !== 'Unauthorized') return `power-dialer 401 error must be "Unauthorized": ${show(body)}`;
    if (status === 429 && body.error !== 'TooManyRequests') return `power-dialer 429 error must be "TooManyRequests": ${show(body)}`;
    if (status === 500 && !/unexpected server error/i.test(body.error)) return `power-dialer 500 error must say an unexpected server error occurred: ${show(body)}`;
    if (status !== 401 && status !== 429 && Object.values(ERROR_NAME).includes(body.error)) {
      return `power-dialer ${status} error must be the text itself, not the code word ${body.error}: ${show(body)}`;
    }
    return null;
  }
  if (family === 'projects' && status === 404) {
    // spec 4.2 / 7: "absent on project endpoints (only message)"
    if (keys !== 'message,success') return `project 404s are { success, message } only, got keys ${keys}: ${show(body)}`;
    return nonEmptyString(body.message) ? null : `project 404 message must be a non-empty string: ${show(body)}`;
  }
  const name = ERROR_NAME[status];
  if (!name) return `${status} is not a status of the error table`;
  const extra = Object.keys(body).filter((k) => !['success', 'error', 'message', 'code'].includes(k));
  if (extra.length) return `error bodies are { success, error, message, code? }, got extra keys ${extra.join(',')}: ${show(body)}`;
  if (body.error !== name) return `a ${status} must have error "${name}", got ${show(body.error)}`;
  if (!nonEmptyString(body.message)) return `a ${status} must have a message saying what is wrong: ${show(body)}`;
  if ('code' in body && !nonEmptyString(body.code)) return `code, when present, must be a non-empty string: ${show(body)}`;
  return null;
}

/** Why a success body breaks spec 1 for its operation, or null. */
export function successEnvelopeViolation(operationId: string, status: number, body: unknown): string | null {
  if (NOT_AN_ENVELOPE.has(operationId)) return null;
  if (!isObject(body)) return `${operationId} ${status}: a success must be a JSON object, got ${show(body)}`;
  if (body.success !== true) return `${operationId} ${status}: a success must say success: true, got ${show(body)}`;
  const rule = TOP_LEVEL_PAYLOAD[operationId.replace(/ProjectScoped$/, '')];
  if (rule) {
    if (!(rule[0]! in body)) return `${operationId} ${status}: the payload goes under ${rule[0]}, got ${show(body)}`;
    const extra = Object.keys(body).filter((k) => k !== 'success' && !rule.includes(k));
    return extra.length ? `${operationId} ${status}: only success and ${rule.join(', ')} at the top level, got ${extra.join(',')}` : null;
  }
  return 'data' in body ? null : `${operationId} ${status}: the payload goes under data, got keys ${Object.keys(body).join(',')}`;
}

/**
 * Every response a test receives through the harness is checked here: against the schema its route
 * declares, so each API test is also a contract test, and against the envelope rules above. An
 * error under /api is in its family's envelope whether or not a route matched (unknown paths,
 * methods a path does not have, refusals before routing).
 */
export function checkContract(services: Services, method: string, url: string, status: number, body: unknown, contentType: string | null): string | null {
  const path = url.split('?')[0]!;
  if (!path.startsWith('/api')) return null;
  const m = matchersOf(services).find((x) => x.method === method.toUpperCase() && x.re.test(path));
  const label = m ? m.route.operationId : `${method} ${path}`;
  const isJson = contentType?.includes('application/json') ?? false;

  if (status >= 400) {
    if (!isJson) return `${label} ${status}: errors are JSON, got content-type ${contentType}`;
    const declared = m?.route.responses[status]?.schema;
    if (declared) {
      const fn = compiled(declared);
      if (!fn(body)) return `${label} ${status}: ${ajv.errorsText(fn.errors)}`;
    }
    const why = errorEnvelopeViolation(path, status, body);
    return why ? `${label} ${status}: ${why}` : null;
  }

  // A bodiless answer to OPTIONS / HEAD names the methods; nothing to check in a body.
  if (!m) return ['OPTIONS', 'HEAD'].includes(method.toUpperCase()) ? null : `${method} ${path} answered ${status}, but no operation has that method and path`;
  const response = m.route.responses[status];
  if (!response) return `${m.route.operationId} answered ${status}, which it does not declare`;
  const wantType = response.contentType ?? 'application/json';
  if (!contentType?.includes(wantType)) return `${m.route.operationId} ${status}: content-type ${contentType}, declared ${wantType}`;
  if (response.schema) {
    const fn = compiled(response.schema);
    if (!fn(body)) return `${m.route.operationId} ${status}: ${ajv.errorsText(fn.errors)}`;
  }
  return wantType === 'application/json' ? successEnvelopeViolation(m.route.operationId, status, body) : null;
}
