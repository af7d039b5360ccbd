import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { APIServerMetrics } from '../../runtime/server/metrics.js';
import { json, sleep, startServer, type TestServer } from './harness.js';

describe('health endpoints', () => {
  let t: TestServer;
  let storageHealthy = true;
  before(async () => {
    t = await startServer({
      setup: (s) => {
        s.addReadyzChecks({
          name: 'etcd',
          check: async () => {
            if (!storageHealthy) throw new Error('connection refused');
          },
        });
        s.addHealthChecks({ name: 'informer-sync', check: async () => {} });
      },
    });
  });
  after(() => t.close());

  it('answers ok, or every check with ?verbose', async () => {
    for (const ep of ['healthz', 'livez', 'readyz']) {
      const r = await fetch(`${t.url}/${ep}`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(await r.text(), 'ok');
    }
    const r = await fetch(`${t.url}/readyz?verbose`);
    assert.equal(await r.text(), '[+]ping ok\n[+]shutdown ok\n[+]etcd ok\n[+]informer-sync ok\nreadyz check passed\n');
    const h = await fetch(`${t.url}/healthz?verbose=1`);
    assert.equal(await h.text(), '[+]ping ok\n[+]informer-sync ok\nhealthz check passed\n');
  });

  it('a failing check fails the endpoint without telling why; its own path tells', async () => {
    storageHealthy = false;
    try {
      const r = await fetch(`${t.url}/readyz`);
      assert.equal(r.status, 500);
      assert.equal(await r.text(), '[+]ping ok\n[+]shutdown ok\n[-]etcd failed: reason withheld\n[+]informer-sync ok\nreadyz check failed\n');
      const one = await fetch(`${t.url}/readyz/etcd`);
      assert.equal(one.status, 500);
      assert.equal(await one.text(), 'internal server error: connection refused\n');
      assert.equal((await fetch(`${t.url}/livez`)).status, 200);
      const excluded = await fetch(`${t.url}/readyz?exclude=etcd&exclude=nope&verbose`);
      assert.equal(excluded.status, 200);
      assert.equal(
        await excluded.text(),
        '[+]ping ok\n[+]shutdown ok\n[+]etcd excluded: ok\n[+]informer-sync ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
      );
    } finally {
      storageHealthy = true;
    }
    const ping = await fetch(`${t.url}/readyz/ping`);
    assert.equal(await ping.text(), 'ok');
    const missing = await fetch(`${t.url}/readyz/nope`);
    assert.equal(missing.status, 404);
    assert.equal((await json(missing)).reason, 'NotFound');
  });

  it('rejects duplicate check names', () => {
    assert.throws(() => t.server.addReadyzChecks({ name: 'etcd', check: async () => {} }), /already registered/);
    assert.throws(() => t.server.addHealthChecks({ name: 'ping', check: async () => {} }), /already registered/);
  });
});

describe('post-start hooks', () => {
  it('readyz fails until each hook has finished', async () => {
    let finish!: () => void;
    const t = await startServer({
      setup: (s) =>
        s.addPostStartHook(
          'start-informers',
          () =>
            new Promise<void>((resolve) => {
              finish = resolve;
            }),
        ),
    });
    try {
      const before = await fetch(`${t.url}/readyz?verbose`);
      assert.equal(before.status, 500);
      assert.match(await before.text(), /\[-\]poststarthook\/start-informers failed: reason withheld\n/);
      assert.equal(await (await fetch(`${t.url}/readyz/poststarthook/start-informers`)).text(), 'internal server error: not finished\n');
      finish();
      await t.serving.postStartHooksDone();
      const afterDone = await fetch(`${t.url}/readyz?verbose`);
      assert.equal(afterDone.status, 200);
      assert.match(await afterDone.text(), /\[\+\]poststarthook\/start-informers ok\n/);
    } finally {
      await t.close();
    }
  });
});

describe('/version', () => {
  it('reports Kubernetes 1.32 with every version.Info field', async () => {
    const t = await startServer();
    try {
      const r = await fetch(`${t.url}/version`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'application/json');
      const v = await json(r);
      assert.deepEqual(Object.keys(v), ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']);
      assert.equal(v.major, '1');
      assert.equal(v.minor, '32');
      assert.equal(v.gitVersion, 'v1.32.0');
      assert.equal(v.gitCommit, '');
      assert.match(String(v.platform), /^[a-z0-9]+\/[a-z0-9]+$/);
      for (const value of Object.values(v)) assert.equal(typeof value, 'string');
    } finally {
      await t.close();
    }
  });
});

describe('/metrics', () => {
  it('exposes kube-apiserver metric names with kube labels', async () => {
    const metrics = new APIServerMetrics();
    metrics.registerStorageObjectCounts(
      async () =>
        new Map([
          ['flunders.wardle.example.com', 3],
          ['namespaces', 4],
        ]),
    );
    const t = await startServer({
      config: { metrics },
      setup: (s) =>
        s.mux.handlePrefix('/apis/', async (req, res) => {
          if (req.info.verb === 'watch') {
            const stream = res.stream('application/json');
            stream.end();
            return;
          }
          res.writeJSON(req.method === 'POST' ? 201 : 200, {});
        }),
    });
    try {
      const base = `${t.url}/apis/wardle.example.com/v1beta1/namespaces/ns/flunders`;
      await (await fetch(base)).text();
      await (await fetch(`${base}/x`)).text();
      await (await fetch(`${base}?watch=true`)).text();
      await (await fetch(`${base}?dryRun=All`, { method: 'POST', body: '{}' })).text();
      await (await fetch(`${base}/x`, { method: 'PATCH', body: '{}', headers: { 'content-type': 'application/apply-patch+yaml' } })).text();
      await (await fetch(`${t.url}/apis/wardle.example.com/v1beta1/flunders`, { method: 'DELETE' })).text();
      await sleep(20);
      const r = await fetch(`${t.url}/metrics`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await r.text();
      const labels = (verb: string, dryRun: string, scope: string, code: string) =>
        `apiserver_request_total{verb="${verb}",dry_run="${dryRun}",group="wardle.example.com",version="v1beta1",resource="flunders",subresource="",scope="${scope}",component="apiserver",code="${code}"} 1`;
      for (const line of [
        labels('LIST', '', 'namespace', '200'),
        labels('GET', '', 'resource', '200'),
        labels('WATCH', '', 'namespace', '200'),
        labels('POST', 'All', 'resource', '201'),
        labels('APPLY', '', 'resource', '200'),
        labels('DELETE', '', 'cluster', '200'),
      ])
        assert.ok(text.includes(line), `missing ${line}`);
      assert.match(text, /# TYPE apiserver_request_duration_seconds histogram/);
      assert.match(
        text,
        /apiserver_request_duration_seconds_bucket\{le="0\.005",verb="LIST",dry_run="",group="wardle\.example\.com",version="v1beta1",resource="flunders",subresource="",scope="namespace",component="apiserver"\} \d/,
      );
      assert.match(text, /apiserver_request_duration_seconds_bucket\{le="60",/);
      assert.match(text, /apiserver_current_inflight_requests\{request_kind="mutating"\} 0/);
      // the scrape itself is the one read-only request in flight
      assert.match(text, /apiserver_current_inflight_requests\{request_kind="readOnly"\} 1/);
      assert.match(text, /apiserver_storage_objects\{resource="flunders\.wardle\.example\.com"\} 3/);
      assert.match(text, /apiserver_storage_objects\{resource="namespaces"\} 4/);
      assert.match(text, /process_cpu_user_seconds_total/);
      assert.match(text, /nodejs_heap_size_total_bytes/);
    } finally {
      await t.close();
    }
  });
});
