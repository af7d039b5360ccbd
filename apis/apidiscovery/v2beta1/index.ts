// The public types of apis/apidiscovery/v2beta1 (`kube-ts-apiserver/apis/apidiscovery/v2beta1`).
export type * from './types.js';
