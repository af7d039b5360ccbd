// The public types of apis/apiextensions/v1 (`kube-ts-apiserver/apis/apiextensions/v1`).
export type * from './types.js';
export type * from './schema.js';
