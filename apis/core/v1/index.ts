// The public types of apis/core/v1 (`kube-ts-apiserver/apis/core/v1`).
export type * from './types.js';
