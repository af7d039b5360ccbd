// Issue 14's acceptance matrix, with the real kubectl against the control plane command on
// SQLite and etcd (authorization mode RBAC, the default): users (the admin in system:masters,
// anonymous, token users in groups, a client-certificate user, a service account's token,
// impersonation by the admin and by a user allowed to impersonate one user) × requests (verbs on
// a built-in resource, a CRD's resource, a served group's resource, a subresource, cluster scope,
// non-resource URLs), against the roles and bindings of lib/policy.ts. Each cell is checked by
// the request's outcome (kube's Forbidden wording) and by `kubectl auth can-i`. Then escalation
// attempts, `auth can-i --list` and `auth whoami`. An aggregated group (an APIService proxied to
// the standalone server) needs that server running: test/aggregator/delegated-auth.test.ts checks
// it ("a token user bound to read flunders in a lists them through the aggregator and is 403 in b").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ok, until } from '../integration/assertions.js';
import { describeBackends, repoRoot, type ControlPlane } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable, squashLines, type KubectlResult } from '../integration/kubectl.js';
import { checkRow, runAs, type Row } from './lib/cells.js';
import { CUSTOM_OBJECTS, OBJECTS, POLICY, flunder, list, service } from './lib/policy.js';
import { create, get, path, patchSubresource, remove, watch, type Probe } from './lib/probes.js';
import { ANONYMOUS_ENTRY, TOKEN_FILE, clientCertificate, writeKubeconfig, type User } from './lib/users.js';

const noKubectl = kubectlUnavailable();
const dir = mkdtempSync(join(tmpdir(), 'security-matrix-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, TOKEN_FILE);
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

const WARDLE = 'wardle.example.com';
const STABLE = 'stable.example.com';

// The columns: what each user tries.
const P = {
  listServicesA: get({ group: '', resource: 'services', namespace: 'a' }),
  listServicesB: get({ group: '', resource: 'services', namespace: 'b' }),
  getWeb: get({ group: '', resource: 'services', namespace: 'a', name: 'web' }),
  watchServicesA: watch({ group: '', resource: 'services', namespace: 'a' }),
  createServiceA: create({ group: '', resource: 'services', namespace: 'a' }, service('a', 'new')),
  deleteWeb: remove({ group: '', resource: 'services', namespace: 'a', name: 'web' }),
  patchWebStatus: patchSubresource({ group: '', resource: 'services', subresource: 'status', namespace: 'a', name: 'web' }),
  listFlundersA: get({ group: WARDLE, resource: 'flunders', namespace: 'a' }),
  createFlunderA: create({ group: WARDLE, resource: 'flunders', namespace: 'a' }, flunder('a', 'new')),
  listCronTabsB: get({ group: STABLE, resource: 'crontabs', namespace: 'b' }),
  listCronTabsA: get({ group: STABLE, resource: 'crontabs', namespace: 'a' }),
  listNamespaces: get({ group: '', resource: 'namespaces' }),
  metrics: path('/metrics'),
  healthz: path('/healthz'),
  apis: path('/apis'),
  openapi: path('/openapi/v3'),
} satisfies Record<string, Probe>;
const ALL: readonly Probe[] = Object.values(P);
/** system:discovery and system:public-info-viewer, bound to every authenticated user by the bootstrap policy. */
const DISCOVERY = [P.healthz, P.apis, P.openapi];
/** Anonymous cannot read discovery, so kubectl's resource commands fail before the request; raw requests show the decision. */
const RAW = [P.watchServicesA, P.metrics, P.healthz, P.apis, P.openapi];

const impersonationRefused = (user: string, as: string): string =>
  `Error from server (Forbidden): users "${as}" is forbidden: User "${user}" cannot impersonate resource "users" in API group "" at the cluster scope`;

interface Users {
  admin: User;
  anonymous: User;
  alice: User;
  bob: User;
  carol: User;
  robot: User;
  adminAsAlice: User;
  bobAsAlice: User;
  bobAsCarol: User;
}

/** The rows: who may do what under lib/policy.ts. */
function matrix(u: Users): Row[] {
  return [
    { user: u.admin, probes: ALL, allowed: ALL },
    { user: u.anonymous, probes: RAW, allowed: [P.healthz] },
    { user: u.alice, probes: ALL, allowed: [P.listServicesA, P.getWeb, P.watchServicesA, P.listFlundersA, P.createFlunderA, ...DISCOVERY] },
    { user: u.bob, probes: ALL, allowed: [P.patchWebStatus, P.listNamespaces, ...DISCOVERY] },
    { user: u.carol, probes: ALL, allowed: [P.listCronTabsB, P.metrics, ...DISCOVERY] },
    { user: u.robot, probes: ALL, allowed: [P.listFlundersA, P.createFlunderA, ...DISCOVERY] },
    // --as alice --as-group devs: alice with her group, exactly as her own token.
    { user: u.adminAsAlice, probes: ALL, allowed: [P.listServicesA, P.getWeb, P.watchServicesA, P.listFlundersA, P.createFlunderA, ...DISCOVERY] },
    // bob acting as alice gets alice's own grants but not group devs' (the groups asked for replace hers).
    { user: u.bobAsAlice, probes: ALL, allowed: [P.listFlundersA, P.createFlunderA, ...DISCOVERY] },
    // Refused before anything else, even /healthz; non-resource probes only, as kubectl's discovery fails too.
    { user: u.bobAsCarol, probes: [P.healthz, P.metrics], allowed: [], refusal: impersonationRefused('bob', 'carol') },
  ];
}

describe('security matrix with kubectl', { skip: noKubectl ?? false }, () => {
  describeBackends(
    'security matrix',
    (cp) => {
      let kc: Kubectl;
      let u: Users;
      const admin = (args: string[], stdin?: string): Promise<KubectlResult> => kc.run(args, stdin === undefined ? {} : { stdin });
      /** RBAC follows roles and bindings through informers: a new grant is polled for. */
      const eventually = (user: User, args: string[]): Promise<string> =>
        until(`${user.label}: kubectl ${args.join(' ')}`, async () => {
          const r = await runAs(kc, user, args);
          return r.code === 0 ? r.stdout : undefined;
        });

      before(async () => {
        kc = new Kubectl(cp);
        const c = cp();
        ok(await admin(['create', '-f', join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml')]), c);
        ok(await admin(['create', '-f', '-'], list(OBJECTS)), c);
        ok(await admin(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=60s']), c);
        await until('the CronTab kind to be served', async () => ((await admin(['create', '-f', '-'], list(CUSTOM_OBJECTS))).code === 0 ? true : undefined));
        ok(await admin(['create', '-f', '-'], list(POLICY)), c);
        u = await users(kc, c);
        // Wait until the authorizer has seen every binding (one grant of each).
        await eventually(u.alice, ['get', 'services', '-n', 'a']);
        await eventually(u.alice, ['get', 'flunders', '-n', 'a']);
        await eventually(u.robot, ['get', 'flunders', '-n', 'a']);
        await eventually(u.bob, ['get', 'namespaces']);
        await eventually(u.bob, ['get', 'services', 'web', '-n', 'a', '--subresource=status']);
        await eventually(u.carol, ['get', 'crontabs', '-n', 'b']);
        await eventually(u.carol, ['get', '--raw', '/metrics']);
        await eventually(u.bobAsAlice, ['get', 'flunders', '-n', 'a']);
      });
      after(() => kc.dispose());

      for (const [i, label] of [
        'admin (system:masters)',
        'anonymous',
        'alice (token, group devs)',
        'bob (token, group ops)',
        'carol (client certificate, O=auditors)',
        'service account a/robot',
        'admin --as alice --as-group devs',
        'bob --as alice',
        'bob --as carol',
      ].entries()) {
        it(`${label}: every request and kubectl auth can-i agree with the policy`, async () => {
          const row = matrix(u)[i];
          assert.ok(row !== undefined && row.user.label === label, `row ${i} is ${row?.user.label}`);
          assert.deepEqual(await checkRow(kc, row), []);
        });
      }

      it('anonymous: kubectl cannot read discovery (as against kube: "Forbidden): unknown"), nor ask can-i or whoami', async () => {
        // A kubectl with no discovery cached (the shared one has the admin's).
        const fresh = new Kubectl(cp);
        const r = await runAs(fresh, u.anonymous, ['get', 'services', '-n', 'a']).finally(() => fresh.dispose());
        assert.equal(r.code, 1);
        assert.match(r.stderr.trim(), /couldn't get current server API group list: unknown[^]*\nError from server \(Forbidden\): unknown$/);
        const canI = await runAs(kc, u.anonymous, ['auth', 'can-i', 'get', '/healthz']);
        assert.equal(canI.code, 1);
        assert.equal(
          canI.stderr.trim(),
          'Error from server (Forbidden): selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope',
        );
        const whoami = await runAs(kc, u.anonymous, ['auth', 'whoami']);
        assert.equal(whoami.code, 1);
        // kubectl's whoami words a 403 (or 404) of the SelfSubjectReview its own way.
        assert.equal(whoami.stderr.trim(), 'error: the selfsubjectreviews API is not enabled in the cluster or you do not have permission to call it');
      });

      it('escalation: alice, who may write roles and bindings in b, cannot grant more than she holds without escalate or bind', async () => {
        const alice = (args: string[]): Promise<KubectlResult> => runAs(kc, u.alice, args);
        const heldBy = 'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:';
        ok(await admin(['create', 'role', 'rbac-writer', '--verb=get,list,create,delete', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io', '-n', 'b']), cp());
        ok(await admin(['create', 'rolebinding', 'alice-rbac-writer', '--role=rbac-writer', '--user=alice', '-n', 'b']), cp());
        await eventually(u.alice, ['get', 'roles', '-n', 'b']);
        assert.equal(ok(await alice(['auth', 'can-i', 'create', 'roles', '-n', 'b']), cp()), 'yes');
        assert.equal((await alice(['auth', 'can-i', 'escalate', 'roles', '-n', 'b'])).stdout.trim(), 'no');
        assert.equal((await alice(['auth', 'can-i', 'bind', 'clusterroles/admin', '-n', 'b'])).stdout.trim(), 'no');

        const grab = await alice(['create', 'role', 'grab', '--verb=delete', '--resource=namespaces', '-n', 'b']);
        assert.equal(grab.code, 1, grab.stdout);
        assert.equal(grab.stderr.trim(), `Error from server (Forbidden): roles.rbac.authorization.k8s.io "grab" is forbidden: ${heldBy}\n{APIGroups:[""], Resources:["namespaces"], Verbs:["delete"]}`);
        const bindAdmin = await alice(['create', 'rolebinding', 'dave-admin', '--clusterrole=admin', '--user=dave', '-n', 'b']);
        assert.equal(bindAdmin.code, 1, bindAdmin.stdout);
        // kubectl create rolebinding wraps the server's error (kubectl's create_rolebinding.go).
        assert.ok(bindAdmin.stderr.startsWith(`error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "dave-admin" is forbidden: ${heldBy}\n`), bindAdmin.stderr);

        // bind on the ClusterRole admin (by name): the binding is allowed; the role still is not.
        ok(await admin(['create', 'role', 'admin-binder', '--verb=bind', '--resource=clusterroles.rbac.authorization.k8s.io', '--resource-name=admin', '-n', 'b']), cp());
        ok(await admin(['create', 'rolebinding', 'alice-admin-binder', '--role=admin-binder', '--user=alice', '-n', 'b']), cp());
        await eventually(u.alice, ['auth', 'can-i', 'bind', 'clusterroles/admin', '-n', 'b']);
        ok(await alice(['create', 'rolebinding', 'dave-admin', '--clusterrole=admin', '--user=dave', '-n', 'b']), cp());
        assert.equal((await alice(['create', 'role', 'grab', '--verb=delete', '--resource=namespaces', '-n', 'b'])).code, 1);

        // escalate on roles: the role with rules she does not hold is created.
        ok(await admin(['create', 'role', 'role-escalator', '--verb=escalate', '--resource=roles.rbac.authorization.k8s.io', '-n', 'b']), cp());
        ok(await admin(['create', 'rolebinding', 'alice-role-escalator', '--role=role-escalator', '--user=alice', '-n', 'b']), cp());
        await eventually(u.alice, ['auth', 'can-i', 'escalate', 'roles', '-n', 'b']);
        ok(await alice(['create', 'role', 'grab', '--verb=delete', '--resource=namespaces', '-n', 'b']), cp());
      });

      it('kubectl auth can-i --list: alice’s rules in namespace a, and none of b’s or carol’s', async () => {
        const rows = squashLines(ok(await runAs(kc, u.alice, ['auth', 'can-i', '--list', '-n', 'a']), cp()));
        assert.equal(rows[0], 'Resources Non-Resource URLs Resource Names Verbs');
        assert.ok(rows.includes('services [] [] [get list watch]'), rows.join('\n'));
        assert.ok(rows.includes(`flunders.${WARDLE} [] [] [get list create delete]`), rows.join('\n'));
        assert.ok(rows.includes('selfsubjectaccessreviews.authorization.k8s.io [] [] [create]'), rows.join('\n'));
        assert.ok(rows.includes('[/healthz] [] [get]'), rows.join('\n'));
        assert.ok(!rows.some((r) => r.startsWith(`crontabs.${STABLE}`) || r.startsWith('[/metrics]')), rows.join('\n'));
        const inB = squashLines(ok(await runAs(kc, u.alice, ['auth', 'can-i', '--list', '-n', 'b']), cp()));
        assert.ok(!inB.some((r) => r.startsWith('services ') || r.startsWith(`flunders.${WARDLE} `)), inB.join('\n'));
      });

      it('kubectl auth whoami: token user, service account, client certificate, impersonation', async () => {
        const whoami = async (user: User): Promise<{ username: string; groups: string[] }> => {
          const review = JSON.parse(ok(await runAs(kc, user, ['auth', 'whoami', '-o', 'json']), cp())) as { status: { userInfo: { username: string; groups: string[] } } };
          return { username: review.status.userInfo.username, groups: review.status.userInfo.groups };
        };
        assert.deepEqual(await whoami(u.alice), { username: 'alice', groups: ['devs', 'system:authenticated'] });
        assert.deepEqual(await whoami(u.robot), { username: 'system:serviceaccount:a:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:a', 'system:authenticated'] });
        assert.deepEqual(await whoami(u.carol), { username: 'carol', groups: ['auditors', 'system:authenticated'] });
        assert.deepEqual(await whoami(u.admin), { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
        assert.deepEqual(await whoami(u.adminAsAlice), { username: 'alice', groups: ['devs', 'system:authenticated'] });
        assert.deepEqual(await whoami(u.bobAsAlice), { username: 'alice', groups: ['system:authenticated'] });
      });
    },
    { extraArgs: ['--token-auth-file', tokenFile] },
  );
});

/** The users, their kubeconfigs written for this control plane (the service account's token made with kubectl). */
async function users(kc: Kubectl, cp: ControlPlane): Promise<Users> {
  const token = ok(await kc.run(['create', 'token', 'robot', '-n', 'a']), cp).trim();
  const config = (name: string, entry: Readonly<Record<string, string>>): string => writeKubeconfig(cp, dir, name, entry);
  const admin: User = { label: 'admin (system:masters)', name: 'system:admin', flags: [] };
  const bob = config('bob', { token: 'bob-token' });
  return {
    admin,
    anonymous: {
      label: 'anonymous',
      name: 'system:anonymous',
      kubeconfig: config('anonymous', ANONYMOUS_ENTRY),
      flags: [],
      reviewGroups: ['system:unauthenticated'],
    },
    alice: { label: 'alice (token, group devs)', name: 'alice', kubeconfig: config('alice', { token: 'alice-token' }), flags: [] },
    bob: { label: 'bob (token, group ops)', name: 'bob', kubeconfig: bob, flags: [] },
    carol: { label: 'carol (client certificate, O=auditors)', name: 'carol', kubeconfig: config('carol', await clientCertificate(cp, dir, 'carol', 'auditors')), flags: [] },
    robot: { label: 'service account a/robot', name: 'system:serviceaccount:a:robot', kubeconfig: config('robot', { token }), flags: [] },
    adminAsAlice: { label: 'admin --as alice --as-group devs', name: 'alice', flags: ['--as', 'alice', '--as-group', 'devs'] },
    bobAsAlice: { label: 'bob --as alice', name: 'alice', kubeconfig: bob, flags: ['--as', 'alice'] },
    bobAsCarol: { label: 'bob --as carol', name: 'carol', kubeconfig: bob, flags: ['--as', 'carol'] },
  };
}
