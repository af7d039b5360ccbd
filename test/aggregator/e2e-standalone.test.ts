// The standalone aggregated server command on its own (no APIService yet): what it serves,
// whom it believes, and its admission, talking to it directly as the aggregator does (the
// control plane's front-proxy client certificate and X-Remote-* headers). The control plane
// runs beside it for its front-proxy CA and its namespaces.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ControlPlane, repoRoot } from '../integration/harness.js';
import { asStatus, HttpsClient } from '../integration/https.js';
import { AggregatedServerProcess } from './aggregated-server.js';

const GROUP = 'wardle.example.com';
const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

describe('standalone aggregated server (npm run serve-aggregated)', () => {
  let cp: ControlPlane;
  let wardle: AggregatedServerProcess;
  /** As the aggregator connects: the front-proxy client certificate. */
  let proxy: HttpsClient;
  let anonymous: HttpsClient;
  const as = (user: string, group?: string): Record<string, string> => ({ 'X-Remote-User': user, ...(group !== undefined ? { 'X-Remote-Group': group } : {}) });

  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite' });
    // Its CAs are the flags' only (no lookup of the control plane's ConfigMap: test/aggregator/delegated-auth.test.ts).
    wardle = await AggregatedServerProcess.start({ controlPlane: cp, extraArgs: ['--authentication-skip-lookup=true'] });
    // Requests are authorized by the control plane's RBAC (SubjectAccessReview): the users named here may do anything.
    const admin = new HttpsClient(cp.credentials);
    const binding = await admin.json('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'e2e-standalone-users' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
      ],
    });
    admin.close();
    assert.equal(binding.status, 201, JSON.stringify(binding.body));
    proxy = new HttpsClient(
      wardle.credentials({
        certPEM: readFileSync(join(cp.dataDir, 'pki', 'front-proxy-client.crt'), 'utf8'),
        keyPEM: readFileSync(join(cp.dataDir, 'pki', 'front-proxy-client.key'), 'utf8'),
      }),
    );
    anonymous = new HttpsClient(wardle.credentials(), { anonymous: true });
  });
  after(async () => {
    proxy?.close();
    anonymous?.close();
    await wardle?.stop();
    await cp?.stop();
  });

  it('serves its serving certificate for the Service name and loopback, signed by its own CA', async () => {
    const { X509Certificate } = await import('node:crypto');
    const leaf = new X509Certificate(readFileSync(join(wardle.dataDir, 'pki', 'apiserver.crt')));
    const ca = new X509Certificate(wardle.caPEM);
    assert.ok(leaf.checkIssued(ca) && leaf.verify(ca.publicKey));
    for (const san of ['DNS:api.wardle.svc', 'DNS:localhost', 'IP Address:127.0.0.1']) assert.ok(leaf.subjectAltName?.includes(san), `${san} in ${leaf.subjectAltName}`);
  });

  it('only the front proxy names users: another CA is 401, no user is anonymous and 403 (delegated authorization); probes answer without credentials', async () => {
    const admin = new HttpsClient(wardle.credentials({ certPEM: cp.credentials.certPEM ?? '', keyPEM: cp.credentials.keyPEM ?? '' }));
    try {
      for (const [who, client, headers] of [
        ['the admin certificate (another CA)', admin, {}],
        ['the admin certificate with X-Remote-User', admin, as('system:admin')],
      ] as const) {
        const r = await client.request({ path: `/apis/${GROUP}/v1alpha1`, headers });
        assert.equal(r.status, 401, `${who}: ${r.text}`);
        assert.equal(asStatus(r.text).reason, 'Unauthorized');
      }
      for (const [who, client, headers] of [
        ['anonymous', anonymous, {}],
        ['anonymous with X-Remote-User', anonymous, as('system:admin', 'system:masters')],
        ['the front proxy naming nobody', proxy, {}],
      ] as const) {
        const r = await client.request({ path: `/apis/${GROUP}/v1alpha1`, headers });
        assert.equal(r.status, 403, `${who}: ${r.text}`);
        assert.equal(asStatus(r.text).message, `forbidden: User "system:anonymous" cannot get path "/apis/${GROUP}/v1alpha1"`);
      }
      for (const path of ['/healthz', '/livez', '/readyz']) {
        const r = await anonymous.request({ path });
        assert.equal(r.status, 200, `${path}: ${r.text}`);
      }
      // system:public-info-viewer, bound to system:unauthenticated in the control plane.
      assert.equal((await anonymous.request({ path: '/version' })).status, 200);
      const served = await proxy.json('GET', `/apis/${GROUP}/v1alpha1`, undefined, as('alice'));
      assert.equal(served.status, 200);
      assert.equal(served.body['kind'], 'APIResourceList');
    } finally {
      admin.close();
    }
  });

  it('serves only its groups: /apis (legacy and aggregated), no /api, /version, /openapi/v2 and /openapi/v3', async () => {
    const list = await proxy.json('GET', '/apis', undefined, as('alice'));
    assert.deepEqual(
      (list.body['groups'] as { name: string }[]).map((g) => g.name),
      [GROUP],
    );
    const aggregated = await proxy.request({ path: '/apis', headers: { ...as('alice'), Accept: AGGREGATED_V2 } });
    assert.equal(aggregated.status, 200);
    assert.match(String(aggregated.headers['content-type']), /as=APIGroupDiscoveryList/);
    const items = (JSON.parse(aggregated.text) as { items: { metadata: { name: string }; versions: { version: string; resources: { resource: string }[] }[] }[] }).items;
    assert.deepEqual(
      items.map((i) => i.metadata.name),
      [GROUP],
    );
    assert.deepEqual(
      items[0]?.versions.map((v) => v.version),
      ['v1beta1', 'v1alpha1'],
    );
    assert.deepEqual(items[0]?.versions[1]?.resources.map((r) => r.resource).sort(), ['fischers', 'flunders']);
    assert.equal((await proxy.request({ path: '/api', headers: as('alice') })).status, 404);
    assert.equal((await proxy.json('GET', '/version', undefined, as('alice'))).status, 200);
    const v3 = await proxy.json('GET', '/openapi/v3', undefined, as('alice'));
    assert.deepEqual(Object.keys(v3.body['paths'] as object).sort(), [`apis/${GROUP}/v1alpha1`, `apis/${GROUP}/v1beta1`]);
    const v2 = await proxy.json('GET', '/openapi/v2', undefined, as('alice'));
    assert.equal(v2.body['swagger'], '2.0');
    assert.ok(Object.keys(v2.body['paths'] as object).every((p) => p.startsWith(`/apis/${GROUP}/`)));
  });

  it("admission: NamespaceLifecycle against the control plane's namespaces, BanFlunder over its own Fischers", async () => {
    const flunders = (ns: string): string => `/apis/${GROUP}/v1alpha1/namespaces/${ns}/flunders`;
    const missing = await proxy.json('POST', flunders('absent'), { apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'f' } }, as('alice'));
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.equal(missing.body['message'], 'namespaces "absent" not found');
    const created = await proxy.json('POST', flunders('default'), { apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'f' } }, as('alice'));
    assert.equal(created.status, 201, JSON.stringify(created.body));

    const fischer = await proxy.json(
      'POST',
      `/apis/${GROUP}/v1alpha1/fischers`,
      { apiVersion: `${GROUP}/v1alpha1`, kind: 'Fischer', metadata: { name: 'bans' }, disallowedFlunders: ['banned'] },
      as('alice'),
    );
    assert.equal(fischer.status, 201, JSON.stringify(fischer.body));
    const deadline = Date.now() + 20_000;
    for (;;) {
      const banned = await proxy.json('POST', flunders('default'), { apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'banned' } }, as('alice'));
      assert.notEqual(banned.status, 201, 'a banned Flunder was created');
      if (banned.status === 403) {
        assert.equal(banned.body['message'], `flunders.${GROUP} "banned" is forbidden: this name may not be used, please change the resource name`);
        break;
      }
      if (Date.now() > deadline) assert.fail(`BanFlunder never saw the Fischer: ${JSON.stringify(banned.body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  it('records the user the front proxy names, with its groups and extra, in its audit log', async () => {
    const r = await proxy.json('GET', `/apis/${GROUP}/v1alpha1/fischers`, undefined, { ...as('bob', 'devs'), 'X-Remote-Extra-Scopes': 'read', 'Audit-ID': 'e2e-standalone-bob' });
    assert.equal(r.status, 200);
    // The log is written behind the response: wait for the request's last stage.
    let events = wardle.auditEvents().filter((e) => e.auditID === 'e2e-standalone-bob');
    for (const deadline = Date.now() + 10_000; events.length < 2 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      events = wardle.auditEvents().filter((e) => e.auditID === 'e2e-standalone-bob');
    }
    assert.deepEqual(
      events.map((e) => e.stage),
      ['RequestReceived', 'ResponseComplete'],
    );
    assert.deepEqual(events[1]?.user, { username: 'bob', groups: ['devs', 'system:authenticated'], extra: { scopes: ['read'] } });
  });

  it('bad flags exit 2 with the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aggregated-flags-'));
    try {
      const serve = (...args: string[]): ReturnType<typeof spawnSync> =>
        spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', join(repoRoot, 'runtime/aggregated/serve.ts'), '--data-dir', dir, ...args], {
          cwd: repoRoot,
          encoding: 'utf8',
          env: { ...process.env, NODE_OPTIONS: '' },
        });
      const core = serve('--groups', 'apiextensions.k8s.io');
      assert.equal(core.status, 2, String(core.stderr));
      assert.match(String(core.stderr), /--groups: "apiextensions\.k8s\.io" is not a group of apis\/ a standalone server can serve \(available: wardle\.example\.com\)/);
      const tls = serve('--tls-cert-file', 'x.crt');
      assert.equal(tls.status, 2);
      assert.match(String(tls.stderr), /--tls-cert-file and --tls-private-key-file must be given together/);
      const ca = serve('--requestheader-client-ca-file', join(dir, 'none.crt'), '--secure-port', '0');
      assert.equal(ca.status, 1);
      assert.match(String(ca.stderr), /--requestheader-client-ca-file: ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
