import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEvent } from '../../runtime/endpoints/filters/audit.js';
import { silentLogger } from '../../runtime/endpoints/filters/log.js';
import { Config } from '../../runtime/server/config.js';
import { emptyDelegate, notFoundHandler } from '../../runtime/server/delegation.js';
import { APIServerMetrics } from '../../runtime/server/metrics.js';
import { Serving } from '../../runtime/server/serving.js';
import { json } from './harness.js';

describe('delegation chain', () => {
  it('aggregator → core → apiextensions → 404, with the head serving checks, hooks and filters for all', async () => {
    const events: AuditEvent[] = [];
    const metrics = new APIServerMetrics({ processMetrics: false });
    const config = (): Config => new Config({ logger: silentLogger, metrics, auditSink: { processEvent: (e) => events.push(e) } });

    // The chain as the control plane writes it: each server delegates to the one built before.
    const apiextensions = config().complete().new({ name: 'apiextensions-apiserver', delegate: emptyDelegate() });
    const core = config().complete().new({ name: 'kube-apiserver', delegate: apiextensions });
    const aggregator = config().complete().new({ name: 'kube-aggregator', delegate: core });

    core.mux.handlePrefix('/api/', async (req, res) => res.writeJSON(200, { server: 'core', path: req.path }));
    core.mux.handlePrefix('/apis/wardle.example.com/', async (_req, res) => res.writeJSON(200, { server: 'core' }));
    aggregator.mux.handle('/apis', async (_req, res) => res.writeJSON(200, { server: 'aggregator' }));
    apiextensions.addReadyzChecks({ name: 'crd-informer-synced', check: async () => {} });
    let hookRan = false;
    apiextensions.addPostStartHook('start-apiextensions-controllers', async () => {
      hookRan = true;
    });
    core.addPreShutdownHook('stop-lease', async () => {});

    const serving = new Serving(aggregator);
    const { url } = await serving.listen({ host: '127.0.0.1', port: 0 });
    try {
      assert.deepEqual(await json(await fetch(`${url}/apis`)), { server: 'aggregator' });
      assert.deepEqual(await json(await fetch(`${url}/api/v1/namespaces`)), { server: 'core', path: '/api/v1/namespaces' });
      assert.deepEqual(await json(await fetch(`${url}/apis/wardle.example.com/v1beta1/flunders`)), { server: 'core' });

      // A CRD appears: apiextensions starts serving its group while the chain runs.
      const crdPath = `${url}/apis/stable.example.com/v1/crontabs`;
      const before = await fetch(crdPath);
      assert.equal(before.status, 404);
      assert.equal(await before.text(), '404 page not found\n');
      apiextensions.mux.handlePrefix('/apis/stable.example.com/', async (_req, res) => res.writeJSON(200, { server: 'apiextensions' }));
      assert.deepEqual(await json(await fetch(crdPath)), { server: 'apiextensions' });
      apiextensions.mux.unregister('/apis/stable.example.com/');
      assert.equal((await fetch(crdPath)).status, 404);

      await serving.postStartHooksDone();
      assert.equal(hookRan, true);
      const readyz = await (await fetch(`${url}/readyz?verbose`)).text();
      assert.equal(readyz, '[+]ping ok\n[+]shutdown ok\n[+]crd-informer-synced ok\n[+]poststarthook/start-apiextensions-controllers ok\nreadyz check passed\n');
      assert.deepEqual([...aggregator.preShutdownHooks().keys()], ['stop-lease']);
      assert.deepEqual(aggregator.listedPaths(), ['/api', '/apis', '/apis/wardle.example.com', '/healthz', '/livez', '/metrics', '/readyz', '/version']);

      // Filters run once, at the head: one RequestReceived per request.
      events.length = 0;
      await (await fetch(`${url}/api/v1/namespaces/default`)).text();
      await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(
        events.map((e) => e.stage),
        ['RequestReceived', 'ResponseComplete'],
      );
    } finally {
      await serving.shutdown({ drainTimeoutMs: 1_000 });
    }
  });

  it('a bare handler can be the delegate', async () => {
    const server = new Config({ logger: silentLogger }).complete().new({ name: 'x', delegate: notFoundHandler() });
    assert.equal(server.delegationTarget.listedPaths().length, 0);
    const serving = new Serving(server);
    const { url } = await serving.listen({ host: '127.0.0.1', port: 0 });
    try {
      // kube's notfoundhandler: Go's http.NotFound, plain text (client-go makes its own NotFound of it).
      const r = await fetch(`${url}/nothing/here`);
      assert.equal(r.status, 404);
      assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(await r.text(), '404 page not found\n');
    } finally {
      await serving.shutdown();
    }
  });
});
