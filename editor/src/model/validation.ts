/**
 * Client-side checks of a step's settings with the same JSON Schemas the server validates with
 * (schemas/workflow.ts `nodeConfigSchemas`, compiled at build time by editor/validators-plugin.ts:
 * the app's CSP allows no code generation in the page), plus the server's stand-in rule. The server
 * stays the judge; this only tells the admin sooner, next to the field.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { validators } from 'virtual:node-config-validators';
import { findStandIns } from '../../../engine/graph/standins';
import type { NodeType } from './types';
import { isDraft } from './types';

function validatorFor(type: NodeType): ValidateFunction {
  const v = validators[type];
  if (!v) throw new Error(`no validator for step type ${type}`);
  return v;
}

export interface FieldError {
  /** a dotted path below config, e.g. `body`, `conditions.0.value`; '' for the whole config */
  path: string;
  message: string;
}

const pathOf = (e: ErrorObject) => {
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') return [base, (e.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
  if (e.keyword === 'additionalProperties') return [base, (e.params as { additionalProperty: string }).additionalProperty].filter(Boolean).join('.');
  return base;
};

function wordsFor(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'minLength':
      return (e.params as { limit: number }).limit === 1 ? 'must not be empty' : `must be at least ${(e.params as { limit: number }).limit} characters`;
    case 'maxLength':
      return `must be at most ${(e.params as { limit: number }).limit} characters`;
    case 'minItems':
      return `needs at least ${(e.params as { limit: number }).limit}`;
    case 'uniqueItems':
      return 'has duplicates';
    case 'pattern':
      return 'has the wrong format';
    case 'if':
      return '';
    default:
      return e.message ?? 'is invalid';
  }
}

/** Problems with a step's settings; empty when valid. An empty config is a draft and passes. */
export function checkConfig(type: NodeType, config: unknown): FieldError[] {
  if (isDraft(config)) return [];
  const v = validatorFor(type);
  const errors: FieldError[] = [];
  if (!v(config)) {
    for (const e of v.errors ?? []) {
      const message = wordsFor(e);
      if (!message) continue;
      const path = pathOf(e);
      if (!errors.some((x) => x.path === path)) errors.push({ path, message });
    }
  }
  for (const s of findStandIns(config, '')) errors.push({ path: s.path.replace(/^\./, '').replace(/\[(\d+)\]/g, '.$1'), message: s.reason });
  return errors;
}

export const errorAt = (errors: readonly FieldError[], path: string) => errors.find((e) => e.path === path)?.message;
export const errorsUnder = (errors: readonly FieldError[], prefix: string) => errors.filter((e) => e.path === prefix || e.path.startsWith(`${prefix}.`));
