import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DISPOSITIONS, emittableOutcomes, isDisposition, normalizeOutcome, OUTCOMES } from '../../../../engine/graph/outcomes.js';
import { OUTCOME_SPELLING_PATTERN } from '../../../../schemas/workflow.js';

describe('OUTCOMES', () => {
  it('has the dashboard type, label and a hex colour for each of the six dispositions', () => {
    expect(DISPOSITIONS).toEqual(['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'TRANSFER', 'RESCHEDULE']);
    expect(Object.fromEntries(DISPOSITIONS.map((d) => [d, [OUTCOMES[d].type, OUTCOMES[d].label]]))).toEqual({
      VOICEMAIL: ['voicemail', 'Voicemail'],
      SUCCESS: ['success', 'Success'],
      CALLBACK: ['callBack', 'Call Back'],
      NO_ACTION: ['noAction', 'No Action'],
      TRANSFER: ['transfer', 'Transfer'],
      RESCHEDULE: ['reschedule', 'Reschedule'],
    });
    for (const d of DISPOSITIONS) {
      expect(OUTCOMES[d].color).toMatch(/^#[0-9a-f]{6}$/i);
      expect(OUTCOMES[d].disposition).toBe(d);
    }
    expect(new Set(DISPOSITIONS.map((d) => OUTCOMES[d].color)).size).toBe(6);
  });
});

describe('normalizeOutcome', () => {
  it.each([
    ['CALLBACK', 'CALLBACK'],
    ['callback', 'CALLBACK'],
    ['callBack', 'CALLBACK'],
    ['CallBack', 'CALLBACK'],
    ['Call Back', 'CALLBACK'],
    ['call back', 'CALLBACK'],
    ['call_back', 'CALLBACK'],
    ['call-back', 'CALLBACK'],
    ['  Voicemail ', 'VOICEMAIL'],
    ['NO_ACTION', 'NO_ACTION'],
    ['noAction', 'NO_ACTION'],
    ['No Action', 'NO_ACTION'],
    ['no-action', 'NO_ACTION'],
    ['transfer', 'TRANSFER'],
    ['Reschedule', 'RESCHEDULE'],
    ['SUCCESS', 'SUCCESS'],
  ])('%j -> %s', (input, expected) => {
    expect(normalizeOutcome(input)).toBe(expected);
  });

  it.each(['', '   ', 'booked', 'VOICE', 'CALLBACKS', 'no action please'])('%j is not an outcome', (input) => {
    expect(normalizeOutcome(input)).toBeNull();
  });

  it('refuses non-strings', () => {
    expect(normalizeOutcome(undefined)).toBeNull();
    expect(normalizeOutcome(3)).toBeNull();
    expect(normalizeOutcome(null)).toBeNull();
  });

  it('isDisposition accepts only the raw upper-case form', () => {
    expect(isDisposition('CALLBACK')).toBe(true);
    expect(isDisposition('callBack')).toBe(false);
  });
});

describe('emittableOutcomes (spec 2.11)', () => {
  it('always allows VOICEMAIL, CALLBACK, NO_ACTION', () => {
    expect(emittableOutcomes([])).toEqual(['VOICEMAIL', 'CALLBACK', 'NO_ACTION']);
    expect(emittableOutcomes(['add_tag'])).toEqual(['VOICEMAIL', 'CALLBACK', 'NO_ACTION']);
  });
  it('TRANSFER only with live_transfer', () => {
    expect(emittableOutcomes(['live_transfer'])).toEqual(['VOICEMAIL', 'CALLBACK', 'NO_ACTION', 'TRANSFER']);
  });
  it('SUCCESS and RESCHEDULE only with appointment_booking, in canonical order', () => {
    expect(emittableOutcomes(['appointment_booking'])).toEqual(['VOICEMAIL', 'SUCCESS', 'CALLBACK', 'NO_ACTION', 'RESCHEDULE']);
    expect(emittableOutcomes(['live_transfer', 'appointment_booking'])).toEqual([...DISPOSITIONS]);
  });
});

describe('OUTCOME_SPELLING_PATTERN (the document states what normalizeOutcome accepts)', () => {
  const re = new RegExp(OUTCOME_SPELLING_PATTERN, 'u');
  it('accepts every form of every outcome, respelled, and nothing normalizeOutcome refuses', () => {
    const forms = DISPOSITIONS.flatMap((d) => [d, OUTCOMES[d].type, OUTCOMES[d].label]);
    // a form respelled: letters in any case, separators inserted between letters and at the ends
    const respelled = fc
      .tuple(fc.constantFrom(...forms), fc.infiniteStream(fc.boolean()), fc.infiniteStream(fc.constantFrom('', '', ' ', '_', '-', '  ')))
      .map(([form, upper, sep]) => [...form.replace(/[\s_-]/g, '')].map((c) => sep.next().value + (upper.next().value ? c.toUpperCase() : c.toLowerCase())).join('') + sep.next().value);
    fc.assert(fc.property(respelled, (s) => re.test(s) && normalizeOutcome(s) !== null));
    fc.assert(fc.property(fc.oneof(fc.string(), fc.constantFrom(...forms).map((f) => `${f}x`), fc.constantFrom(...forms).map((f) => f.slice(1))), (s) => re.test(s) === (normalizeOutcome(s) !== null)));
  });
});
