// Structural-schema operations: pruning, defaulting, list-type uniqueness; OpenAPI schema resolution.
export * from './defaults.js';
export * from './embedded.js';
export * from './listtype.js';
export * from './objectmeta.js';
export * from './property.js';
export * from './prune.js';
export * from './resolve.js';
