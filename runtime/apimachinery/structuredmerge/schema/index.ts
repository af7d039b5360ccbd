export * from './elements.js';
export * from './equals.js';
export { SCHEMA_SCHEMA_YAML } from './schemaschema.js';
