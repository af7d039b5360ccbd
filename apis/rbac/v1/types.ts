import type { LabelSelector, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/** A rule of a role: verbs on resources of API groups, or verbs on non-resource URLs. */
export interface PolicyRule {
  /**
   * The verbs the rule allows (`get`, `list`, `create`, …, or `*` for all).
   *
   * @listType atomic
   * @protobuf 1
   */
  verbs: string[];
  /**
   * The API groups of the resources ('' is the core group, `*` is every group).
   *
   * @listType atomic
   * @protobuf 2
   */
  apiGroups?: string[];
  /**
   * The resources the rule applies to, with `<resource>/<subresource>` for subresources; `*` is every resource, `*\/<subresource>` a subresource of every resource.
   *
   * @listType atomic
   * @protobuf 3
   */
  resources?: string[];
  /**
   * The names the rule is restricted to; empty means every name.
   *
   * @listType atomic
   * @protobuf 4
   */
  resourceNames?: string[];
  /**
   * Partial URLs the rule applies to (`/healthz`, `/apis/*`); only in cluster roles bound by cluster role bindings. A rule names resources or non-resource URLs, not both.
   *
   * @listType atomic
   * @protobuf 5
   */
  nonResourceURLs?: string[];
}

/** Who a binding grants its role to: a user, a group or a service account. */
export interface Subject {
  /**
   * `User`, `Group` or `ServiceAccount`.
   *
   * @protobuf 1
   */
  kind: string;
  /**
   * The API group of the subject: `rbac.authorization.k8s.io` for users and groups, '' for service accounts.
   *
   * @protobuf 2
   */
  apiGroup?: string;
  /**
   * The subject's name.
   *
   * @protobuf 3
   */
  name: string;
  /**
   * The service account's namespace; must be empty for users and groups.
   *
   * @protobuf 4
   */
  namespace?: string;
}

/**
 * The role a binding grants.
 *
 * @structType atomic
 */
export interface RoleRef {
  /**
   * The group of the role: `rbac.authorization.k8s.io`.
   *
   * @protobuf 1
   */
  apiGroup: string;
  /**
   * `Role` or `ClusterRole`.
   *
   * @protobuf 2
   */
  kind: string;
  /**
   * The role's name.
   *
   * @protobuf 3
   */
  name: string;
}

/** How a cluster role's rules are gathered from other cluster roles. */
export interface AggregationRule {
  /**
   * The cluster roles whose rules are added to this one: those matching any of the selectors.
   *
   * @listType atomic
   * @protobuf 1
   */
  clusterRoleSelectors?: LabelSelector[];
}

/**
 * A namespaced set of rules; granted by a RoleBinding in the same namespace.
 *
 * @genclient
 * @resource path=roles singular=role
 * @printcolumn name="Created At" type=date jsonPath=.metadata.creationTimestamp
 */
export interface Role extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The rules of the role.
   *
   * @listType atomic
   * @protobuf 2
   */
  rules?: PolicyRule[];
}

/**
 * A cluster-wide set of rules; granted cluster-wide by a ClusterRoleBinding or within one namespace by a RoleBinding.
 *
 * @genclient
 * @nonNamespaced
 * @resource path=clusterroles singular=clusterrole
 * @printcolumn name="Created At" type=date jsonPath=.metadata.creationTimestamp
 */
export interface ClusterRole extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The rules of the role. With an aggregationRule they are the controller's to set.
   *
   * @listType atomic
   * @protobuf 2
   */
  rules?: PolicyRule[];
  /**
   * When set, the rules are the union of the rules of the cluster roles it selects, kept so by a controller.
   *
   * @protobuf 3 pointer
   */
  aggregationRule?: AggregationRule;
}

/**
 * Grants a Role of its namespace, or a ClusterRole within its namespace, to subjects.
 *
 * @genclient
 * @resource path=rolebindings singular=rolebinding
 * @printcolumn name=Role type=string jsonPath=.roleRef.name description="The kind and name of the role the binding grants."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @printcolumn name=Users type=string jsonPath=.subjects priority=1 description="The users the binding grants the role to."
 * @printcolumn name=Groups type=string jsonPath=.subjects priority=1 description="The groups the binding grants the role to."
 * @printcolumn name=ServiceAccounts type=string jsonPath=.subjects priority=1 description="The service accounts the binding grants the role to."
 */
export interface RoleBinding extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The subjects the role is granted to.
   *
   * @listType atomic
   * @protobuf 2
   */
  subjects?: Subject[];
  /**
   * The role granted; it cannot change once the binding exists.
   *
   * @protobuf 3
   */
  roleRef: RoleRef;
}

/**
 * Grants a ClusterRole to subjects across the whole cluster.
 *
 * @genclient
 * @nonNamespaced
 * @resource path=clusterrolebindings singular=clusterrolebinding
 * @printcolumn name=Role type=string jsonPath=.roleRef.name description="The kind and name of the role the binding grants."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 * @printcolumn name=Users type=string jsonPath=.subjects priority=1 description="The users the binding grants the role to."
 * @printcolumn name=Groups type=string jsonPath=.subjects priority=1 description="The groups the binding grants the role to."
 * @printcolumn name=ServiceAccounts type=string jsonPath=.subjects priority=1 description="The service accounts the binding grants the role to."
 */
export interface ClusterRoleBinding extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The subjects the role is granted to.
   *
   * @listType atomic
   * @protobuf 2
   */
  subjects?: Subject[];
  /**
   * The role granted; it cannot change once the binding exists.
   *
   * @protobuf 3
   */
  roleRef: RoleRef;
}
