// The public types of apis/apidiscovery/v2 (`kube-ts-apiserver/apis/apidiscovery/v2`).
export type * from './types.js';
