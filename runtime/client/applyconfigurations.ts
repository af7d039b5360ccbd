/**
 * Apply configurations of the meta/v1 types every kind embeds (client-go's
 * applyconfigurations/meta/v1): the shapes a server-side apply may carry,
 * every field optional, so a configuration names only the fields its manager
 * means to own. Generated apply configurations (generated/applyconfigurations)
 * refer to these for `metadata`, owner references, label selectors and
 * conditions. Fields the server alone sets and apply must not carry
 * (selfLink, managedFields) are absent, as in client-go.
 */

/** metav1.ObjectMeta as an apply configuration. */
export interface ObjectMetaApplyConfiguration {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReferenceApplyConfiguration[];
  finalizers?: string[];
}

/** The metadata of a kind's apply configuration: the object is named by it (the namespace comes from the client when absent). */
export type RootObjectMetaApplyConfiguration = ObjectMetaApplyConfiguration & { name: string };

/** metav1.OwnerReference as an apply configuration (an associative list keyed by uid). */
export interface OwnerReferenceApplyConfiguration {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** metav1.LabelSelector as an apply configuration. */
export interface LabelSelectorApplyConfiguration {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirementApplyConfiguration[];
}

/** metav1.LabelSelectorRequirement as an apply configuration. */
export interface LabelSelectorRequirementApplyConfiguration {
  key?: string;
  operator?: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

/** metav1.Condition as an apply configuration (conditions are a list keyed by type). */
export interface ConditionApplyConfiguration {
  type?: string;
  status?: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}
