import type { Plugin } from 'vite';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { nodeConfigSchemas } from '../schemas/workflow.js';

/**
 * The step-settings validators, compiled at build time from the same JSON Schemas the server
 * validates with (ajv's standalone code). Compiling in the browser would need `new Function`,
 * which the app's Content-Security-Policy forbids (no 'unsafe-eval'): so the page ships plain
 * validation functions, one per step type, and no compiler. Used by the editor's Vite build and
 * by vitest (the editor's model tests import the same module).
 */
export const VALIDATORS_MODULE = 'virtual:node-config-validators';

const standaloneCode = (standaloneCodeModule as unknown as { default?: typeof standaloneCodeModule }).default ?? standaloneCodeModule;

export function nodeConfigValidatorsSource(): string {
  const entries = Object.entries(nodeConfigSchemas).map(([type, schema]) => {
    // The options the editor compiled with before: allErrors for every field's message; strict
    // off because the schemas are written for the server's ajv and only their verdicts matter here.
    // One compiler per type: several schemas in one standalone module can collide on names.
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, code: { source: true } });
    const code = standaloneCode(ajv, ajv.compile(schema as object)).replaceAll('require("ajv/dist/runtime/ucs2length").default', 'ucs2length');
    if (code.includes('require(')) throw new Error(`the standalone validator of ${type} requires a module: import it in validators-plugin.ts`);
    return `${JSON.stringify(type)}: (() => { const module = { exports: {} };\n${code}\nreturn module.exports; })()`;
  });
  return [
    "import * as ucs2 from 'ajv/dist/runtime/ucs2length.js';",
    // CommonJS interop differs between Vite's build and Node (vitest): take the function either way.
    "const ucs2length = typeof ucs2.default === 'function' ? ucs2.default : ucs2.default.default;",
    `export const validators = {\n${entries.join(',\n')}\n};`,
  ].join('\n');
}

export function nodeConfigValidators(): Plugin {
  const resolved = `\0${VALIDATORS_MODULE}`;
  return {
    name: 'vc-node-config-validators',
    resolveId: (id) => (id === VALIDATORS_MODULE ? resolved : undefined),
    load: (id) => (id === resolved ? nodeConfigValidatorsSource() : undefined),
  };
}
