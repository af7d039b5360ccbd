import { isDNS1123Label } from '../../../runtime/apimachinery/validation/names.js';
import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { markGoValidation } from '../../../runtime/apimachinery/validation/typed.js';
import { validateFinalizerName, validateKubeFinalizerNames } from './objectmeta-validation.js';
import { validateEndpointSubsets } from './endpoints-validation.js';
import type { Endpoints, Namespace } from './types.js';

/** The finalizer the namespace controller removes once a namespace's content is gone. */
export const FINALIZER_KUBERNETES = 'kubernetes';

/**
 * The namespace strategy of Kubernetes: every namespace starts Active with the `kubernetes`
 * finalizer, and neither spec.finalizers nor status can be changed through the main
 * resource (the namespace controller owns both); validation is kube's (ValidateNamespace and
 * its update and status variants).
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
  // ValidateNamespace: core's ObjectMeta checks, then each spec finalizer (validateFinalizerName,
  // reported at spec.finalizers without an index); ValidateNamespaceUpdate: ObjectMetaUpdate alone.
  // ValidateNamespaceStatusUpdate: the phase follows deletionTimestamp (kube's path says `Phase`).
  // These three are the whole of kube's Namespace validation (markGoValidation): the schema's
  // phase enum does not word an error before them.
  validate: markGoValidation((ns: Namespace) => [...validateKubeFinalizerNames(ns.metadata), ...(ns.spec?.finalizers ?? []).flatMap((f) => validateFinalizerName(f, 'spec.finalizers'))]),
  validateUpdate: (ns: Namespace) => validateKubeFinalizerNames(ns.metadata),
  status: {
    validateUpdate(ns: Namespace): FieldError[] {
      const errs = validateKubeFinalizerNames(ns.metadata);
      const phase = ns.status?.phase ?? '';
      const deleting = ns.metadata?.deletionTimestamp !== undefined && ns.metadata.deletionTimestamp !== null;
      if (!deleting && phase !== 'Active') errs.push({ type: 'FieldValueInvalid', field: 'status.Phase', badValue: phase, detail: "may only be 'Active' if `deletionTimestamp` is empty" });
      if (deleting && phase !== 'Terminating')
        errs.push({ type: 'FieldValueInvalid', field: 'status.Phase', badValue: phase, detail: "may only be 'Terminating' if `deletionTimestamp` is not empty" });
      return errs;
    },
  },
} satisfies RESTStrategy<Namespace>;

/**
 * kube's Endpoints strategy: ValidateEndpointsCreate and ValidateEndpointsUpdate, core's
 * ObjectMeta rules (finalizer names) then validateEndpointSubsets. That is the whole of kube's
 * Endpoints validation (markGoValidation): the schema's required fields and protocol enum do not
 * word an error before it.
 */
const validateEndpoints = markGoValidation((ep: Endpoints) => [...validateKubeFinalizerNames(ep.metadata), ...validateEndpointSubsets(ep)]);
export const EndpointsStrategy = {
  validate: validateEndpoints,
  validateUpdate: (ep: Endpoints) => validateEndpoints(ep),
} satisfies RESTStrategy<Endpoints>;

export { ServiceStrategy } from './service-strategy.js';
export { ServiceAccountStrategy } from './serviceaccount-strategy.js';
export { ConfigMapStrategy } from './configmap-strategy.js';
export { SecretStrategy } from './secret-strategy.js';
export { EventStrategy } from './event-strategy.js';
