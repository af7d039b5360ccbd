// Issue 14: the standalone aggregated server authenticates and authorizes as sample-apiserver does,
// by delegation to the control plane. It starts with only --kubeconfig: its front-proxy and client
// CAs come from kube-system/extension-apiserver-authentication, bearer tokens are TokenReviews and
// every decision is a SubjectAccessReview answered by the control plane's RBAC.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureCA, ensureLeaf } from '../../runtime/controlplane/certs.js';
import { until } from '../integration/assertions.js';
import { ControlPlane } from '../integration/harness.js';
import { asStatus, HttpsClient } from '../integration/https.js';
import { AggregatedServerProcess } from './aggregated-server.js';

const GROUP = 'wardle.example.com';
const SERVICE = { namespace: 'wardle', name: 'api' } as const;
const ALICE_TOKEN = 'alice-token-0123456789';
const flunders = (ns: string): string => `/apis/${GROUP}/v1alpha1/namespaces/${ns}/flunders`;

describe('delegated authentication and authorization of the standalone aggregated server', () => {
  let dir: string;
  let cp: ControlPlane;
  let wardle: AggregatedServerProcess;
  let admin: HttpsClient;
  let alice: HttpsClient;
  let proxy: HttpsClient;
  const pki = (f: string): string => readFileSync(join(cp.dataDir, 'pki', f), 'utf8');
  const logs = (): string => `\n--- control plane ---\n${cp.log().slice(-3000)}\n--- wardle ---\n${wardle?.log().slice(-3000)}`;
  const post = async (path: string, body: object): Promise<void> => {
    const r = await admin.json('POST', path, body);
    assert.ok(r.status === 201 || r.status === 409, `POST ${path}: ${r.status} ${JSON.stringify(r.body)}${logs()}`);
  };
  /** The control plane's count of SubjectAccessReviews created (its /metrics). */
  const reviews = async (resource: string): Promise<number> => {
    const r = await admin.request({ path: '/metrics' });
    assert.equal(r.status, 200, r.text);
    let n = 0;
    for (const line of r.text.split('\n')) {
      if (line.startsWith('apiserver_request_total{') && line.includes(`resource="${resource}"`) && line.includes('verb="POST"')) n += Number(line.split(' ').at(-1));
    }
    return n;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'delegated-auth-'));
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, `${ALICE_TOKEN},alice,alice-uid,"readers"\n`);
    cp = await ControlPlane.start({ backend: 'sqlite', extraArgs: ['--token-auth-file', tokens] });
    admin = new HttpsClient(cp.credentials);
    // The control plane publishes what aggregated servers trust (kube's controller in kube-apiserver).
    await until('the authentication ConfigMap', async () =>
      (await admin.json('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication')).status === 200 ? true : undefined,
    );
    wardle = await AggregatedServerProcess.start({
      controlPlane: cp,
      requestHeaderCAFlag: false,
      // Long enough that a second request always finds the first answer, however slow the machine.
      extraArgs: ['--authorization-webhook-cache-authorized-ttl', '5m', '--authorization-webhook-cache-unauthorized-ttl', '5m'],
    });
    const caBundle = Buffer.from(wardle.caPEM).toString('base64');
    await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SERVICE.namespace } });
    for (const ns of ['a', 'b']) await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await post(`/api/v1/namespaces/${SERVICE.namespace}/services`, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: SERVICE,
      spec: { ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: wardle.port }] },
    });
    await post(`/api/v1/namespaces/${SERVICE.namespace}/endpoints`, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: SERVICE,
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', protocol: 'TCP', port: wardle.port }] }],
    });
    for (const [version, versionPriority] of [
      ['v1beta1', 20],
      ['v1alpha1', 15],
    ] as const) {
      await post('/apis/apiregistration.k8s.io/v1/apiservices', {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name: `${version}.${GROUP}` },
        spec: { group: GROUP, version, service: { ...SERVICE, port: 443 }, caBundle, groupPriorityMinimum: 1000, versionPriority },
      });
    }
    await until(
      'v1alpha1 available',
      async () => {
        const r = await admin.json('GET', `/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.${GROUP}`);
        const conditions = ((r.body['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).filter((c) => c.type === 'Available');
        return conditions[0]?.status === 'True' ? true : undefined;
      },
      60_000,
    );
    await post('/apis/rbac.authorization.k8s.io/v1/namespaces/a/roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'flunder-reader', namespace: 'a' },
      rules: [{ apiGroups: [GROUP], resources: ['flunders'], verbs: ['get', 'list', 'watch'] }],
    });
    await post('/apis/rbac.authorization.k8s.io/v1/namespaces/a/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'alice-reads-flunders', namespace: 'a' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'flunder-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
    });
    await until('a flunder in a', async () => {
      const r = await admin.json('POST', flunders('a'), { apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'first' } });
      return r.status === 201 || r.status === 409 ? true : undefined;
    });
    alice = new HttpsClient({ ...cp.credentials, certPEM: undefined, keyPEM: undefined, token: ALICE_TOKEN });
    proxy = new HttpsClient(wardle.credentials({ certPEM: pki('front-proxy-client.crt'), keyPEM: pki('front-proxy-client.key') }));
  });
  after(async () => {
    admin?.close();
    alice?.close();
    proxy?.close();
    await wardle?.stop();
    await cp?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("publishes kube-system/extension-apiserver-authentication with kube's keys and the control plane's CAs", async () => {
    const r = await admin.json('GET', '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const data = r.body['data'] as Record<string, string>;
    assert.deepEqual(Object.keys(data).sort(), [
      'client-ca-file',
      'requestheader-allowed-names',
      'requestheader-client-ca-file',
      'requestheader-extra-headers-prefix',
      'requestheader-group-headers',
      'requestheader-uid-headers',
      'requestheader-username-headers',
    ]);
    // Re-encoded as Go's pem.Encode writes a bundle: every block ends with a newline.
    assert.equal(data['client-ca-file'], `${pki('ca.crt').trim()}\n`);
    assert.equal(data['requestheader-client-ca-file'], `${pki('front-proxy-ca.crt').trim()}\n`);
    assert.equal(data['requestheader-allowed-names'], '["front-proxy-client"]');
    assert.equal(data['requestheader-username-headers'], '["X-Remote-User"]');
    assert.equal(data['requestheader-uid-headers'], '[]');
    assert.equal(data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
  });

  it('a token user bound to read flunders in a lists them through the aggregator and is 403 in b', async () => {
    const allowed = await alice.json('GET', flunders('a'));
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body) + logs());
    assert.deepEqual(
      (allowed.body['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['first'],
    );
    const denied = await alice.request({ path: flunders('b') });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(asStatus(denied.text).message, `flunders.${GROUP} is forbidden: User "alice" cannot list resource "flunders" in API group "${GROUP}" in the namespace "b"`);
  });

  it("the backend itself asks the control plane: the front proxy naming alice is allowed in a, 403 in b in kube's words", async () => {
    const ok = await proxy.json('GET', flunders('a'), undefined, { 'X-Remote-User': 'alice' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const denied = await proxy.request({ path: flunders('b'), headers: { 'X-Remote-User': 'alice' } });
    assert.equal(denied.status, 403, denied.text);
    const status = asStatus(denied.text);
    assert.equal(status.reason, 'Forbidden');
    assert.match(
      status.message ?? '',
      new RegExp(`^flunders\\.${GROUP.replaceAll('.', '\\.')} is forbidden: User "alice" cannot list resource "flunders" in API group "${GROUP.replaceAll('.', '\\.')}" in the namespace "b"`),
    );
  });

  it('anonymous requests to the backend are 403 through delegated authorization; the health paths answer', async () => {
    const anonymous = new HttpsClient(wardle.credentials(), { anonymous: true });
    try {
      const r = await anonymous.request({ path: flunders('a') });
      assert.equal(r.status, 403, r.text);
      assert.match(asStatus(r.text).message ?? '', /^flunders\.wardle\.example\.com is forbidden: User "system:anonymous" cannot list resource "flunders"/);
      for (const path of ['/healthz', '/readyz', '/livez']) assert.equal((await anonymous.request({ path })).status, 200, path);
    } finally {
      anonymous.close();
    }
  });

  it('a bearer token sent to the backend directly is a TokenReview: the user is alice; an unknown token is 401', async () => {
    const direct = new HttpsClient({ ...wardle.credentials(), token: ALICE_TOKEN });
    const bad = new HttpsClient({ ...wardle.credentials(), token: 'not-a-token' });
    try {
      const r = await direct.json('GET', flunders('a'));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const denied = await direct.request({ path: flunders('b') });
      assert.equal(denied.status, 403, denied.text);
      assert.match(asStatus(denied.text).message ?? '', /User "alice" cannot list/);
      const unknown = await bad.request({ path: flunders('a') });
      assert.equal(unknown.status, 401, unknown.text);
    } finally {
      direct.close();
      bad.close();
    }
  });

  it('decisions are cached: a second identical request makes no second SubjectAccessReview', async () => {
    const headers = { 'X-Remote-User': 'carol' };
    const before = await reviews('subjectaccessreviews');
    assert.equal((await proxy.request({ path: flunders('a'), headers })).status, 403);
    const afterFirst = await reviews('subjectaccessreviews');
    assert.equal(afterFirst, before + 1, 'the first request is one review');
    assert.equal((await proxy.request({ path: flunders('a'), headers })).status, 403);
    assert.equal(await reviews('subjectaccessreviews'), afterFirst, 'the second is answered from the cache');
  });
  it('follows the ConfigMap: a front-proxy CA added to it is trusted without a restart', async () => {
    const rotated = await ensureCA(dir, 'rotated-front-proxy-ca', 'rotated-front-proxy-ca');
    const leaf = await ensureLeaf(dir, 'rotated-front-proxy-client', rotated, { subject: 'CN=front-proxy-client', server: false, hosts: [] });
    const newProxy = new HttpsClient(wardle.credentials(leaf));
    try {
      const before = await newProxy.request({ path: flunders('a'), headers: { 'X-Remote-User': 'alice' } });
      assert.equal(before.status, 401, before.text);
      const path = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
      const cm = await admin.json('GET', path);
      const data = cm.body['data'] as Record<string, string>;
      const updated = await admin.json('PUT', path, { ...cm.body, data: { ...data, 'requestheader-client-ca-file': data['requestheader-client-ca-file'] + rotated.cert.toString('pem') } });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      await until('the new front proxy trusted', async () => ((await newProxy.request({ path: flunders('a'), headers: { 'X-Remote-User': 'alice' } })).status === 200 ? true : undefined));
    } finally {
      newProxy.close();
    }
  });

  it('a deleted ConfigMap is written back by the controller', async () => {
    const path = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
    const before = await admin.json('GET', path);
    assert.equal((await admin.json('DELETE', path)).status, 200);
    const again = await until('the ConfigMap written back', async () => {
      const r = await admin.json('GET', path);
      return r.status === 200 ? r : undefined;
    });
    assert.notEqual((again.body['metadata'] as { uid: string }).uid, (before.body['metadata'] as { uid: string }).uid);
    assert.equal((again.body['data'] as Record<string, string>)['requestheader-allowed-names'], '["front-proxy-client"]');
  });
});
