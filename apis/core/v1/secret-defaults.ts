import { mergeStringData } from './secret-strategy.js';
import type { Secret } from './types.js';

/**
 * SetDefaults_Secret (an empty type is Opaque), then kube's decoding of a v1 Secret into its
 * internal form, which merges stringData into data: done here, when the request is decoded, so
 * field ownership, admission and validation all see data only, as kube's do. Mutates in place.
 */
export function setSecretDefaults(obj: Secret): void {
  if (obj.type === undefined || obj.type === '') obj.type = 'Opaque';
  mergeStringData(obj);
}
