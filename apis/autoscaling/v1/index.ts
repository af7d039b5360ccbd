// The public types of apis/autoscaling/v1 (`kube-ts-apiserver/apis/autoscaling/v1`).
export type * from './types.js';
