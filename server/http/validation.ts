import { Ajv2020 as Ajv, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { AppError } from './errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

export type Location = 'body' | 'query' | 'params';

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: true, coerceTypes: coerce, useDefaults: coerce, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-summary', schemaType: 'string' });
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

/** A message that names the field and the rule it broke, e.g. `body.nodes[0].type is required (required)`. */
export function describeAjvError(location: Location, e: ErrorObject): string {
  const base = dotted(e.instancePath);
  const at = (child?: string) => [location, base, child].filter(Boolean).join('.').replace('.[', '[');
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

export function validate(location: Location, schema: object, value: unknown): void {
  const fn = compile(schema, location);
  if (!fn(value)) {
    const first = fn.errors?.[0];
    throw new AppError('VALIDATION', first ? describeAjvError(location, first) : `${location} is invalid`);
  }
}
