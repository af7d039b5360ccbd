// The public types of apis/rbac/v1 (`kube-ts-apiserver/apis/rbac/v1`).
export type * from './types.js';
