// The public types of apis/coordination/v1 (`kube-ts-apiserver/apis/coordination/v1`).
export type * from './types.js';
