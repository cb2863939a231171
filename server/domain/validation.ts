import { Ajv2020 as Ajv, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { DomainError } from './errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export type Location = 'body' | 'query' | 'params';

function makeAjv(coerce: boolean): Ajv {
  // verbose: an error carries the failing value and its schema, for `x-error` messages.
  const ajv = new Ajv({ allErrors: false, strict: true, coerceTypes: coerce, useDefaults: coerce, allowUnionTypes: true, verbose: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-summary', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-error', schemaType: ['string', 'object'] });
  return ajv;
}

// Bodies are JSON and typed: no coercion. Query strings and path params are text: coerce.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);
const cache = new WeakMap<object, ValidateFunction>();

export function compile(schema: object, location: Location): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = (location === 'body' ? bodyAjv : textAjv).compile(schema);
    cache.set(schema, fn);
  }
  return fn;
}

/** `/nodes/0/config` -> `nodes[0].config` */
function dotted(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
}

/**
 * A schema's own wording for a value it refuses: `x-error` is a template (`{at}` the field,
 * `{value}` the value sent), or a map to templates from a keyword (`$oneOf`), from the value sent
 * (a string as is, anything else as JSON), or `*` for any other value. The rule itself stays in
 * the schema (and so in the OpenAPI document); only the words are the schema's.
 */
function ownMessage(e: ErrorObject, at: string): string | undefined {
  if (e.keyword === 'required' || e.keyword === 'additionalProperties') return undefined;
  const own = (e.parentSchema as { 'x-error'?: string | Record<string, string> } | undefined)?.['x-error'];
  if (own === undefined) return undefined;
  const value = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  const template = typeof own === 'string' ? own : (own[`$${e.keyword}`] ?? own[value] ?? own['*']);
  return template?.replaceAll('{at}', at).replaceAll('{value}', value);
}

/** A message that names the field and the rule it broke, e.g. `body.nodes[0].type is required (required)`. */
export function describeAjvError(location: Location, e: ErrorObject): string {
  const base = dotted(e.instancePath);
  const at = (child?: string) => [location, base, child].filter(Boolean).join('.').replace('.[', '[');
  const own = ownMessage(e, at());
  if (own) return own;
  switch (e.keyword) {
    case 'required':
      return `${at(String(e.params.missingProperty))} is required`;
    case 'additionalProperties':
      return `${at(String(e.params.additionalProperty))} is not an allowed property (additionalProperties)`;
    case 'enum':
      return `${at()} must be one of: ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} (enum)`;
    case 'const':
      return `${at()} must be ${JSON.stringify(e.params.allowedValue)} (const)`;
    default:
      return `${at()} ${e.message ?? 'is invalid'} (${e.keyword})`;
  }
}

/**
 * The error to report. Without alternatives it is the only one. Under `anyOf`/`oneOf` the errors
 * of every branch come first: a schema's own words for the alternatives win, else the deepest
 * error, which is in the branch the value was meant for (an array of windows whose second `tz` is
 * wrong reports `callingWindow[1].tz`, not "callingWindow must be object").
 */
function mostTelling(location: Location, errors: ErrorObject[]): ErrorObject | undefined {
  const own = errors.find((e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && ownMessage(e, location));
  if (own) return own;
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  return errors.reduce<ErrorObject | undefined>((best, e) => (!best || depth(e) > depth(best) ? e : best), undefined);
}

export function validate(location: Location, schema: object, value: unknown): void {
  const fn = compile(schema, location);
  if (!fn(value)) {
    const first = mostTelling(location, fn.errors ?? []);
    throw new DomainError('VALIDATION', first ? describeAjvError(location, first) : `${location} is invalid`);
  }
}
