import type { RouteDef } from './route.js';
import { ErrorBody } from '../../schemas/common.js';
import { eventSignatureScheme, eventWebhooks, vapiSignatureScheme } from './webhooks.js';
import { requestExample } from './openapi-examples.js';
import { RESPONSE_LINKS } from './openapi-links.js';

const errorResponses = (def: RouteDef) => {
  const out: Record<string, unknown> = {};
  const statuses = def.access === 'public' ? [431, 500] : def.access === 'signature' ? [400, 401, 409, 413, 415, 431, 503] : [400, 401, 403, 404, 409, 413, 415, 429, 431, 500];
  // A status the route declares itself (a 503 with its Retry-After) keeps its own description.
  for (const st of statuses) if (!def.responses[st]) out[st] = { description: `error ${st}`, content: { 'application/json': { schema: ErrorBody } } };
  return out;
};

function parameters(def: RouteDef) {
  const out: unknown[] = [];
  for (const [where, schema] of [['path', def.params], ['query', def.query]] as const) {
    const s = schema as { properties?: Record<string, object>; required?: readonly string[] } | undefined;
    for (const [name, prop] of Object.entries(s?.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (s?.required ?? []).includes(name), schema: prop });
    }
  }
  if (def.idempotent) {
    out.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
  }
  return out;
}

const exampleOf = (operationId: string) => {
  const example = requestExample(operationId);
  return example === undefined ? {} : { examples: { sample: { summary: 'a typical request', value: example } } };
};

/** OpenAPI 3.1 from the route declarations: the same schemas that validate requests describe them. */
export function buildOpenApi(routes: readonly RouteDef[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const path = def.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(def.responses)) {
      const links = RESPONSE_LINKS[def.operationId]?.[status];
      responses[status] = {
        description: r.description,
        ...(r.headers && { headers: r.headers }),
        content: { [r.contentType ?? 'application/json']: { schema: r.schema ?? { type: 'string' } } },
        ...(links && { links }),
      };
    }
    paths[path] ??= {};
    paths[path][def.method] = {
      operationId: def.operationId,
      summary: def.summary,
      ...(def.description && { description: def.description }),
      tags: [def.tag],
      ...(def.deprecated && { deprecated: true }),
      security: typeof def.access === 'object' ? [{ bearerAuth: [] }] : def.access === 'signature' ? [{ [def.signatureScheme ?? 'eventSignature']: [] }] : [],
      ...(typeof def.access === 'object' && { 'x-scope': def.access.scope, 'x-roles': def.access.roles }),
      parameters: parameters(def),
      ...(def.body && { requestBody: { required: true, content: { 'application/json': { schema: def.documentedBody ?? def.body, ...exampleOf(def.operationId) } } } }),
      responses: { ...errorResponses(def), ...responses },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice-agent campaign service',
      version,
      description: 'Projects, campaigns, power dialer, call history and post-call workflows. `webhooks` describes the signed events a voice platform or CRM delivers to this service.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key' }, eventSignature: eventSignatureScheme, vapiSignature: vapiSignatureScheme } },
    paths,
    webhooks: eventWebhooks(),
  };
}
