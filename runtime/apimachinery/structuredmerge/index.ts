/** A TypeScript port of sigs.k8s.io/structured-merge-diff: the merge core of server-side apply. */
export * from './value/index.js';
export * from './fieldpath/index.js';
export * from './merge/index.js';
