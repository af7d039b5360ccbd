import type { ClusterRole, ClusterRoleBinding, PolicyRule } from '../../../../apis/rbac/v1/types.js';
import { newClusterBinding, newRule, RBAC_GROUP } from './builders.js';
import { AGGREGATE_TO_ADMIN, AGGREGATE_TO_EDIT, AGGREGATE_TO_VIEW, withDefaultMetadata } from './metadata.js';

/**
 * kube's bootstrap cluster roles and bindings (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/
 * policy.go), reduced to what this server serves: the names, labels, annotations and rule shapes
 * are kube's, and a rule keeps only the resources (and subresources) of the groups served here —
 * the core group's configmaps, endpoints, namespaces, services and serviceaccounts, RBAC, and the
 * review APIs. Roles for components this server does not have (nodes, kube-proxy, the scheduler,
 * kubelets, CSR signers, heapster, kube-dns, volume provisioners) are left out. kube's events rule
 * (eventsRule) is kept where kube grants it.
 */

const legacyGroup = '';
const eventsGroup = 'events.k8s.io';
const coordinationGroup = 'coordination.k8s.io';
const authenticationGroup = 'authentication.k8s.io';
const authorizationGroup = 'authorization.k8s.io';

/** bootstrappolicy's verb sets. */
export const Read = ['get', 'list', 'watch'];
export const Write = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const ReadWrite = [...Read, ...Write];

/** user.SystemPrivilegedGroup and the other well-known groups and users the policy names. */
export const SystemPrivilegedGroup = 'system:masters';
export const AllAuthenticated = 'system:authenticated';
export const AllUnauthenticated = 'system:unauthenticated';
export const MonitoringGroup = 'system:monitoring';
export const AllServiceAccountsGroup = 'system:serviceaccounts';
export const KubeControllerManager = 'system:kube-controller-manager';
export const KubeScheduler = 'system:kube-scheduler';

function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregateTo?: string } = {}): ClusterRole {
  const role: ClusterRole = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name, ...(extra.labels ? { labels: extra.labels } : {}) }, rules };
  if (extra.aggregateTo !== undefined) {
    role.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateTo]: 'true' } }] };
    delete role.rules;
  }
  return role;
}

/** ClusterRoles(): the cluster roles an API server bootstraps, with the default metadata. */
export function clusterRoles(): ClusterRole[] {
  const roles = [
    // a "root" role which can do absolutely anything
    clusterRole('cluster-admin', [newRule('*').groups('*').resources('*').rule(), newRule('*').urls('*').rule()]),
    // just enough power to determine if the server is ready and discover API versions for negotiation
    clusterRole('system:discovery', [newRule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*').rule()]),
    // for monitoring endpoints
    clusterRole('system:monitoring', [newRule('get').urls('/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*').rule()]),
    // minimal access for a "normal" user to learn information about themselves
    clusterRole('system:basic-user', [
      newRule('create').groups(authorizationGroup).resources('selfsubjectaccessreviews', 'selfsubjectrulesreviews').rule(),
      newRule('create').groups(authenticationGroup).resources('selfsubjectreviews').rule(),
    ]),
    // just enough power to read insensitive cluster information
    clusterRole('system:public-info-viewer', [newRule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/').rule()]),
    // a namespace level admin: edit plus the power to grant permissions to other users
    clusterRole('admin', [], { aggregateTo: AGGREGATE_TO_ADMIN }),
    // a namespace level editor: every user level action in a namespace, no /status, quota or limits
    clusterRole('edit', [], { labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregateTo: AGGREGATE_TO_EDIT }),
    // namespace level viewing: read-only access to non-escalating resources
    clusterRole('view', [], { labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregateTo: AGGREGATE_TO_VIEW }),
    clusterRole('system:aggregate-to-admin', aggregateToAdminRules(), { labels: { [AGGREGATE_TO_ADMIN]: 'true' } }),
    clusterRole('system:aggregate-to-edit', aggregateToEditRules(), { labels: { [AGGREGATE_TO_EDIT]: 'true' } }),
    clusterRole('system:aggregate-to-view', aggregateToViewRules(), { labels: { [AGGREGATE_TO_VIEW]: 'true' } }),
    // authentication and authorization delegation (an aggregated server's service account is bound to it)
    clusterRole('system:auth-delegator', [
      newRule('create').groups(authenticationGroup).resources('tokenreviews').rule(),
      newRule('create').groups(authorizationGroup).resources('subjectaccessreviews').rule(),
    ]),
    // the API registry, summarization and proxy handling: it must see the services APIServices point to
    clusterRole('system:kube-aggregator', [
      newRule(...Read)
        .groups(legacyGroup)
        .resources('services', 'endpoints')
        .rule(),
    ]),
    clusterRole(KubeControllerManager, kubeControllerManagerRules()),
    // reading the service account issuer's OIDC discovery documents
    clusterRole('system:service-account-issuer-discovery', [newRule('get').urls('/.well-known/openid-configuration', '/openid/v1/jwks').rule()]),
  ];
  return roles.map(withDefaultMetadata);
}

function aggregateToAdminRules(): PolicyRule[] {
  return [
    newRule('create').groups(authorizationGroup).resources('localsubjectaccessreviews').rule(),
    newRule(...ReadWrite)
      .groups(RBAC_GROUP)
      .resources('roles', 'rolebindings')
      .rule(),
  ];
}

/** kube's rules over the core resources served here; its pods, proxy and workload rules have nothing to apply to. */
function aggregateToEditRules(): PolicyRule[] {
  return [
    // read on escalating resources
    newRule(...Read)
      .groups(legacyGroup)
      .resources('secrets')
      .rule(),
    newRule('impersonate').groups(legacyGroup).resources('serviceaccounts').rule(),
    newRule(...Write)
      .groups(legacyGroup)
      .resources('serviceaccounts', 'services', 'endpoints', 'configmaps', 'secrets')
      .rule(),
    newRule('create').groups(legacyGroup).resources('serviceaccounts/token').rule(),
  ];
}

function aggregateToViewRules(): PolicyRule[] {
  return [
    newRule(...Read)
      .groups(legacyGroup)
      .resources('serviceaccounts', 'services', 'services/status', 'endpoints', 'configmaps')
      .rule(),
    newRule(...Read)
      .groups(legacyGroup)
      .resources('events', 'namespaces/status')
      .rule(),
    // read access to namespaces at the namespace scope means you can read *this* namespace
    newRule(...Read)
      .groups(legacyGroup)
      .resources('namespaces')
      .rule(),
  ];
}

/** kube's eventsRule: recording Events through either API (core/v1 and events.k8s.io/v1 are one storage). */
export function eventsRule(): PolicyRule {
  return newRule('create', 'update', 'patch').groups(legacyGroup, eventsGroup).resources('events').rule();
}

/**
 * The kube-controller-manager's own identity: kube runs every controller's shared informers with
 * it (list and watch of everything), and each controller's writes with its own service account.
 */
function kubeControllerManagerRules(): PolicyRule[] {
  return [
    eventsRule(),
    // leader election on the Lease kube-system/kube-controller-manager
    newRule('create').groups(coordinationGroup).resources('leases').rule(),
    newRule('get', 'update').groups(coordinationGroup).resources('leases').names('kube-controller-manager').rule(),
    // kube still grants the Endpoints lock that leader election used before Leases
    newRule('create').groups(legacyGroup).resources('endpoints').rule(),
    newRule('get', 'update').groups(legacyGroup).resources('endpoints').names('kube-controller-manager').rule(),
    newRule('create').groups(legacyGroup).resources('secrets', 'serviceaccounts').rule(),
    newRule('delete').groups(legacyGroup).resources('secrets').rule(),
    newRule('get').groups(legacyGroup).resources('namespaces', 'secrets', 'serviceaccounts', 'configmaps').rule(),
    newRule('update').groups(legacyGroup).resources('secrets', 'serviceaccounts').rule(),
    newRule('create').groups(authenticationGroup).resources('tokenreviews').rule(),
    newRule('create').groups(authorizationGroup).resources('subjectaccessreviews').rule(),
    newRule('list', 'watch').groups('*').resources('*').rule(),
    newRule('create').groups(legacyGroup).resources('serviceaccounts/token').rule(),
  ];
}

/** ClusterRoleBindings(): the default bindings of the default roles. */
export function clusterRoleBindings(): ClusterRoleBinding[] {
  return [
    newClusterBinding('cluster-admin').groups(SystemPrivilegedGroup).binding(),
    newClusterBinding('system:monitoring').groups(MonitoringGroup).binding(),
    newClusterBinding('system:discovery').groups(AllAuthenticated).binding(),
    newClusterBinding('system:basic-user').groups(AllAuthenticated).binding(),
    newClusterBinding('system:public-info-viewer').groups(AllAuthenticated, AllUnauthenticated).binding(),
    newClusterBinding(KubeControllerManager).users(KubeControllerManager).binding(),
    // every in-cluster workload may read the OIDC discovery documents of what issued its token
    newClusterBinding('system:service-account-issuer-discovery').groups(AllServiceAccountsGroup).binding(),
  ].map(withDefaultMetadata);
}

/** ClusterRolesToAggregate: the roles that were not aggregated before, and where their rules moved. */
export function clusterRolesToAggregate(): ReadonlyMap<string, string> {
  return new Map([
    ['admin', 'system:aggregate-to-admin'],
    ['edit', 'system:aggregate-to-edit'],
    ['view', 'system:aggregate-to-view'],
  ]);
}

/**
 * ClusterRoleBindingsToSplit: system:discovery used to grant the public information to the
 * unauthenticated too; a cluster that has it keeps its subjects on system:public-info-viewer.
 */
export function clusterRoleBindingsToSplit(): ReadonlyMap<string, ClusterRoleBinding> {
  const split = new Map<string, ClusterRoleBinding>();
  for (const b of clusterRoleBindings()) if (b.metadata?.name === 'system:public-info-viewer') split.set('system:discovery', b);
  return split;
}
