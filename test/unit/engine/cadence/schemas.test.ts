import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import {
  Cadence,
  CadenceStep,
  CallingWindow,
  CallingWindowSetting,
  CreateCadenceBody,
  PatchCadenceBody,
} from '../../../../schemas/cadence.js';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

// Both the server's validator (default Ajv, strict) and a draft 2020-12 one must accept the schemas.
const validators = [new Ajv({ strict: true, allowUnionTypes: true }), new Ajv2020({ strict: true, allowUnionTypes: true })];
// `x-error` is the API's wording of a refusal (server/http/validation.ts), not a rule.
for (const v of validators) v.addKeyword({ keyword: 'x-error', schemaType: ['string', 'object'] });
for (const ajv of validators) addFormats(ajv);

function check(schema: object, value: unknown): boolean[] {
  return validators.map((ajv) => ajv.validate(schema, value));
}

const window: CallingWindow = { days: [1, 2, 3, 4, 5], start: '9:00', end: '17:30', tz: 'America/Chicago' };
const danaSteps: CadenceStep[] = [{ delayMinutes: 0 }, { delayMinutes: 240 }, { delayMinutes: 0, at: '10:00', dayOffset: 1 }];

describe('cadence schemas', () => {
  it('CallingWindow follows spec 2.2', () => {
    expect(check(CallingWindow, window)).toEqual([true, true]);
    expect(check(CallingWindow, { ...window, days: [] })).toEqual([false, false]);
    expect(check(CallingWindow, { ...window, days: [0] })).toEqual([false, false]);
    expect(check(CallingWindow, { ...window, days: [8] })).toEqual([false, false]);
    expect(check(CallingWindow, { ...window, days: [1.5] })).toEqual([false, false]);
    expect(check(CallingWindow, { ...window, start: '9am' })).toEqual([false, false]);
    expect(check(CallingWindow, { ...window, tz: '' })).toEqual([false, false]);
    expect(check(CallingWindow, { ...window, extra: 1 })).toEqual([false, false]);
    const { tz: _tz, ...noTz } = window;
    expect(check(CallingWindow, noTz)).toEqual([false, false]);
  });

  it('CallingWindowSetting is a window, an array of windows or null', () => {
    expect(check(CallingWindowSetting, window)).toEqual([true, true]);
    expect(check(CallingWindowSetting, [window, window])).toEqual([true, true]);
    expect(check(CallingWindowSetting, null)).toEqual([true, true]);
    expect(check(CallingWindowSetting, 'always')).toEqual([false, false]);
  });

  it('CadenceStep expresses "call now, again after 4 hours, then the next day at 10:00"', () => {
    for (const step of danaSteps) expect(check(CadenceStep, step)).toEqual([true, true]);
    expect(check(CadenceStep, { delayMinutes: 0, callingWindow: [window] })).toEqual([true, true]);
    expect(check(CadenceStep, { delayMinutes: -1 })).toEqual([false, false]);
    expect(check(CadenceStep, { at: '10:00' })).toEqual([false, false]);
    expect(check(CadenceStep, { delayMinutes: 0, dayOffset: 1 })).toEqual([false, false]);
    expect(check(CadenceStep, { delayMinutes: 0, at: '10:00', dayOffset: -1 })).toEqual([false, false]);
  });

  it('Cadence and its bodies', () => {
    const cadence = { id: 'cad_1', name: 'New patient', steps: danaSteps, createdAt: '2026-03-10T15:00:00Z', updatedAt: '2026-03-10T15:00:00Z' };
    expect(check(Cadence, cadence)).toEqual([true, true]);
    expect(check(Cadence, { ...cadence, createdAt: 'yesterday' })).toEqual([false, false]);
    expect(check(CreateCadenceBody, { name: 'New patient', steps: danaSteps })).toEqual([true, true]);
    expect(check(CreateCadenceBody, { name: 'x', steps: [] })).toEqual([false, false]);
    expect(check(CreateCadenceBody, { name: 'x', steps: Array.from({ length: 51 }, () => ({ delayMinutes: 1 })) })).toEqual([false, false]);
    expect(check(CreateCadenceBody, { name: '', steps: danaSteps })).toEqual([false, false]);
    expect(check(PatchCadenceBody, { name: 'Renamed' })).toEqual([true, true]);
    expect(check(PatchCadenceBody, {})).toEqual([false, false]);
    expect(check(PatchCadenceBody, { id: 'x' })).toEqual([false, false]);
  });
});

describe('engine/cadence stays deterministic', () => {
  it('imports no Node built-ins and never reads the clock or random numbers', () => {
    const dir = fileURLToPath(new URL('../../../../engine/cadence/', import.meta.url));
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const source = readFileSync(dir + file, 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const spec of imports) expect(spec, `${file} imports ${spec}`).toMatch(/^(\.\.?\/|luxon$)/);
      expect(source, file).not.toMatch(/Date\.now\(|new Date\(\)|Math\.random|DateTime\.(now|local)\(|performance\.now/);
    }
  });
});
