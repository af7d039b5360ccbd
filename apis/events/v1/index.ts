// The public types of apis/events/v1 (`kube-ts-apiserver/apis/events/v1`).
export type * from './types.js';
