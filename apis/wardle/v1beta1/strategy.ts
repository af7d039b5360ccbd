import type { RESTStrategy } from 'kube-ts-apiserver/runtime';
import type { Flunder } from './types.js';

/**
 * sample-apiserver's flunderStrategy: an update must name the resourceVersion it replaces (a
 * PUT without one is 422, never a blind overwrite); everything else is the generic store's.
 */
export const FlunderStrategy = {
  allowUnconditionalUpdate: false,
} satisfies RESTStrategy<Flunder>;
