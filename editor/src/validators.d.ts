/** Built by editor/validators-plugin.ts: one standalone ajv validator per step type. */
declare module 'virtual:node-config-validators' {
  import type { ValidateFunction } from 'ajv';
  export const validators: Record<string, ValidateFunction>;
}
