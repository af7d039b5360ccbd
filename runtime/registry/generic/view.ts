import type { KubeObject } from '../rest.js';

/**
 * The objects of the version requests through a store speak, reached from the store's hub
 * objects. kube's per-version storage of a custom resource validates objects, and its /scale
 * reads replicas, in the request version: where a conversion moves fields, the hub's objects
 * have them elsewhere. Conversions never mutate their input; a webhook's answer is a promise.
 */
export interface VersionView {
  fromHub(obj: KubeObject): KubeObject | Promise<KubeObject>;
  toHub(obj: KubeObject): KubeObject | Promise<KubeObject>;
}

/** The hub version itself: no conversion. */
export const HUB_VIEW: VersionView = { fromHub: (obj) => obj, toHub: (obj) => obj };
