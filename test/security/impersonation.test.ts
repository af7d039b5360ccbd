// Issue 14: impersonation with the real kubectl (`--as`, `--as-group`) over the control plane
// command on SQLite and etcd. The admin (system:masters) may impersonate anyone; a token user only
// whom a role grants the verb `impersonate` on; the impersonated user is then authorized by RBAC
// as itself, with the groups asked for. Refusals are worded as kube-apiserver words them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fails, ok, until } from '../integration/assertions.js';
import { describeBackends, type ControlPlane } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable, type KubectlResult } from '../integration/kubectl.js';

const noKubectl = kubectlUnavailable();

const dir = mkdtempSync(join(tmpdir(), 'impersonation-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, 'alice-token,alice,alice-uid,"devs"\n');
after(() => rmSync(dir, { recursive: true, force: true }));

/** The kubeconfig of the token user alice: the control plane's server and CA, her token, no client certificate. */
function aliceKubeconfig(cp: ControlPlane): string {
  const path = join(dir, `alice-${cp.port}.kubeconfig`);
  const cluster = { server: cp.url, 'certificate-authority-data': Buffer.from(cp.credentials.caPEM).toString('base64') };
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster }],
    users: [{ name: 'alice', user: { token: 'alice-token' } }],
    contexts: [{ name: 'alice', context: { cluster: 'c', user: 'alice' } }],
    'current-context': 'alice',
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}

const manifest = (...items: object[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
const clusterRole = (name: string, rules: object[]): object => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules });
const clusterRoleBinding = (name: string, role: string, subject: { kind: string; name: string }): object => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
});

const forbiddenNamespaces = (user: string): string => `Error from server (Forbidden): namespaces is forbidden: User "${user}" cannot list resource "namespaces" in API group "" at the cluster scope`;

describe('impersonation with kubectl --as', { skip: noKubectl ?? false }, () => {
  describeBackends(
    'impersonation',
    (cp) => {
      let kc: Kubectl;
      before(() => {
        kc = new Kubectl(cp);
      });
      after(() => kc.dispose());
      const admin = (args: string[], stdin?: string): Promise<KubectlResult> => kc.run(args, stdin === undefined ? {} : { stdin });
      const alice = (args: string[]): Promise<KubectlResult> => kc.run(['--kubeconfig', aliceKubeconfig(cp()), ...args]);
      /** RBAC reads roles and bindings through informers: a new grant is polled for, never assumed at once. */
      const eventuallyOK = (what: string, run: () => Promise<KubectlResult>): Promise<string> => until(what, async () => ((await run()).code === 0 ? 'ok' : undefined));

      it('the admin impersonates bob in group g: bob is forbidden until g is granted, then lists namespaces', async () => {
        fails(await admin(['--as', 'bob', '--as-group', 'g', 'get', 'ns']), forbiddenNamespaces('bob'));
        ok(
          await admin(
            ['create', '-f', '-'],
            manifest(clusterRole('ns-reader', [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list'] }]), clusterRoleBinding('g-reads-ns', 'ns-reader', { kind: 'Group', name: 'g' })),
          ),
          cp(),
        );
        await eventuallyOK('bob in g to list namespaces', () => admin(['--as', 'bob', '--as-group', 'g', 'get', 'ns']));
        assert.match(ok(await admin(['--as', 'bob', '--as-group', 'g', 'get', 'ns', '-o', 'name']), cp()), /^namespace\/default$/m);
        // The groups asked for replace bob's: without g he has only system:authenticated.
        fails(await admin(['--as', 'bob', 'get', 'ns']), forbiddenNamespaces('bob'));
      });

      it('kubectl auth can-i and whoami answer for the impersonated user', async () => {
        await eventuallyOK('can-i for bob in g', () => admin(['auth', 'can-i', 'list', 'namespaces', '--as', 'bob', '--as-group', 'g']));
        assert.equal(ok(await admin(['auth', 'can-i', 'list', 'namespaces', '--as', 'bob', '--as-group', 'g']), cp()), 'yes');
        const no = await admin(['auth', 'can-i', 'list', 'namespaces', '--as', 'bob']);
        assert.equal(no.code, 1);
        assert.equal(no.stdout.trim(), 'no');
        const whoami = JSON.parse(ok(await admin(['auth', 'whoami', '--as', 'bob', '--as-group', 'g', '-o', 'json']), cp())) as { status: { userInfo: { username: string; groups: string[] } } };
        assert.deepEqual(whoami.status.userInfo, { username: 'bob', groups: ['g', 'system:authenticated'] });
      });

      it("a user without the verb impersonate is refused in kube's words (users, service accounts in their namespace)", async () => {
        fails(
          await alice(['--as', 'bob', 'get', 'ns']),
          'Error from server (Forbidden): users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
        );
        fails(
          await alice(['--as', 'system:serviceaccount:default:builder', 'get', 'ns']),
          'Error from server (Forbidden): serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "default"',
        );
      });

      it('impersonate granted on user bob and group g only: those work, any other name is refused', async () => {
        ok(
          await admin(
            ['create', '-f', '-'],
            manifest(
              clusterRole('impersonate-bob', [
                { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] },
                { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['g'] },
              ]),
              clusterRoleBinding('alice-impersonates-bob', 'impersonate-bob', { kind: 'User', name: 'alice' }),
            ),
          ),
          cp(),
        );
        await eventuallyOK('alice to act as bob in g', () => alice(['--as', 'bob', '--as-group', 'g', 'get', 'ns']));
        fails(
          await alice(['--as', 'carol', 'get', 'ns']),
          'Error from server (Forbidden): users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
        );
        fails(
          await alice(['--as', 'bob', '--as-group', 'h', 'get', 'ns']),
          'Error from server (Forbidden): groups "h" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
        );
        // Acting as bob without g, alice gets bob's own permissions, not hers.
        fails(await alice(['--as', 'bob', 'get', 'ns']), forbiddenNamespaces('bob'));
      });
    },
    { extraArgs: ['--token-auth-file', tokenFile] },
  );
});
