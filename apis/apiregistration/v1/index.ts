// The public types of apis/apiregistration/v1 (`kube-ts-apiserver/apis/apiregistration/v1`).
export type * from './types.js';
