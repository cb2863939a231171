/**
 * The pure graph model: types, validation, stand-ins, append (with router expansion), delete and
 * re-link, patch, outcome switching, layout, digest, warnings, conditions, migrations.
 *
 * Temporal workflow code must import `./runtime.js` (or single modules such as walk/conditions)
 * instead of this index: the index also brings in the validator, which compiles ajv schemas.
 */
export * from './types.js';
export * from './outcomes.js';
export * from './errors.js';
export * from './empty.js';
export * from './ids.js';
export * from './walk.js';
export * from './conditions.js';
export * from './standins.js';
export * from './validate.js';
export * from './layout.js';
export * from './append.js';
export * from './relink.js';
export * from './patch.js';
export * from './switch-outcome.js';
export * from './warnings.js';
export * from './digest.js';
export * from './migrations.js';
export * from './describe-change.js';
