import type { ClusterRole, ClusterRoleBinding, PolicyRule } from '../../../../apis/rbac/v1/types.js';
import type { UserInfo } from '../../../apimachinery/request/types.js';
import { makeGroupNames, makeUsername } from '../../../authentication/serviceaccount/util.js';
import { newClusterBinding, newRule, RBAC_GROUP } from './builders.js';
import { withDefaultMetadata } from './metadata.js';
import { AllAuthenticated, eventsRule, KubeControllerManager } from './policy.js';

/**
 * The roles of the controllers this server runs in process that kube runs in
 * kube-controller-manager (bootstrappolicy/controller_policy.go), by kube's names, bound as kube
 * binds them: to the service account `kube-system/<controller>`. The controllers act as those
 * service accounts' users (`system:serviceaccount:kube-system:<controller>`, as
 * kube-controller-manager does with --use-service-account-credentials), so the bindings apply as
 * they are. kube's events rule (create, update and patch of events in core and events.k8s.io) is
 * in the roles kube gives it.
 *
 * Controllers that kube runs inside kube-apiserver keep kube-apiserver's loopback identity
 * (`system:apiserver` in system:masters, runtime/controlplane/loopback.ts): the bootstrap of this
 * policy, the system namespaces and the `kubernetes` Service, the service IP repair, the CRD
 * controllers (naming, establishing, finalizer, non-structural schema, discovery), the APIService
 * registration, availability and auto-registration controllers, and the publisher of
 * kube-system/extension-apiserver-authentication. They need every permission they use on every
 * resource a cluster may hold, which is what kube gives them.
 */

export const SA_ROLE_PREFIX = 'system:controller:';
export const CONTROLLER_NAMESPACE = 'kube-system';

/** The controllers with their own identity, by kube-controller-manager's names. */
export const CONTROLLER_NAMES = {
  clusterRoleAggregation: 'clusterrole-aggregation-controller',
  garbageCollector: 'generic-garbage-collector',
  namespace: 'namespace-controller',
  rootCACertPublisher: 'root-ca-cert-publisher',
  serviceAccount: 'service-account-controller',
} as const;

export type ControllerName = (typeof CONTROLLER_NAMES)[keyof typeof CONTROLLER_NAMES];

const CONTROLLER_RULES: Readonly<Record<ControllerName, () => PolicyRule[]>> = {
  // full permissions on clusterroles, to write any rules into an aggregated role (escalate included)
  'clusterrole-aggregation-controller': () => [newRule('escalate', 'get', 'list', 'watch', 'update', 'patch').groups(RBAC_GROUP).resources('clusterroles').rule()],
  // list/watches, selective gets and updates (ownerReferences, finalizers) and deletes of any resource
  'generic-garbage-collector': () => [newRule('get', 'list', 'watch', 'patch', 'update', 'delete').groups('*').resources('*').rule(), eventsRule()],
  'namespace-controller': () => [
    newRule('get', 'list', 'watch', 'delete').groups('').resources('namespaces').rule(),
    newRule('update').groups('').resources('namespaces/finalize', 'namespaces/status').rule(),
    newRule('get', 'list', 'watch', 'delete', 'deletecollection').groups('*').resources('*').rule(),
  ],
  // its informers run as the kube-controller-manager (policy.ts); it creates and updates kube-root-ca.crt
  'root-ca-cert-publisher': () => [newRule('create', 'update').groups('').resources('configmaps').rule(), eventsRule()],
  // its informers run as the kube-controller-manager (policy.ts); it only creates `default`
  'service-account-controller': () => [newRule('create').groups('').resources('serviceaccounts').rule(), eventsRule()],
};

/** ControllerRoles(): one `system:controller:<name>` ClusterRole per controller, in kube's (alphabetical) order. */
export function controllerRoles(): ClusterRole[] {
  return controllerNames().map((name) =>
    withDefaultMetadata<ClusterRole>({ apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name: SA_ROLE_PREFIX + name }, rules: CONTROLLER_RULES[name]() }),
  );
}

/** ControllerRoleBindings(): each controller role to the controller's service account in kube-system. */
export function controllerRoleBindings(): ClusterRoleBinding[] {
  return controllerNames().map((name) =>
    withDefaultMetadata(
      newClusterBinding(SA_ROLE_PREFIX + name)
        .sas(CONTROLLER_NAMESPACE, name)
        .binding(),
    ),
  );
}

function controllerNames(): ControllerName[] {
  return (Object.keys(CONTROLLER_RULES) as ControllerName[]).sort();
}

/**
 * The user a controller acts as: its service account's user with the groups the service account
 * token authenticator gives it (serviceaccount.UserInfo) and system:authenticated.
 */
export function controllerUser(name: ControllerName): UserInfo {
  return Object.freeze({
    name: makeUsername(CONTROLLER_NAMESPACE, name),
    groups: Object.freeze([...makeGroupNames(CONTROLLER_NAMESPACE), AllAuthenticated]),
  });
}

/** The users of every controller with its own identity, for the control plane to run them as. */
export function controllerUsers(): Readonly<Record<ControllerName, UserInfo>> {
  return Object.freeze(Object.fromEntries(controllerNames().map((n) => [n, controllerUser(n)])) as Record<ControllerName, UserInfo>);
}

/**
 * kube-controller-manager's own user (its client certificate's CN): what the shared informers of
 * the controllers above list and watch as, bound to system:kube-controller-manager (policy.ts).
 */
export function kubeControllerManagerUser(): UserInfo {
  return Object.freeze({ name: KubeControllerManager, groups: Object.freeze([AllAuthenticated]) });
}
