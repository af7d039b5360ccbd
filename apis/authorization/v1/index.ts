// The public types of apis/authorization/v1 (`kube-ts-apiserver/apis/authorization/v1`).
export type * from './types.js';
