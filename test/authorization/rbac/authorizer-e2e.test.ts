// The RBAC authorizer behind the control plane command (default --authorization-mode RBAC), on
// SQLite and etcd, over raw HTTPS as static token users: roles and bindings written through the
// API reach the authorizer (and their removal does), a RoleBinding grants in its namespace only,
// a service-account subject without a namespace is the RoleBinding's, `*/status` and `pods`-only
// rules split subresources as kube does, non-resource URLs match with a trailing `*`, and a
// binding whose role is missing leaves kube's evaluation error in the 403.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { until } from '../../integration/assertions.js';
import { describeBackends } from '../../integration/harness.js';
import { HttpsClient } from '../../integration/https.js';

const dir = mkdtempSync(join(tmpdir(), 'rbac-e2e-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  ['alice-token,alice,alice-uid,"devs"', 'bob-token,bob,bob-uid', 'robot-token,system:serviceaccount:team-a:robot,robot-uid,"system:serviceaccounts,system:serviceaccounts:team-a"'].join('\n') + '\n',
);

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const flunders = (ns: string): string => `/apis/wardle.example.com/v1alpha1/namespaces/${ns}/flunders`;
const rbacGroup = 'rbac.authorization.k8s.io';

describeBackends(
  'the RBAC authorizer in the control plane',
  (cp) => {
    let admin: HttpsClient;
    const users = new Map<string, HttpsClient>();
    /** A client presenting only the user's bearer token (no admin certificate). */
    const as = (token: string): HttpsClient => {
      let c = users.get(token);
      if (c === undefined) users.set(token, (c = new HttpsClient({ server: cp().url, caPEM: cp().credentials.caPEM, token })));
      return c;
    };
    const create = async (path: string, body: object): Promise<void> => {
      const r = await admin.json('POST', path, body);
      assert.equal(r.status, 201, `POST ${path}: ${JSON.stringify(r.body)}`);
    };
    /** Polls until the user's request has the status (the authorizer reads the policy from a watch). */
    const eventuallyStatus = (token: string, method: string, path: string, status: number): Promise<{ status: number; body: Record<string, unknown> }> =>
      until(`${method} ${path} as ${token} → ${status}`, async () => {
        const r = await as(token).json(method, path);
        return r.status === status ? r : undefined;
      });

    before(async () => {
      admin = new HttpsClient(cp().credentials);
      for (const ns of ['team-a', 'team-b']) await create('/api/v1/namespaces', { metadata: { name: ns } });
      await create(`${RBAC}/clusterroles`, {
        metadata: { name: 'flunder-reader' },
        rules: [{ verbs: ['get', 'list'], apiGroups: ['wardle.example.com'], resources: ['flunders'] }],
      });
      await create(`${RBAC}/clusterroles`, { metadata: { name: 'metrics-reader' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/debug/*'] }] });
      await create(flunders('team-a'), { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1' } });
    });
    after(() => {
      admin.close();
      for (const c of users.values()) c.close();
    });

    it('a RoleBinding grants in its namespace only, with kube’s 403 elsewhere', async () => {
      await create(`${RBAC}/namespaces/team-a/rolebindings`, {
        metadata: { name: 'alice-reads' },
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'flunder-reader' },
        subjects: [{ kind: 'User', apiGroup: rbacGroup, name: 'alice' }],
      });
      await eventuallyStatus('alice-token', 'GET', flunders('team-a'), 200);
      const denied = await as('alice-token').json('GET', flunders('team-b'));
      assert.equal(denied.status, 403);
      assert.equal(denied.body['reason'], 'Forbidden');
      assert.equal(denied.body['message'], 'flunders.wardle.example.com is forbidden: User "alice" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "team-b"');
      const named = await as('alice-token').json('DELETE', `${flunders('team-a')}/f1`);
      assert.equal(named.status, 403);
      assert.equal(named.body['message'], 'flunders.wardle.example.com "f1" is forbidden: User "alice" cannot delete resource "flunders" in API group "wardle.example.com" in the namespace "team-a"');
    });

    it('a group subject grants every member, and removing the binding takes the grant away', async () => {
      await create(`${RBAC}/clusterrolebindings`, {
        metadata: { name: 'devs-read-flunders' },
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'flunder-reader' },
        subjects: [{ kind: 'Group', apiGroup: rbacGroup, name: 'devs' }],
      });
      await eventuallyStatus('alice-token', 'GET', flunders('team-b'), 200);
      assert.equal((await as('bob-token').json('GET', flunders('team-b'))).status, 403);
      assert.equal((await admin.json('DELETE', `${RBAC}/clusterrolebindings/devs-read-flunders`)).status, 200);
      await eventuallyStatus('alice-token', 'GET', flunders('team-b'), 403);
    });

    it("a service account subject without a namespace is the RoleBinding's namespace's", async () => {
      await create(`${RBAC}/namespaces/team-a/rolebindings`, {
        metadata: { name: 'robot-reads' },
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'flunder-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'robot' }],
      });
      await create(`${RBAC}/namespaces/team-b/rolebindings`, {
        metadata: { name: 'other-robot-reads' },
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'flunder-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'robot' }],
      });
      await eventuallyStatus('robot-token', 'GET', flunders('team-a'), 200);
      // team-b's binding names team-b's robot, not team-a's.
      assert.equal((await as('robot-token').json('GET', flunders('team-b'))).status, 403);
    });

    it('subresources: a `*/status` rule grants status only, a resource rule not its status', async () => {
      await create(`${RBAC}/namespaces/team-a/roles`, {
        metadata: { name: 'status-reader' },
        rules: [{ verbs: ['get'], apiGroups: ['wardle.example.com'], resources: ['*/status'] }],
      });
      await create(`${RBAC}/namespaces/team-a/rolebindings`, {
        metadata: { name: 'bob-status' },
        roleRef: { apiGroup: rbacGroup, kind: 'Role', name: 'status-reader' },
        subjects: [{ kind: 'User', apiGroup: rbacGroup, name: 'bob' }],
      });
      await eventuallyStatus('bob-token', 'GET', `${flunders('team-a')}/f1/status`, 200);
      const r = await as('bob-token').json('GET', `${flunders('team-a')}/f1`);
      assert.equal(r.status, 403);
      // alice reads flunders in team-a, but not their status.
      const s = await as('alice-token').json('GET', `${flunders('team-a')}/f1/status`);
      assert.equal(s.status, 403);
      assert.equal(s.body['message'], 'flunders.wardle.example.com "f1" is forbidden: User "alice" cannot get resource "flunders/status" in API group "wardle.example.com" in the namespace "team-a"');
    });

    it('non-resource URLs match exactly or by a trailing *', async () => {
      const denied = await as('bob-token').json('GET', '/metrics');
      assert.equal(denied.status, 403);
      assert.equal(denied.body['message'], 'forbidden: User "bob" cannot get path "/metrics"');
      await create(`${RBAC}/clusterrolebindings`, {
        metadata: { name: 'bob-metrics' },
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'metrics-reader' },
        subjects: [{ kind: 'User', apiGroup: rbacGroup, name: 'bob' }],
      });
      await until('bob reads /metrics', async () => ((await as('bob-token').request({ path: '/metrics' })).status === 200 ? true : undefined));
    });

    it('a binding to a missing role is an evaluation error in the 403, not a failure', async () => {
      await create(`${RBAC}/namespaces/team-b/rolebindings`, {
        metadata: { name: 'bob-gone' },
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: 'gone' },
        subjects: [{ kind: 'User', apiGroup: rbacGroup, name: 'bob' }],
      });
      const r = await until('the binding reaches the authorizer', async () => {
        const x = await as('bob-token').json('GET', flunders('team-b'));
        return x.status === 403 && String(x.body['message']).includes('RBAC:') ? x : undefined;
      });
      assert.equal(
        r.body['message'],
        'flunders.wardle.example.com is forbidden: User "bob" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "team-b": RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
      );
    });
  },
  { extraArgs: ['--token-auth-file', tokenFile] },
);
