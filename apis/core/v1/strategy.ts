import { isDNS1123Label } from '../../../runtime/apimachinery/validation/names.js';
import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { Namespace } from './types.js';

/** The finalizer the namespace controller removes once a namespace's content is gone. */
export const FINALIZER_KUBERNETES = 'kubernetes';

/**
 * The namespace strategy of Kubernetes: every namespace starts Active with the `kubernetes`
 * finalizer, and neither spec.finalizers nor status can be changed through the main
 * resource (the namespace controller owns both).
 */
export const NamespaceStrategy = {
  /** Namespace names are DNS-1123 labels (they become parts of DNS names of services). */
  validateName: isDNS1123Label,
  prepareForCreate(obj: Namespace): void {
    obj.status = { phase: 'Active' };
    const finalizers = obj.spec?.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_KUBERNETES)) obj.spec = { ...obj.spec, finalizers: [...finalizers, FINALIZER_KUBERNETES] };
  },
  prepareForUpdate(obj: Namespace, old: Namespace): void {
    const finalizers = old.spec?.finalizers;
    obj.spec = finalizers === undefined ? {} : { ...obj.spec, finalizers: [...finalizers] };
    if (old.status === undefined) delete obj.status;
    else obj.status = structuredClone(old.status);
  },
} satisfies RESTStrategy<Namespace>;

export { ServiceStrategy } from './service-strategy.js';
export { ServiceAccountStrategy } from './serviceaccount-strategy.js';
export { ConfigMapStrategy } from './configmap-strategy.js';
export { SecretStrategy } from './secret-strategy.js';
export { EventStrategy } from './event-strategy.js';
