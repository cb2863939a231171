/**
 * Vapi's own published schemas (test/fixtures/vendor-openapi/vapi), compiled with ajv so tests and
 * the Vapi fake hold our requests and their reports to exactly what Vapi publishes.
 *
 * ajv is strict (unknown keywords and formats fail the compile). OpenAPI 3.0 specifics:
 * - `nullable: true` is an ajv core keyword (OpenAPI extension): used as is.
 * - `$ref: '#/components/schemas/X'`: the components are added under the id `vapi`, so those
 *   pointers resolve inside it; the entry points are `vapi#/components/schemas/<Name>`.
 * - `example` is registered as an annotation keyword (none survive the trim; the keyword is
 *   registered so a refreshed fixture with one still compiles).
 *
 * Where the published document is not valid JSON Schema, or is unsatisfiable for real payloads,
 * each workaround below names the exact place it touches and checks that the place still looks as
 * expected, so a refreshed fixture that fixed (or moved) the defect fails loudly here instead of
 * being silently patched:
 *
 * 1. `discriminator` with `mapping` (only on credential and encryption-plan unions, which our
 *    payloads never carry): ajv's own `discriminator` option refuses `mapping` ("mapping is not
 *    supported"). It is registered as an annotation, so the `oneOf` beside it does the
 *    validating; in OpenAPI a discriminator only selects among the `oneOf` branches, so nothing
 *    that the discriminator would refuse is accepted.
 * 2. `enum: []` at `NeuphonicVoice` and `FallbackNeuphonicVoice` `.properties.voiceId.oneOf[0]`:
 *    invalid (the metaschema wants at least one value; ajv refuses to compile it). An empty enum
 *    accepts no value, so it is replaced by `not: {}`, which accepts no value either.
 * 3. `maxLength` on an array at `PhoneNumberCallRingingHookFilter.properties.startsWith` (meant
 *    `maxItems`): JSON Schema ignores `maxLength` for non-strings, but ajv's `strictTypes` refuses
 *    it. `strictTypes` is set to `log` and the log must hold exactly this one warning; any other
 *    fails the compile.
 * 4. `oneOf` of `UserMessage | SystemMessage | BotMessage | ToolCallMessage | ToolCallResultMessage`
 *    at `Artifact.properties.messages.items` and `Call.properties.messages.items`: the five types
 *    share an untyped `role` string and open objects, so every real spoken turn (role `bot` or
 *    `user`, with `time`, `endTime`, `secondsFromStart`) matches UserMessage, BotMessage and
 *    SystemMessage at once, and `oneOf` refuses every end-of-call report that carries a
 *    conversation (test/adapters/vapi-server-messages.test.ts shows it on the unpatched
 *    schema). At those two places only, `oneOf` becomes `anyOf`: an item must still satisfy at
 *    least one message type in full.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fs from 'node:fs';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

export const VAPI_SCHEMAS_FILE = new URL('../fixtures/vendor-openapi/vapi/schemas.json', import.meta.url);

export type VapiSchemaName = 'CreateCallDTO' | 'Call' | 'ServerMessageEndOfCallReport' | 'CreateTwilioPhoneNumberDTO' | 'TwilioPhoneNumber';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const MESSAGE_UNION = ['UserMessage', 'SystemMessage', 'BotMessage', 'ToolCallMessage', 'ToolCallResultMessage'].map((n) => `#/components/schemas/${n}`);
export const ONE_OF_AS_ANY_OF = ['Artifact/properties/messages/items', 'Call/properties/messages/items'] as const;
const EMPTY_ENUMS = ['NeuphonicVoice/properties/voiceId/oneOf/0', 'FallbackNeuphonicVoice/properties/voiceId/oneOf/0'] as const;
const EXPECTED_TYPE_WARNINGS = [
  'strict mode: missing type "string" for keyword "maxLength" at "vapi#/components/schemas/PhoneNumberCallRingingHookFilter/properties/startsWith" (strictTypes)',
];

function at(root: Obj, pointer: string): Obj {
  let node: Json | undefined = root;
  for (const seg of pointer.split('/')) {
    node = Array.isArray(node) ? node[Number(seg)] : node && typeof node === 'object' ? node[seg] : undefined;
    if (node === undefined) throw new Error(`vapi schemas: ${pointer} is gone from the fixture; re-examine the workaround for it`);
  }
  if (!node || typeof node !== 'object' || Array.isArray(node)) throw new Error(`vapi schemas: ${pointer} is not a schema object`);
  return node;
}

/** The fixture's component schemas with the documented workarounds applied (a fresh copy). */
export function loadVapiComponents(opts: { workarounds?: boolean } = {}): Obj {
  const doc = JSON.parse(fs.readFileSync(VAPI_SCHEMAS_FILE, 'utf8')) as { components: { schemas: Obj } };
  const schemas = doc.components.schemas;
  if (opts.workarounds === false) return schemas;
  for (const p of EMPTY_ENUMS) {
    const s = at(schemas, p);
    if (!Array.isArray(s.enum) || s.enum.length !== 0) throw new Error(`vapi schemas: ${p} no longer has an empty enum; drop workaround 2`);
    delete s.enum;
    s.not = {};
  }
  for (const p of ONE_OF_AS_ANY_OF) {
    const s = at(schemas, p);
    const refs = Array.isArray(s.oneOf) ? s.oneOf.map((b) => (b && typeof b === 'object' && !Array.isArray(b) ? b.$ref : null)) : null;
    if (JSON.stringify(refs) !== JSON.stringify(MESSAGE_UNION)) throw new Error(`vapi schemas: ${p} is no longer the message oneOf; re-examine workaround 4`);
    s.anyOf = s.oneOf!;
    delete s.oneOf;
  }
  return schemas;
}

function build(schemas: Obj): { ajv: Ajv; typeWarnings: string[] } {
  const typeWarnings: string[] = [];
  const ajv = new Ajv({
    strict: true,
    strictTypes: 'log',
    allErrors: true,
    logger: { log: () => {}, warn: (...args: unknown[]) => typeWarnings.push(args.join(' ')), error: (...args: unknown[]) => typeWarnings.push(args.join(' ')) },
  });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: 'discriminator' });
  ajv.addKeyword({ keyword: 'components' });
  ajv.addSchema({ $id: 'vapi', components: { schemas } });
  return { ajv, typeWarnings };
}

let compiled: { ajv: Ajv; fns: Map<VapiSchemaName, ValidateFunction> } | null = null;

function validator(name: VapiSchemaName): { ajv: Ajv; fn: ValidateFunction } {
  if (!compiled) {
    const { ajv, typeWarnings } = build(loadVapiComponents());
    const fns = new Map<VapiSchemaName, ValidateFunction>();
    for (const n of ['CreateCallDTO', 'Call', 'ServerMessageEndOfCallReport', 'CreateTwilioPhoneNumberDTO', 'TwilioPhoneNumber'] as const) fns.set(n, ajv.compile({ $ref: `vapi#/components/schemas/${n}` }));
    const unexpected = typeWarnings.filter((w) => !EXPECTED_TYPE_WARNINGS.includes(w));
    if (unexpected.length > 0) throw new Error(`vapi schemas: unexpected strict-mode findings:\n${unexpected.join('\n')}`);
    compiled = { ajv, fns };
  }
  return { ajv: compiled.ajv, fn: compiled.fns.get(name)! };
}

/** Compiles the validators now (a few seconds, once per process), so no request waits for it. */
export function compileVapiSchemas(): void {
  validator('CreateCallDTO');
}

const describe = (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''}`;

/** Where `value` breaks Vapi's schema `name`; empty when it conforms. */
export function vapiViolations(name: VapiSchemaName, value: unknown): string[] {
  const { fn } = validator(name);
  return fn(value) ? [] : (fn.errors ?? []).map(describe);
}

/**
 * Schema `name` without workaround 4 (1, 2 and 3 are needed for ajv to compile it at all), to
 * show that defect exists. Compiled on demand, apart from the shared validators.
 */
export function vapiViolationsUnpatched(name: VapiSchemaName, value: unknown): string[] {
  const raw = loadVapiComponents({ workarounds: false });
  for (const p of EMPTY_ENUMS) {
    const s = at(raw, p);
    delete s.enum;
    s.not = {};
  }
  const { ajv } = build(raw);
  const fn = ajv.compile({ $ref: `vapi#/components/schemas/${name}` });
  return fn(value) ? [] : (fn.errors ?? []).map(describe);
}

/** The properties a component schema declares (as published, no workaround applies to them). */
export function vapiSchemaProperties(name: VapiSchemaName): Record<string, unknown> {
  const schema = at(loadVapiComponents({ workarounds: false }), name);
  return (schema.properties ?? {}) as Record<string, unknown>;
}

/** The `endedReason` values Vapi publishes for the end-of-call report. */
export function vapiEndedReasons(): string[] {
  const schemas = loadVapiComponents({ workarounds: false });
  const reason = at(schemas, 'ServerMessageEndOfCallReport/properties/endedReason');
  return (reason.enum as string[]).slice();
}
