// The roles, bindings and objects the security matrix is checked against, as manifests the
// admin creates with `kubectl create -f -`. Each grant names who gets it and why, so that the
// matrix's expected cells can be read off this file.

const RBAC = 'rbac.authorization.k8s.io';
const RBAC_V1 = `${RBAC}/v1`;

type Rule = Readonly<Record<string, readonly string[]>>;
type Subject = { readonly kind: 'User' | 'Group'; readonly name: string } | { readonly kind: 'ServiceAccount'; readonly name: string; readonly namespace: string };

const role = (namespace: string, name: string, rules: readonly Rule[]): object => ({ apiVersion: RBAC_V1, kind: 'Role', metadata: { namespace, name }, rules });
const clusterRole = (name: string, rules: readonly Rule[]): object => ({ apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name }, rules });

function subjects(list: readonly Subject[]): object[] {
  return list.map((s) => (s.kind === 'ServiceAccount' ? { ...s } : { apiGroup: RBAC, ...s }));
}

const roleBinding = (namespace: string, name: string, roleRef: { kind: 'Role' | 'ClusterRole'; name: string }, to: readonly Subject[]): object => ({
  apiVersion: RBAC_V1,
  kind: 'RoleBinding',
  metadata: { namespace, name },
  roleRef: { apiGroup: RBAC, ...roleRef },
  subjects: subjects(to),
});

const clusterRoleBinding = (name: string, roleName: string, to: readonly Subject[]): object => ({
  apiVersion: RBAC_V1,
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
  subjects: subjects(to),
});

export const list = (items: readonly object[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });

export const service = (namespace: string, name: string): object => ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: { ports: [{ port: 80 }] } });
export const flunder = (namespace: string, name: string): object => ({ apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { namespace, name }, spec: { flunderReference: 'other' } });
export const cronTab = (namespace: string, name: string): object => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { namespace, name },
  spec: { cronSpec: '* * * * */5', image: 'img' },
});

/** Namespaces a and b, the service account a/robot and the objects the probes name (the CRD comes first, from apis/crds). */
export const OBJECTS = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } },
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'a', name: 'robot' } },
  service('a', 'web'),
];

/** Custom resources, created once the CRD is established. */
export const CUSTOM_OBJECTS = [cronTab('b', 'ct1')];

export const POLICY = [
  // Group devs (alice) reads services in a, and nowhere else.
  role('a', 'service-reader', [{ apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch'] }]),
  roleBinding('a', 'devs-read-services', { kind: 'Role', name: 'service-reader' }, [{ kind: 'Group', name: 'devs' }]),
  // User alice herself (not her group) and the service account a/robot edit flunders in a.
  role('a', 'flunder-editor', [{ apiGroups: ['wardle.example.com'], resources: ['flunders'], verbs: ['get', 'list', 'create', 'delete'] }]),
  roleBinding('a', 'flunder-editors', { kind: 'Role', name: 'flunder-editor' }, [
    { kind: 'User', name: 'alice' },
    { kind: 'ServiceAccount', name: 'robot', namespace: 'a' },
  ]),
  // carol (client certificate) reads crontabs in b, through a ClusterRole bound in b only.
  clusterRole('matrix-crontab-reader', [{ apiGroups: ['stable.example.com'], resources: ['crontabs'], verbs: ['get', 'list', 'watch'] }]),
  roleBinding('b', 'carol-reads-crontabs', { kind: 'ClusterRole', name: 'matrix-crontab-reader' }, [{ kind: 'User', name: 'carol' }]),
  // Group ops (bob) writes the status of services in a, not the services themselves.
  clusterRole('matrix-service-status', [{ apiGroups: [''], resources: ['services/status'], verbs: ['get', 'patch', 'update'] }]),
  roleBinding('a', 'ops-service-status', { kind: 'ClusterRole', name: 'matrix-service-status' }, [{ kind: 'Group', name: 'ops' }]),
  // Group ops lists namespaces (cluster scope).
  clusterRole('matrix-namespace-lister', [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }]),
  clusterRoleBinding('matrix-ops-list-namespaces', 'matrix-namespace-lister', [{ kind: 'Group', name: 'ops' }]),
  // carol reads /metrics (a non-resource URL).
  clusterRole('matrix-metrics-reader', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]),
  clusterRoleBinding('matrix-carol-metrics', 'matrix-metrics-reader', [{ kind: 'User', name: 'carol' }]),
  // bob may impersonate the user alice, and no one else.
  clusterRole('matrix-impersonate-alice', [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice'] }]),
  clusterRoleBinding('matrix-bob-impersonates-alice', 'matrix-impersonate-alice', [{ kind: 'User', name: 'bob' }]),
];
