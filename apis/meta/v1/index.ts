// The public types of apis/meta/v1 (`kube-ts-apiserver/apis/meta/v1`).
export type * from './types.js';
