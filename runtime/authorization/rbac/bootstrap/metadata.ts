import type { ObjectMeta } from '../../../../apis/meta/v1/types.js';

/** The label every bootstrap object carries (bootstrappolicy.Label). */
export const BOOTSTRAP_LABEL_KEY = 'kubernetes.io/bootstrapping';
export const BOOTSTRAP_LABEL_VALUE = 'rbac-defaults';

/**
 * rbacv1.AutoUpdateAnnotationKey: "true" on every bootstrap object; an object whose annotation a
 * cluster admin set to "false" is left alone by the reconciliation at start.
 */
export const AUTO_UPDATE_ANNOTATION_KEY = 'rbac.authorization.kubernetes.io/autoupdate';

/** Labels a ClusterRole carries to be aggregated into admin, edit or view. */
export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

/** addDefaultMetadata: the bootstrap label and the autoupdate annotation, over what the object has. */
export function withDefaultMetadata<T extends { metadata?: ObjectMeta }>(obj: T): T {
  const metadata = obj.metadata ?? {};
  return {
    ...obj,
    metadata: {
      ...metadata,
      labels: { ...metadata.labels, [BOOTSTRAP_LABEL_KEY]: BOOTSTRAP_LABEL_VALUE },
      annotations: { ...metadata.annotations, [AUTO_UPDATE_ANNOTATION_KEY]: 'true' },
    },
  };
}
