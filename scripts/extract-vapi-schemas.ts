/**
 * Cuts Vapi's published OpenAPI document down to the component schemas our contract tests need
 * (and every component they reach), so a clone of this project validates offline against exactly
 * what Vapi publishes without carrying the 3.2 MB document.
 *
 *   tsx scripts/extract-vapi-schemas.ts <vapi openapi.json> test/fixtures/vendor-openapi/vapi/schemas.json
 *
 * Trimming removes only annotations that never change what validates: `description`, `title`,
 * `example` and `examples` where they are schema keywords (a property that happens to be *named*
 * `description` is kept). Every constraint (`type`, `enum`, `required`, `oneOf`, `discriminator`,
 * `nullable`, `format`, lengths, `additionalProperties` …) is copied unchanged.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';

export const ROOTS = ['CreateCallDTO', 'Call', 'ServerMessageEndOfCallReport', 'CreateTwilioPhoneNumberDTO', 'TwilioPhoneNumber'] as const;
const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples']);
const REF_PREFIX = '#/components/schemas/';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = { [k: string]: Json };

/** A schema without its annotations; recurses only through the keywords whose values are schemas. */
function stripSchema(schema: Json): Json {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k)) continue;
    if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, stripSchema(sub)]));
    } else if ((k === 'allOf' || k === 'oneOf' || k === 'anyOf') && Array.isArray(v)) {
      out[k] = v.map(stripSchema);
    } else if (k === 'items' || k === 'not' || k === 'additionalProperties') {
      out[k] = stripSchema(v);
    } else {
      // enum, default, discriminator, required, … are data: copied as they are.
      out[k] = v;
    }
  }
  return out;
}

function refsIn(node: Json, into: Set<string>): void {
  if (Array.isArray(node)) for (const v of node) refsIn(v, into);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        if (!v.startsWith(REF_PREFIX)) throw new Error(`unexpected $ref ${v}`);
        into.add(v.slice(REF_PREFIX.length));
      } else refsIn(v, into);
    }
  }
}

export function extract(doc: { openapi: string; info: Json; components: { schemas: Record<string, Json> } }, roots: readonly string[]) {
  const all = doc.components.schemas;
  const keep = new Set<string>();
  const todo = [...roots];
  while (todo.length > 0) {
    const name = todo.pop()!;
    if (keep.has(name)) continue;
    const schema = all[name];
    if (schema === undefined) throw new Error(`no component schema ${name}`);
    keep.add(name);
    const refs = new Set<string>();
    refsIn(schema, refs);
    todo.push(...refs);
  }
  const schemas: Record<string, Json> = {};
  for (const name of [...keep].sort()) schemas[name] = stripSchema(all[name]!);
  return { openapi: doc.openapi, info: doc.info, components: { schemas } };
}

/** One schema per line: small, and a change of Vapi's document shows as a readable diff. */
export function render(out: ReturnType<typeof extract>): string {
  const lines = Object.entries(out.components.schemas).map(([name, s]) => `${JSON.stringify(name)}:${JSON.stringify(s)}`);
  return `{"openapi":${JSON.stringify(out.openapi)},"info":${JSON.stringify(out.info)},"components":{"schemas":{\n${lines.join(',\n')}\n}}}\n`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const [src, dst] = process.argv.slice(2);
  if (!src || !dst) {
    process.stderr.write('usage: tsx scripts/extract-vapi-schemas.ts <openapi.json> <out.json>\n');
    process.exit(2);
  }
  const raw = fs.readFileSync(src);
  const out = extract(JSON.parse(raw.toString('utf8')), ROOTS);
  const text = render(out);
  fs.writeFileSync(dst, text);
  process.stdout.write(
    `${dst}: ${Object.keys(out.components.schemas).length} schemas from roots ${ROOTS.join(', ')}; ${text.length} bytes; source sha256 ${createHash('sha256').update(raw).digest('hex')}\n`,
  );
}
