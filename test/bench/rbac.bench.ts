// RBAC authorizer micro-benchmark (issue 14): the cost of one authorization in process, with a
// policy of 10 roles and 10 bindings and with 1,000 roles and 1,000 bindings (mixed users,
// groups and service accounts, Roles and ClusterRoles, RoleBindings over 50 namespaces and
// ClusterRoleBindings). The requests' own bindings are the same in both (kube's bootstrap-like
// bindings of system:authenticated / system:unauthenticated, and one binding per probe user), so
// the difference is only the bindings that do not apply: with the subject index it should not
// matter. Beside it, kube's unindexed VisitRulesFor (every ClusterRoleBinding and every
// RoleBinding of the namespace through appliesTo), to show what the index saves.
// Per size and request: µs per call (median of 7 rounds, every case measured in each round) and authorizations per second, for the
// decision alone (authorizeSync) and as the authorization filter calls it (authorize, awaited).
// BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- rbac
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, Subject } from '../../apis/rbac/v1/types.js';
import type { Attributes } from '../../runtime/apimachinery/request/authorizer.js';
import { RBACAuthorizer } from '../../runtime/authorization/rbac/authorizer.js';
import { PolicyStore } from '../../runtime/authorization/rbac/policy.js';
import { DefaultRuleResolver } from '../../runtime/authorization/rbac/resolver.js';
import { ruleAllows } from '../../runtime/authorization/rbac/rules.js';
import { appliesTo } from '../../runtime/authorization/rbac/subjects.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 3 : 7;
const CALLS = quick ? 20_000 : 100_000;
const NAMESPACES = 50;
/** Server CPU per GET measured in test/bench/README.md ("HTTP", SQLite): what 10 % is of. */
const SERVER_CPU_PER_GET_US = 180;
const G = 'rbac.authorization.k8s.io';

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups, resources });
const user = (name: string): Subject => ({ kind: 'User', apiGroup: G, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: G, name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });
const crb = (name: string, role: string, subjects: Subject[]): ClusterRoleBinding => ({ metadata: { name }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: role }, subjects });
const rb = (namespace: string, name: string, kind: string, role: string, subjects: Subject[]): RoleBinding => ({
  metadata: { namespace, name },
  roleRef: { apiGroup: G, kind, name: role },
  subjects,
});

/** The bindings every size has: what the probe requests use. 5 roles, 5 bindings. */
function probePolicy(store: PolicyStore): void {
  const clusterRoles: ClusterRole[] = [
    { metadata: { name: 'system:discovery' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/readyz', '/version', '/version/'] }] },
    { metadata: { name: 'system:basic-user' }, rules: [rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'])] },
    { metadata: { name: 'flunder-editor' }, rules: [rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['wardle.example.com'], ['flunders', 'flunders/status'])] },
  ];
  for (const r of clusterRoles) store.upsertClusterRole(r);
  store.upsertRole({ metadata: { namespace: 'ns-0', name: 'pod-reader' }, rules: [rule(['get', 'list', 'watch'], [''], ['pods', 'pods/log']), rule(['get', 'list'], [''], ['configmaps'])] });
  store.upsertClusterRoleBinding(crb('system:discovery', 'system:discovery', [group('system:authenticated'), group('system:unauthenticated')]));
  store.upsertClusterRoleBinding(crb('system:basic-user', 'system:basic-user', [group('system:authenticated')]));
  store.upsertClusterRoleBinding(crb('devs-flunders', 'flunder-editor', [group('devs')]));
  store.upsertRoleBinding(rb('ns-0', 'alice-pods', 'Role', 'pod-reader', [user('alice'), sa('ns-0', 'robot')]));
}

/**
 * `n` more roles and `n` more bindings that apply to none of the probe users: half ClusterRoles,
 * half Roles over 50 namespaces; bindings half ClusterRoleBindings, half RoleBindings, each
 * naming a user, a group and a service account.
 */
function fillerPolicy(store: PolicyStore, n: number): void {
  const rules = (i: number): PolicyRule[] => [
    rule(['get', 'list', 'watch'], [''], [`res-${i}`, `res-${i}/status`]),
    rule(['create', 'update'], [`group-${i % 7}.example.com`], [`kind-${i}s`]),
    { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: [`secret-${i}`] },
  ];
  for (let i = 0; i < n; i++) {
    const ns = `ns-${i % NAMESPACES}`;
    if (i % 2 === 0) store.upsertClusterRole({ metadata: { name: `cr-${i}` }, rules: rules(i) });
    else store.upsertRole({ metadata: { namespace: ns, name: `role-${i}` }, rules: rules(i) } satisfies Role);
    const subjects = [user(`user-${i}`), group(`group-${i}`), sa(ns, `sa-${i}`)];
    if (i % 2 === 0) store.upsertClusterRoleBinding(crb(`crb-${i}`, `cr-${i}`, subjects));
    else store.upsertRoleBinding(rb(ns, `rb-${i}`, i % 4 === 1 ? 'Role' : 'ClusterRole', i % 4 === 1 ? `role-${i}` : `cr-${i - 1}`, subjects));
  }
}

function storeOfSize(total: number): PolicyStore {
  const store = new PolicyStore();
  probePolicy(store);
  fillerPolicy(store, total - 5);
  return store;
}

const res = (u: Attributes['user'], verb: string, apiGroup: string, resource: string, subresource: string, namespace: string): Attributes => ({
  user: u,
  verb,
  isResourceRequest: true,
  path: '',
  namespace,
  apiGroup,
  apiVersion: 'v1',
  resource,
  subresource,
  name: '',
});
const authed = (name: string, ...groups: string[]): Attributes['user'] => ({ name, groups: [...groups, 'system:authenticated'] });

const requests: { name: string; attrs: Attributes; allowed: boolean }[] = [
  { name: 'allow get pods (RoleBinding, user)', attrs: res(authed('alice'), 'get', '', 'pods', '', 'ns-0'), allowed: true },
  { name: 'allow update flunders/status (ClusterRoleBinding, group)', attrs: res(authed('bob', 'devs'), 'update', 'wardle.example.com', 'flunders', 'status', 'ns-7'), allowed: true },
  {
    name: 'allow list configmaps (RoleBinding, service account)',
    attrs: res(authed('system:serviceaccount:ns-0:robot', 'system:serviceaccounts', 'system:serviceaccounts:ns-0'), 'list', '', 'configmaps', '', 'ns-0'),
    allowed: true,
  },
  {
    name: 'allow get /healthz (anonymous)',
    attrs: { ...res({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'get', '', '', '', ''), isResourceRequest: false, path: '/healthz' },
    allowed: true,
  },
  { name: 'forbid delete secrets (no rule)', attrs: res(authed('carol'), 'delete', '', 'secrets', '', 'ns-3'), allowed: false },
];

/** kube's VisitRulesFor without an index: every ClusterRoleBinding, then every RoleBinding of the namespace. */
function scanAllows(store: PolicyStore, resolver: DefaultRuleResolver, crbs: readonly ClusterRoleBinding[], attrs: Attributes): boolean {
  const u = attrs.user;
  if (u === undefined) return false;
  const visit = (bindings: readonly (ClusterRoleBinding | RoleBinding)[], ns: string): boolean => {
    for (const b of bindings) {
      if (appliesTo(u, b.subjects, ns) < 0) continue;
      const rules = resolver.roleReferenceRules(b.roleRef, ns);
      if (!(rules instanceof Error) && rules.some((r) => ruleAllows(attrs, r))) return true;
    }
    return false;
  };
  return visit(crbs, '') || (attrs.namespace !== '' && visit(store.listRoleBindings(attrs.namespace), attrs.namespace));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** One measured case: a function called CALLS times per round. */
interface Case {
  readonly key: string;
  readonly run: () => unknown;
  readonly awaited: boolean;
  readonly rounds: number[];
}

async function batch(c: Case, calls: number): Promise<number> {
  const t0 = performance.now();
  if (c.awaited) for (let i = 0; i < calls; i++) await c.run();
  else for (let i = 0; i < calls; i++) c.run();
  return ((performance.now() - t0) * 1000) / calls;
}

const f = (us: number): string => us.toFixed(2);
const perSecond = (us: number): string => Math.round(1e6 / us).toLocaleString('en-US');
const SIZES = [10, 1000] as const;

async function main(): Promise<void> {
  console.log(
    `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`${CALLS.toLocaleString('en-US')} calls per round, median of ${ROUNDS} rounds; every case measured in each round, in turn, so a change of load hits all alike\n`);
  const cases: Case[] = [];
  for (const total of SIZES) {
    const store = storeOfSize(total);
    const a = new RBACAuthorizer(store);
    const resolver = new DefaultRuleResolver(store, 'lister');
    const crbs = store.listClusterRoleBindings();
    for (const r of requests) {
      const got = a.authorizeSync(r.attrs).decision === 'allow';
      if (got !== r.allowed || scanAllows(store, resolver, crbs, r.attrs) !== r.allowed) throw new Error(`${r.name}: expected allowed=${r.allowed}`);
      cases.push({ key: `${total}:${r.name}:sync`, run: () => a.authorizeSync(r.attrs), awaited: false, rounds: [] });
      cases.push({ key: `${total}:${r.name}:awaited`, run: () => a.authorize(r.attrs), awaited: true, rounds: [] });
      cases.push({ key: `${total}:${r.name}:scan`, run: () => scanAllows(store, resolver, crbs, r.attrs), awaited: false, rounds: [] });
    }
  }
  for (const c of cases) await batch(c, CALLS / 2);
  for (let round = 0; round < ROUNDS; round++) for (const c of cases) c.rounds.push(await batch(c, CALLS));
  const us = (key: string): number => median(cases.find((c) => c.key === key)?.rounds ?? []);
  for (const total of SIZES) {
    console.log(`policy: ${total} roles, ${total} bindings`);
    console.log('| request | decision µs | decisions/s | awaited authorize µs | unindexed scan µs | awaited, % of 0.18 ms server CPU per GET |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of requests) {
      const [sync, awaited, scan] = [us(`${total}:${r.name}:sync`), us(`${total}:${r.name}:awaited`), us(`${total}:${r.name}:scan`)];
      console.log(`| ${r.name} | ${f(sync)} | ${perSecond(sync)} | ${f(awaited)} | ${f(scan)} | ${((awaited / SERVER_CPU_PER_GET_US) * 100).toFixed(1)} % |`);
    }
    console.log('');
  }
  console.log('| request | decision, 1,000 / 10 | unindexed scan, 1,000 / 10 |');
  console.log('| --- | --- | --- |');
  for (const r of requests) {
    const ratio = (kind: string): string => (us(`1000:${r.name}:${kind}`) / us(`10:${r.name}:${kind}`)).toFixed(2);
    console.log(`| ${r.name} | ${ratio('sync')} | ${ratio('scan')} |`);
  }
}

runBench(main);
