// The public types of apis/authentication/v1 (`kube-ts-apiserver/apis/authentication/v1`).
export type * from './types.js';
