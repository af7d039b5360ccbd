// Acceptance (issue 4): the wire contract that kubectl runs do not show, checked over raw
// HTTPS against the control plane command: watch framing and expiry, health, version,
// metrics, negotiation and limit statuses, discovery caching, Tables, SIGTERM.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ControlPlane, describeBackends, etcdUnavailable, type Backend } from './harness.js';
import { HttpsClient, asStatus, type WatchEvent } from './https.js';
import { flunderV1beta1, uniqueName } from './objects.js';
import { grantTestUser, testUserClient, testUserFlags } from './rbac-user.js';

const FLUNDERS = '/apis/wardle.example.com/v1beta1';
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

type Meta = { name?: string; resourceVersion?: string; labels?: Record<string, string> };
const meta = (o: Record<string, unknown>): Meta => (o['metadata'] ?? {}) as Meta;

async function createNamespace(c: HttpsClient, name: string): Promise<void> {
  const r = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
}

async function createFlunder(c: HttpsClient, ns: string, name: string, labels: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const m = flunderV1beta1.manifest(name, ns);
  (m['metadata'] as Meta).labels = { app: 'it', ...labels };
  const r = await c.json('POST', `${FLUNDERS}/namespaces/${ns}/flunders`, m);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

describeBackends('HTTP wire contract', (cp) => {
  let c: HttpsClient;
  let ns: string;
  before(async () => {
    c = new HttpsClient(cp().credentials);
    ns = uniqueName('http');
    await createNamespace(c, ns);
  });
  after(() => c.close());

  it('/healthz, /livez, /readyz?verbose with a storage check', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await c.request({ path: p });
      assert.equal(r.status, 200, `${p}: ${r.text}`);
      assert.equal(r.text, 'ok');
    }
    const v = await c.request({ path: '/readyz?verbose' });
    assert.equal(v.status, 200, v.text);
    const lines = v.text.trim().split('\n');
    assert.equal(lines[lines.length - 1], 'readyz check passed');
    const checks = lines.slice(0, -1).filter((l) => l !== '');
    assert.ok(checks.length >= 2, v.text);
    for (const l of checks) assert.match(l, /^\[\+\][\w./-]+ ok$/);
    assert.ok(checks.includes('[+]ping ok'), v.text);
    assert.ok(
      checks.some((l) => /etcd|storage/.test(l)),
      `a storage check in:\n${v.text}`,
    );
    const lv = await c.request({ path: '/livez?verbose' });
    assert.match(lv.text.trim(), /livez check passed$/);
    const one = await c.request({ path: '/readyz/ping' });
    assert.equal(one.status, 200);
    assert.equal(one.text, 'ok');
  });

  it('/version reports Kubernetes 1.32', async () => {
    const r = await c.json('GET', '/version');
    assert.equal(r.status, 200);
    assert.equal(r.body['major'], '1');
    assert.equal(r.body['minor'], '32');
    assert.match(String(r.body['gitVersion']), /^v1\.32\.\d+/);
    assert.equal(typeof r.body['platform'], 'string');
  });

  it('/metrics exposes kube-compatible names', async () => {
    await c.request({ path: `${FLUNDERS}/namespaces/${ns}/flunders` });
    const r = await c.request({ path: '/metrics' });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    for (const name of ['apiserver_request_total', 'apiserver_request_duration_seconds_bucket', 'apiserver_current_inflight_requests', 'apiserver_storage_objects']) {
      assert.match(r.text, new RegExp(`^${name}[{ ]`, 'm'), `${name} missing`);
    }
    assert.match(r.text, /^apiserver_request_total\{[^}]*resource="flunders"[^}]*\} \d+/m);
  });

  it('watch: 200, chunked, newline-delimited events in resourceVersion order, selector-filtered', async () => {
    const list = await c.json('GET', `${FLUNDERS}/namespaces/${ns}/flunders`);
    const rv = String((list.body['metadata'] as Meta).resourceVersion);
    const w = await c.watch(`${FLUNDERS}/namespaces/${ns}/flunders?watch=true&resourceVersion=${rv}`);
    const sel = await c.watch(`${FLUNDERS}/namespaces/${ns}/flunders?watch=1&resourceVersion=${rv}&labelSelector=pick%3Dyes`);
    try {
      assert.equal(w.status, 200);
      assert.equal(w.res.headers['content-type'], 'application/json');
      assert.equal(w.res.headers['transfer-encoding'], 'chunked');
      const names = [uniqueName('wa'), uniqueName('wb'), uniqueName('wc')];
      for (const n of names) await createFlunder(c, ns, n, n === names[1] ? { pick: 'yes' } : {});
      const p = await c.json('PATCH', `${FLUNDERS}/namespaces/${ns}/flunders/${names[0]}`, { metadata: { labels: { pick: 'yes' } } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(p.status, 200, JSON.stringify(p.body));
      const d = await c.json('DELETE', `${FLUNDERS}/namespaces/${ns}/flunders/${names[2]}`);
      assert.equal(d.status, 200, JSON.stringify(d.body));
      const evs = await w.until((e) => e.length >= 5);
      assert.deepEqual(
        evs.map((e) => `${e.type} ${meta(e.object).name}`),
        [`ADDED ${names[0]}`, `ADDED ${names[1]}`, `ADDED ${names[2]}`, `MODIFIED ${names[0]}`, `DELETED ${names[2]}`],
      );
      for (const e of evs) {
        assert.equal(e.object['apiVersion'], 'wardle.example.com/v1beta1');
        assert.equal(e.object['kind'], 'Flunder');
      }
      const rvs = evs.map((e) => Number(meta(e.object).resourceVersion));
      assert.deepEqual(
        [...rvs].sort((a, b) => a - b),
        rvs,
        'ordered by resourceVersion',
      );
      assert.ok(rvs.every((r) => r > Number(rv)));
      assert.equal(w.pending, '', 'every event is followed by a newline');
      // names[1] enters with its label; names[0] enters the selection by the patch (ADDED).
      const s = await sel.until((e) => e.length >= 2);
      assert.deepEqual(
        s.map((e) => `${e.type} ${meta(e.object).name}`),
        [`ADDED ${names[1]}`, `ADDED ${names[0]}`],
      );
    } finally {
      w.close();
      sel.close();
    }
  });

  it('watch timeoutSeconds ends the stream cleanly; bookmarks only when asked', async () => {
    const list = await c.json('GET', `${FLUNDERS}/namespaces/${ns}/flunders`);
    const rv = String((list.body['metadata'] as Meta).resourceVersion);
    const w = await c.watch(`${FLUNDERS}/namespaces/${ns}/flunders?watch=true&resourceVersion=${rv}&timeoutSeconds=1`);
    await w.end(20_000);
    assert.equal(w.status, 200);
    assert.ok(
      w.events.every((e: WatchEvent) => e.type !== 'BOOKMARK' && e.type !== 'ERROR'),
      JSON.stringify(w.events),
    );
    assert.equal(w.pending, '');
  });

  it('Table: server columns and Age; in a watch only the first event carries column definitions', async () => {
    const name = uniqueName('tbl');
    await createFlunder(c, ns, name);
    const r = await c.json('GET', `${FLUNDERS}/namespaces/${ns}/flunders/${name}`, undefined, { Accept: TABLE_ACCEPT });
    assert.equal(r.status, 200);
    assert.equal(r.body['kind'], 'Table');
    assert.equal(r.body['apiVersion'], 'meta.k8s.io/v1');
    const cols = (r.body['columnDefinitions'] as Array<{ name: string; type: string }>).map((x) => `${x.name}:${x.type}`);
    assert.deepEqual(cols, ['Name:string', 'FlunderReference:string', 'FischerReference:string', 'Type:string', 'Age:date']);
    const row = (r.body['rows'] as Array<{ cells: unknown[]; object: Record<string, unknown> }>)[0];
    assert.equal(row?.cells[0], name);
    assert.match(String(row?.cells[4]), /^\d+s$/);
    assert.equal(row?.object['kind'], 'PartialObjectMetadata');
    const list = await c.json('GET', `${FLUNDERS}/namespaces/${ns}/flunders`);
    const w = await c.watch(`${FLUNDERS}/namespaces/${ns}/flunders?watch=true&resourceVersion=${String((list.body['metadata'] as Meta).resourceVersion)}`, { Accept: TABLE_ACCEPT });
    try {
      await createFlunder(c, ns, uniqueName('tw'));
      await createFlunder(c, ns, uniqueName('tw'));
      const evs = await w.until((e) => e.length >= 2);
      assert.equal(evs[0]?.object['kind'], 'Table');
      assert.ok(Array.isArray(evs[0]?.object['columnDefinitions']));
      assert.equal(evs[1]?.object['columnDefinitions'], null);
    } finally {
      w.close();
    }
  });

  it('aggregated discovery negotiated per Accept clause, with ETag and 304', async () => {
    const v2 = await c.request({ path: '/apis', headers: { Accept: `${V2},${V2BETA1},application/json` } });
    assert.equal(v2.status, 200);
    assert.equal(v2.headers['content-type'], V2);
    const etag = v2.headers['etag'];
    assert.ok(etag, 'ETag');
    const again = await c.request({ path: '/apis', headers: { Accept: `${V2},${V2BETA1},application/json`, 'If-None-Match': String(etag) } });
    assert.equal(again.status, 304);
    const beta = await c.request({ path: '/apis', headers: { Accept: `${V2BETA1},application/json` } });
    assert.equal(beta.headers['content-type'], V2BETA1);
    assert.equal((JSON.parse(beta.text) as { apiVersion: string }).apiVersion, 'apidiscovery.k8s.io/v2beta1');
    const legacy = await c.json('GET', '/apis');
    assert.equal(legacy.body['kind'], 'APIGroupList');
    const api = await c.json('GET', '/api');
    assert.equal(api.body['kind'], 'APIVersions');
    assert.deepEqual(api.body['versions'], ['v1']);
  });

  it('statuses: 413 over 3 MiB, 415 unknown body type, 406 unacceptable Accept, 404 unknown path', async () => {
    const big = JSON.stringify({ ...flunderV1beta1.manifest('big', ns), pad: 'x'.repeat(3 * 1024 * 1024) });
    const r413 = await c.request({ method: 'POST', path: `${FLUNDERS}/namespaces/${ns}/flunders`, headers: { 'Content-Type': 'application/json' }, body: big });
    assert.equal(r413.status, 413);
    const s413 = asStatus(r413.text);
    assert.equal(s413.reason, 'RequestEntityTooLarge');
    assert.equal(s413.code, 413);
    const r415 = await c.request({
      method: 'POST',
      path: `${FLUNDERS}/namespaces/${ns}/flunders`,
      headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' },
      body: Buffer.from([0x6b, 0x38, 0x73, 0x00]),
    });
    assert.equal(r415.status, 415);
    assert.equal(asStatus(r415.text).reason, 'UnsupportedMediaType');
    const p415 = await c.request({ method: 'PATCH', path: `${FLUNDERS}/namespaces/${ns}/flunders/x`, headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    assert.equal(p415.status, 415);
    assert.equal(asStatus(p415.text).reason, 'UnsupportedMediaType');
    const r406 = await c.request({ path: `${FLUNDERS}/namespaces/${ns}/flunders`, headers: { Accept: 'text/html' } });
    assert.equal(r406.status, 406);
    const s406 = asStatus(r406.text);
    assert.equal(s406.reason, 'NotAcceptable');
    assert.match(String(s406.message), /^only the following media types are accepted: /);
    const r404 = await c.request({ path: '/apis/wardle.example.com/v1beta1/nothing-here' });
    assert.equal(r404.status, 404);
    assert.equal(asStatus(r404.text).reason, 'NotFound');
  });
});

/** One server of our own per test: these tests restart, overload or stop it. */
function ownServer(backend: Backend, title: string, fn: (start: (extra?: string[]) => Promise<ControlPlane>) => Promise<void>): void {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
  it(`${title} (${backend})`, { skip: skip ?? false }, async () => {
    const started: ControlPlane[] = [];
    try {
      await fn(async (extra = []) => {
        const cp = await ControlPlane.start({ backend, extraArgs: extra });
        started.push(cp);
        return cp;
      });
    } finally {
      for (const cp of started.reverse()) await cp.stop();
    }
  });
}

describe('HTTP wire contract: restart, limits, shutdown', () => {
  for (const backend of ['sqlite', 'etcd3'] as const) {
    ownServer(backend, 'a resourceVersion older than the watch window: 200 + one ERROR event 410 Expired; data survives a restart', async (start) => {
      const first = await start();
      let c = new HttpsClient(first.credentials);
      const ns = uniqueName('exp');
      await createNamespace(c, ns);
      const old = await createFlunder(c, ns, 'old');
      for (let i = 0; i < 5; i++) await createFlunder(c, ns, `later-${i}`);
      c.close();
      const second = await first.restart();
      // restart() hands ownership of the data dir (and etcd) to the new process.
      const cp = second;
      c = new HttpsClient(cp.credentials);
      try {
        const list = await c.json('GET', `${FLUNDERS}/namespaces/${ns}/flunders`);
        assert.equal((list.body['items'] as unknown[]).length, 6, 'objects persisted across the restart');
        const rv0 = String(meta(old).resourceVersion);
        const w = await c.watch(`${FLUNDERS}/namespaces/${ns}/flunders?watch=true&resourceVersion=${rv0}`);
        assert.equal(w.status, 200);
        await w.end(20_000);
        assert.equal(w.events.length, 1, JSON.stringify(w.events));
        const ev = w.events[0] as WatchEvent;
        assert.equal(ev.type, 'ERROR');
        const st = asStatus(JSON.stringify(ev.object));
        assert.equal(st.code, 410);
        assert.equal(st.reason, 'Expired');
        assert.match(String(st.message), new RegExp(`^too old resource version: ${rv0} \\(\\d+\\)$|^The resourceVersion for the provided watch is too old\\.$`));
      } finally {
        c.close();
        await cp.stop();
      }
    });
  }

  // As kube-apiserver, system:masters (the admin kubeconfig) is never limited: the overload comes
  // from a token user outside it, allowed to create flunders in its namespace by a RoleBinding
  // (under RBAC, system:anonymous may not create anything).
  ownServer('sqlite', '429 TooManyRequests with Retry-After past --max-mutating-requests-inflight', async (start) => {
    const cp = await start(['--max-requests-inflight', '1', '--max-mutating-requests-inflight', '1', ...testUserFlags()]);
    const admin = new HttpsClient(cp.credentials);
    const c = testUserClient(cp, { maxSockets: 64 });
    try {
      const ns = uniqueName('lim');
      await createNamespace(admin, ns);
      await grantTestUser(admin, 'flunder-writer', [{ verbs: ['create'], apiGroups: ['wardle.example.com'], resources: ['flunders'] }], {
        verb: 'create',
        group: 'wardle.example.com',
        resource: 'flunders',
        namespace: ns,
      });
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          c.request({ method: 'POST', path: `${FLUNDERS}/namespaces/${ns}/flunders`, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(flunderV1beta1.manifest(`n-${i}`, ns)) }),
        ),
      );
      const by = new Map<number, number>();
      for (const r of results) by.set(r.status, (by.get(r.status) ?? 0) + 1);
      assert.deepEqual(
        [...by.keys()].filter((s) => s !== 201 && s !== 429),
        [],
        `statuses: ${JSON.stringify([...by])}`,
      );
      const limited = results.find((r) => r.status === 429);
      assert.ok(limited, `no 429 among ${JSON.stringify([...by])}`);
      const st = asStatus(limited.text);
      assert.equal(st.reason, 'TooManyRequests');
      assert.match(String(limited.headers['retry-after']), /^\d+$/);
      const ready = await c.request({ path: '/readyz' });
      assert.equal(ready.status, 200);
    } finally {
      c.close();
      admin.close();
    }
  });

  ownServer('sqlite', 'SIGTERM closes open watches and exits 0', async (start) => {
    const cp = await start();
    const c = new HttpsClient(cp.credentials);
    try {
      const w = await c.watch(`${FLUNDERS}/flunders?watch=true`);
      assert.equal(w.status, 200);
      const status = await cp.terminate();
      assert.deepEqual(status, { code: 0, signal: null }, cp.log().slice(-3000));
      await w.end(10_000);
    } finally {
      c.close();
    }
  });
});
