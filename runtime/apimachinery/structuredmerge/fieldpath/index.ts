/** sigs.k8s.io/structured-merge-diff fieldpath: paths, sets of paths, their fieldsV1 form, managers. */
export * from './element.js';
export * from './path.js';
export * from './pathelementset.js';
export * from './pathelementmap.js';
export type { AtomLike, ListLike, MapLike, SchemaLike, StructFieldLike } from './schemalike.js';
export * from './set.js';
export * from './matcher.js';
export * from './filter.js';
export * from './serialize-pe.js';
export * from './managers.js';
export * from './fromvalue.js';
