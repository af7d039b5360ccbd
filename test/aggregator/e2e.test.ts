// Acceptance (issue 7): two processes, the control plane and a standalone wardle server
// (`npm run serve-aggregated`) on its own SQLite store, joined by a Service, its Endpoints and
// APIServices carrying the server's CA. The real kubectl talks to the control plane only; the
// wardle group is served by the backend (its own store holds the objects, the control plane's
// does not), which sees the user the aggregator forwards. The control plane runs on SQLite and
// on etcd. Skipped (with the reason) only where kubectl, or etcd for its case, is missing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Etcd3 } from 'etcd3';
import { stringify } from 'yaml';
import { eventually, fails } from '../integration/assertions.js';
import { backends, ControlPlane, etcdUnavailable, type Backend } from '../integration/harness.js';
import { asStatus, HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable, squashLines } from '../integration/kubectl.js';
import { AggregatedServerProcess, sqliteKeys } from './aggregated-server.js';

const GROUP = 'wardle.example.com';
const SERVICE = { namespace: 'wardle', name: 'api' } as const;
/** The storage key prefix of a wardle resource in a store of this runtime (pathPrefix + group + plural). */
const keyPrefix = (pathPrefix: string, plural: string): string => `${pathPrefix.replace(/\/$/, '')}/${GROUP}/${plural}/`;

/**
 * What a user applies to put the backend behind the aggregator (the README's manifest): a
 * Service without selector, Endpoints naming the backend's address, and one APIService per
 * version. The control plane serves wardle from apis/ itself; APIServices that point at a
 * service take the group versions over, so both versions are registered (with only
 * v1alpha1, kubectl would keep using the preferred v1beta1 served locally).
 */
function wardleRegistration(port: number, caPEM: string): object[] {
  const caBundle = Buffer.from(caPEM).toString('base64');
  const apiService = (version: string, versionPriority: number): object => ({
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: `${version}.${GROUP}` },
    spec: { group: GROUP, version, service: { ...SERVICE, port: 443 }, caBundle, groupPriorityMinimum: 1000, versionPriority },
  });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SERVICE.namespace } },
    { apiVersion: 'v1', kind: 'Service', metadata: SERVICE, spec: { ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }] } },
    { apiVersion: 'v1', kind: 'Endpoints', metadata: SERVICE, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', protocol: 'TCP', port }] }] },
    apiService('v1beta1', 20),
    apiService('v1alpha1', 15),
  ];
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

const noKubectl = kubectlUnavailable();

describe('aggregator end to end: a standalone wardle server behind the control plane', { skip: noKubectl ?? false }, () => {
  for (const backend of backends) {
    const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
    describe(`control plane on ${backend}, wardle server on SQLite`, { skip: skip ?? false }, () => declareE2E(backend));
  }
});

function declareE2E(backend: Backend): void {
  let cp: ControlPlane;
  let wardle: AggregatedServerProcess;
  let kc: Kubectl;
  let api: HttpsClient;
  /** Straight to the backend with the control plane's front-proxy client certificate, as the aggregator connects. */
  let frontProxy: HttpsClient;
  const ns = 'e2e';
  const logs = (): string => `\n--- control plane log tail ---\n${cp.log().slice(-3000)}\n--- wardle server log tail ---\n${wardle.log().slice(-3000)}`;
  const run = async (args: string[], stdin?: string): ReturnType<Kubectl['run']> => kc.run(args, stdin === undefined ? {} : { stdin });
  const must = async (args: string[], stdin?: string): Promise<string> => {
    const r = await run(args, stdin);
    if (r.code !== 0) assert.fail(`kubectl ${args.join(' ')} exited ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}${logs()}`);
    return r.stdout.trim();
  };
  const available = async (version: string): Promise<Condition | undefined> => {
    const r = await api.json('GET', `/apis/apiregistration.k8s.io/v1/apiservices/${version}.${GROUP}`);
    if (r.status !== 200) return undefined;
    const conditions = (r.body['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? [];
    return conditions.find((c) => c.type === 'Available');
  };
  /**
   * What the backend's own server holds (asked directly, as its front proxy): names of the
   * Flunders of `ns`, or of the Fischers.
   */
  const backendNames = async (resource: 'flunders' | 'fischers'): Promise<string[]> => {
    const path = resource === 'flunders' ? `/apis/${GROUP}/v1alpha1/namespaces/${ns}/flunders` : `/apis/${GROUP}/v1alpha1/fischers`;
    const r = await frontProxy.json('GET', path, undefined, { 'X-Remote-User': 'e2e-test' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return (r.body['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name).sort();
  };
  /**
   * Every wardle key in the control plane's own store, which must stay without any. A running
   * server holds its SQLite file exclusively: there the store is read once the process is gone.
   */
  const controlPlaneWardleKeys = async (): Promise<string[]> => {
    if (cp.backend === 'sqlite') return sqliteKeys(join(cp.dataDir, 'kube.db'), `/registry/${GROUP}/`);
    const client = new Etcd3({ hosts: [...(cp.etcd?.endpoints ?? [])] });
    try {
      return await client
        .getAll()
        .prefix(`${(cp.etcdPrefix ?? '').replace(/\/$/, '')}/${GROUP}/`)
        .keys();
    } finally {
      client.close();
    }
  };

  before(async () => {
    cp = await ControlPlane.start({ backend });
    // Its CAs are the flags' only (the ConfigMap's: test/aggregator/delegated-auth.test.ts).
    wardle = await AggregatedServerProcess.start({ controlPlane: cp, extraArgs: ['--authentication-skip-lookup=true'] });
    kc = new Kubectl(() => cp);
    api = new HttpsClient(cp.credentials);
    // The backend authorizes by SubjectAccessReview to the control plane: the users the tests name to it may do anything.
    const binding = await api.json('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'e2e-backend-users' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: ['e2e-test', 'alice'].map((name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name })),
    });
    assert.equal(binding.status, 201, JSON.stringify(binding.body));
    frontProxy = new HttpsClient(
      wardle.credentials({
        certPEM: readFileSync(join(cp.dataDir, 'pki', 'front-proxy-client.crt'), 'utf8'),
        keyPEM: readFileSync(join(cp.dataDir, 'pki', 'front-proxy-client.key'), 'utf8'),
      }),
    );
  });
  after(async () => {
    kc?.dispose();
    api?.close();
    frontProxy?.close();
    await wardle?.stop();
    await cp?.stop();
  });

  it("Service, Endpoints and APIServices with the backend's caBundle: Available=True (Passed)", async () => {
    const manifest = wardleRegistration(wardle.port, wardle.caPEM)
      .map((doc) => stringify(doc))
      .join('---\n');
    await must(['apply', '-f', '-'], manifest);
    const wait = await kc.run(['wait', '--for=condition=Available', `apiservice/v1alpha1.${GROUP}`, `apiservice/v1beta1.${GROUP}`, '--timeout=30s'], { timeoutMs: 90_000 });
    if (wait.code !== 0) assert.fail(`kubectl wait exited ${wait.code}: ${wait.stderr}; Available: ${JSON.stringify(await available('v1alpha1'))}${logs()}`);
    for (const version of ['v1alpha1', 'v1beta1']) {
      const c = await available(version);
      assert.equal(c?.status, 'True', `${version}: ${JSON.stringify(c)}`);
      assert.equal(c?.reason, 'Passed', `${version}: ${JSON.stringify(c)}`);
    }
    const row = squashLines(await must(['get', 'apiservice', `v1alpha1.${GROUP}`]));
    assert.match(row[1] ?? '', new RegExp(`^v1alpha1\\.wardle\\.example\\.com ${SERVICE.namespace}/${SERVICE.name} True `), row.join('\n'));
    await must(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  });

  it('kubectl api-resources lists flunders and fischers', async () => {
    const lines = squashLines(await must(['api-resources', `--api-group=${GROUP}`]));
    assert.ok(lines.includes(`flunders fl ${GROUP}/v1beta1 true Flunder`), lines.join('\n'));
    assert.ok(lines.includes(`fischers ${GROUP}/v1alpha1 false Fischer`), lines.join('\n'));
  });

  it('kubectl create/get/list/get -w/delete Flunders: served by the backend, stored in its own store only', async () => {
    const flunder = (name: string): string =>
      JSON.stringify({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name, namespace: ns }, spec: { reference: 'other', referenceType: 'Flunder' } });
    assert.equal(await must(['create', '-f', '-'], flunder('first')), `flunder.${GROUP}/first created`);
    const got = JSON.parse(await must(['get', `flunders.v1alpha1.${GROUP}`, 'first', '-n', ns, '-o', 'json'])) as { apiVersion: string; spec: unknown };
    assert.equal(got.apiVersion, `${GROUP}/v1alpha1`);
    assert.deepEqual(got.spec, { reference: 'other', referenceType: 'Flunder' });
    const v1beta1 = JSON.parse(await must(['get', 'flunder', 'first', '-n', ns, '-o', 'json'])) as { apiVersion: string; spec: unknown };
    assert.equal(v1beta1.apiVersion, `${GROUP}/v1beta1`);
    assert.deepEqual(v1beta1.spec, { flunderReference: 'other', referenceType: 'Flunder' });
    const table = squashLines(await must(['get', 'flunders', '-n', ns]));
    assert.match(table[0] ?? '', /^NAME /);
    assert.ok(
      table.slice(1).some((l) => l.startsWith('first ')),
      table.join('\n'),
    );

    // The backend's own server has it (the control plane's store has none: the last test).
    assert.deepEqual(await backendNames('flunders'), ['first']);

    const watch = kc.start(['get', 'flunders', '-n', ns, '-w', '--output-watch-events']);
    try {
      await watch.waitForLine(/^ADDED first /);
      await must(['create', '-f', '-'], flunder('second'));
      await watch.waitForLine(/^ADDED second /);
      assert.equal(await must(['delete', 'flunder', 'second', '-n', ns]), `flunder.${GROUP} "second" deleted`);
      await watch.waitForLine(/^DELETED second /);
    } finally {
      await watch.stop();
    }
    assert.deepEqual(await backendNames('flunders'), ['first']);
    const missing = await run(['get', 'flunder', 'second', '-n', ns]);
    fails(missing, `Error from server (NotFound): flunders.${GROUP} "second" not found`);
  });

  it("admission in the backend: BanFlunder over its own Fischers, NamespaceLifecycle over the control plane's namespaces", async () => {
    const fischer = { apiVersion: `${GROUP}/v1alpha1`, kind: 'Fischer', metadata: { name: 'e2e-bans' }, disallowedFlunders: ['banned'] };
    await must(['create', '-f', '-'], JSON.stringify(fischer));
    assert.deepEqual(await backendNames('fischers'), ['e2e-bans']);
    const banned = JSON.stringify({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'banned', namespace: ns } });
    const want = `Error from server (Forbidden): error when creating "STDIN": flunders.${GROUP} "banned" is forbidden: this name may not be used, please change the resource name`;
    let last = '';
    await eventually('BanFlunder in the backend to see the Fischer', async () => {
      const r = await run(['create', '-f', '-'], banned);
      last = `${r.code} ${r.stderr}${r.stdout}`;
      if (r.code === 0) assert.fail(`a banned Flunder was created: ${last}`);
      return r.stderr.trim() === want;
    }).catch((e: Error) => assert.fail(`${e.message}; last answer: ${last}${logs()}`));

    const nowhere = JSON.stringify({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'lost', namespace: 'no-such-namespace' } });
    fails(await run(['create', '-f', '-'], nowhere), 'Error from server (NotFound): error when creating "STDIN": namespaces "no-such-namespace" not found');
    await must(['delete', 'fischer', 'e2e-bans']);
    assert.deepEqual(await backendNames('fischers'), []);
  });

  it('kubectl explain flunder', async () => {
    const out = await must(['explain', 'flunder.spec']);
    assert.match(out, /GROUP:\s+wardle\.example\.com/);
    assert.match(out, /KIND:\s+Flunder/);
    assert.match(out, /VERSION:\s+v1beta1/);
    assert.match(out, /flunderReference\s+<string>/);
    const alpha = await must(['explain', 'flunder.spec', `--api-version=${GROUP}/v1alpha1`]);
    assert.match(alpha, /VERSION:\s+v1alpha1/);
    assert.match(alpha, /reference\s+<string>/);
  });

  it('the backend sees the user the aggregator forwards (its audit log)', async () => {
    // Creates carry no name in their URL, and a Metadata-level event no body: the creates of
    // Flunders in the namespace are "first", then "second".
    const creates = (): ReturnType<AggregatedServerProcess['auditEvents']> =>
      wardle
        .auditEvents()
        .filter((e) => e.stage === 'ResponseComplete' && e.verb === 'create' && e.objectRef?.resource === 'flunders' && e.objectRef.namespace === ns && e.responseStatus?.code === 201);
    await eventually("the Flunder creates in the backend's audit log", async () => creates().length >= 2, 10_000).catch((e: Error) =>
      assert.fail(`${e.message}; create events: ${JSON.stringify(wardle.auditEvents().filter((a) => a.verb === 'create'))}`),
    );
    for (const e of creates()) {
      assert.equal(e.user.username, 'system:admin', JSON.stringify(e));
      assert.deepEqual([...(e.user.groups ?? [])].sort(), ['system:authenticated', 'system:masters']);
      assert.equal(e.objectRef?.apiGroup, GROUP);
      assert.match(e.userAgent ?? '', /^kubectl\//);
    }
  });

  it('a request reaching the backend without the front-proxy certificate is rejected (401; without any credential anonymous, 403)', async () => {
    const admin = cp.credentials.certPEM !== undefined && cp.credentials.keyPEM !== undefined ? { certPEM: cp.credentials.certPEM, keyPEM: cp.credentials.keyPEM } : undefined;
    assert.ok(admin, 'the admin kubeconfig carries a client certificate');
    const path = `/apis/${GROUP}/v1alpha1/namespaces/${ns}/flunders`;
    const direct = new HttpsClient(wardle.credentials(admin));
    const anonymous = new HttpsClient(wardle.credentials(), { anonymous: true });
    try {
      for (const [who, client, headers] of [
        ['the admin certificate', direct, {}],
        ['the admin certificate claiming a user in X-Remote-User', direct, { 'X-Remote-User': 'system:admin', 'X-Remote-Group': 'system:masters' }],
      ] as const) {
        const r = await client.request({ path, headers });
        assert.equal(r.status, 401, `${who}: ${r.status} ${r.text}`);
        assert.equal(asStatus(r.text).reason, 'Unauthorized', who);
      }
      for (const [who, headers] of [
        ['no certificate', {}],
        ['no certificate claiming a user in X-Remote-User', { 'X-Remote-User': 'system:admin' }],
      ] as const) {
        const r = await anonymous.request({ path, headers });
        assert.equal(r.status, 403, `${who}: ${r.status} ${r.text}`);
        assert.match(asStatus(r.text).message ?? '', /User "system:anonymous" cannot list resource "flunders"/, who);
      }
      // The front proxy's certificate with a user is what the aggregator sends: the backend serves it.
      const proxied = await frontProxy.json('GET', path, undefined, { 'X-Remote-User': 'alice', 'X-Remote-Group': 'wardle-readers' });
      assert.equal(proxied.status, 200, JSON.stringify(proxied.body));
      assert.deepEqual(
        (proxied.body['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name),
        ['first'],
      );
      // Probes need no credentials.
      const healthz = await anonymous.request({ path: '/healthz' });
      assert.equal(healthz.status, 200, healthz.text);
    } finally {
      direct.close();
      anonymous.close();
    }
  });

  it('killed backend: Available=False within 10 s and requests answer 503; restarted: True again and requests succeed', async (t) => {
    const versions = ['v1alpha1', 'v1beta1'] as const;
    const path = `/apis/${GROUP}/v1alpha1/namespaces/${ns}/flunders`;
    await wardle.kill();
    const killedAt = Date.now();
    for (const version of versions) {
      let condition: Condition | undefined;
      for (;;) {
        condition = await available(version);
        if (condition?.status === 'False') break;
        if (Date.now() - killedAt > 10_000) assert.fail(`${version}.${GROUP} still ${JSON.stringify(condition)} 10 s after the backend died${logs()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.notEqual(condition.reason, 'Passed', JSON.stringify(condition));
      t.diagnostic(`${version}.${GROUP} Available=False (${condition.reason}) ${Date.now() - killedAt} ms after the backend died`);
    }

    const r = await api.request({ path, headers: { Accept: 'application/json' } });
    assert.equal(r.status, 503, r.text);
    const status = asStatus(r.text);
    assert.equal(status.reason, 'ServiceUnavailable', r.text);
    assert.equal(status.code, 503, r.text);
    assert.match(status.message ?? '', /v1alpha1\.wardle\.example\.com/, 'the 503 names the APIService');
    const raw = await run(['get', '--raw', path]);
    assert.equal(raw.code, 1, `${raw.stdout}${raw.stderr}`);
    assert.match(raw.stderr, /Error from server \(ServiceUnavailable\)/);

    wardle = await wardle.restart();
    for (const version of versions) {
      await eventually(`${version}.${GROUP} Available=True after the restart`, async () => (await available(version))?.status === 'True', 60_000).catch(async (e: Error) =>
        assert.fail(`${e.message}: ${JSON.stringify(await available(version))}${logs()}`),
      );
      const c = await available(version);
      assert.equal(c?.reason, 'Passed', JSON.stringify(c));
    }
    // Its store survived: the Flunder made before the crash is served again.
    const table = squashLines(await must(['get', 'flunders', '-n', ns]));
    assert.ok(
      table.slice(1).some((l) => l.startsWith('first ')),
      table.join('\n'),
    );
    const again = await api.json('GET', `${path}/first`);
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });

  it("the objects were in the backend's own store, and none in the control plane's", async () => {
    // Both processes end here: a running server holds its SQLite file exclusively.
    await wardle.terminate();
    assert.deepEqual(wardle.storedKeys(keyPrefix('/registry', 'flunders')), [`/registry/${GROUP}/flunders/${ns}/first`]);
    await cp.terminate();
    assert.deepEqual(await controlPlaneWardleKeys(), []);
  });
}
