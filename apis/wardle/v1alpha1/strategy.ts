import type { RESTStrategy } from 'kube-ts-apiserver/runtime';
import type { Fischer } from './types.js';

/**
 * sample-apiserver's fischerStrategy: an update must name the resourceVersion it replaces (a
 * PUT without one is 422, never a blind overwrite); everything else is the generic store's.
 */
export const FischerStrategy = {
  allowUnconditionalUpdate: false,
} satisfies RESTStrategy<Fischer>;
