// The typed Kubernetes clients' writes against the replay server: what they send is what
// client-go's typed clients send (method, path, Content-Type of each patch type, apply's
// fieldManager and force, the body), the answers decode, watches see the writes in order, and
// kube's Status errors (404, 409 AlreadyExists and Conflict, 422 Invalid, 410 Expired on a watch)
// reach the caller as kube wrote them (apimachinery/pkg/api/errors' tests: TestNewXxx shapes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAlreadyExists, isConflict, isInvalid, isNotFound, type WatchEvent } from '../../../runtime/client/index.js';
import type { DeploymentApplyConfiguration } from '../../../generated/kubernetes/applyconfigurations/apps/v1/index.js';
import type { Deployment } from '../../../generated/kubernetes/types/apps/v1.js';
import { replayKubernetes, type Obj } from './typed-clients.js';
import { restClientForConfig } from '../../../runtime/client/rest/index.js';

const NS = 'namespaceValue';
const replay = replayKubernetes({ maxRetries: 0 });

function statusOf(e: unknown): unknown {
  return (e as { status?: unknown }).status;
}

function deployment(name: string): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx:1.27' },
            { name: 'log', image: 'busybox' },
          ],
        },
      },
    },
  };
}

describe('typed writes, as client-go sends them', () => {
  it('create POSTs the object as JSON to the collection and decodes the echo', async () => {
    const created = await replay.k8s.appsV1().deployments(NS).create(deployment('web'), { fieldManager: 'test' });
    const req = replay.server.requests.at(-1)!;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, `/apis/apps/v1/namespaces/${NS}/deployments`);
    assert.deepEqual(Object.fromEntries(req.query), { fieldManager: 'test' });
    assert.match(req.headers['content-type'] ?? '', /^application\/json\b/);
    assert.deepEqual(JSON.parse(req.body), deployment('web'));
    assert.equal(created.metadata?.namespace, NS);
    assert.match(created.metadata?.resourceVersion ?? '', /^\d+$/);
    assert.deepEqual(created.spec, deployment('web').spec);
  });

  it('update PUTs to the item; a stale resourceVersion is kube’s 409 Conflict', async () => {
    const client = replay.k8s.appsV1().deployments(NS);
    const current = await client.get('web');
    const updated = await client.update({ ...current, spec: { ...current.spec!, replicas: 3 } });
    assert.equal(replay.server.requests.at(-1)!.method, 'PUT');
    assert.equal(replay.server.requests.at(-1)!.path, `/apis/apps/v1/namespaces/${NS}/deployments/web`);
    assert.equal(updated.spec?.replicas, 3);
    await assert.rejects(client.update(current), (e: unknown) => {
      assert.ok(isConflict(e));
      assert.deepEqual(statusOf(e), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
        reason: 'Conflict',
        details: { name: 'web', group: 'apps', kind: 'deployments' },
        code: 409,
      });
      return true;
    });
  });

  it('a strategic merge patch merges containers by name (the published patch strategy)', async () => {
    const body = { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } };
    const patched = await replay.k8s.appsV1().deployments(NS).patch('web', 'application/strategic-merge-patch+json', body);
    const req = replay.server.requests.at(-1)!;
    assert.equal(req.method, 'PATCH');
    assert.equal(req.headers['content-type'], 'application/strategic-merge-patch+json');
    assert.deepEqual(JSON.parse(req.body), body);
    assert.deepEqual(
      patched.spec?.template.spec?.containers.map((c) => [c.name, c.image]),
      [
        ['web', 'nginx:1.28'],
        ['log', 'busybox'],
      ],
    );
  });

  it('apply PATCHes application/apply-patch+yaml with fieldManager and force', async () => {
    const config: DeploymentApplyConfiguration = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: NS }, spec: { replicas: 5 } };
    const applied = await replay.k8s.appsV1().deployments(NS).apply(config, { fieldManager: 'ctrl', force: true });
    const req = replay.server.requests.at(-1)!;
    assert.equal(req.method, 'PATCH');
    assert.equal(req.path, `/apis/apps/v1/namespaces/${NS}/deployments/web`);
    assert.equal(req.headers['content-type'], 'application/apply-patch+yaml');
    assert.deepEqual(Object.fromEntries(req.query), { fieldManager: 'ctrl', force: 'true' });
    assert.deepEqual(JSON.parse(req.body), config);
    assert.equal(applied.spec?.replicas, 5);
  });

  it('an apply without fieldManager is kube’s 422 of PatchOptions', async () => {
    const rest = restClientForConfig({ host: replay.server.url, maxRetries: 0 });
    const path = `/apis/apps/v1/namespaces/${NS}/deployments/web`;
    await assert.rejects(
      rest.request({ method: 'PATCH', path, contentType: 'application/apply-patch+yaml', body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } } }),
      (e: unknown) => {
        assert.ok(isInvalid(e));
        assert.equal((statusOf(e) as { message: string }).message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
        return true;
      },
    );
  });

  it('get of a missing object is kube’s 404 NotFound; a taken name 409 AlreadyExists; no name 422 Invalid', async () => {
    const pods = replay.k8s.coreV1().pods(NS);
    await assert.rejects(pods.get('missing'), (e: unknown) => {
      assert.ok(isNotFound(e));
      assert.deepEqual(statusOf(e), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'pods "missing" not found',
        reason: 'NotFound',
        details: { name: 'missing', kind: 'pods' },
        code: 404,
      });
      return true;
    });
    await assert.rejects(
      replay.k8s.appsV1().deployments(NS).create(deployment('web')),
      (e: unknown) => isAlreadyExists(e) && (statusOf(e) as { message: string }).message === 'deployments.apps "web" already exists',
    );
    await assert.rejects(replay.k8s.storageV1().storageclasses().create({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: {}, provisioner: 'x' }), (e: unknown) => {
      assert.ok(isInvalid(e));
      assert.deepEqual(statusOf(e), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'StorageClass.storage.k8s.io "" is invalid: metadata.name: Required value: name or generateName is required',
        reason: 'Invalid',
        details: { group: 'storage.k8s.io', kind: 'StorageClass', causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] },
        code: 422,
      });
      return true;
    });
  });

  it('a watch from a list’s resourceVersion sees ADDED, MODIFIED and DELETED in order; delete DELETEs the item', async () => {
    const cms = replay.k8s.coreV1().configmaps(NS);
    const list = await cms.list();
    const w = await cms.watch({ resourceVersion: list.metadata!.resourceVersion!, timeoutSeconds: 30 });
    const seen: WatchEvent<Obj>[] = [];
    const done = (async () => {
      for await (const e of w) if (seen.push(e as WatchEvent<Obj>) === 3) break;
    })();
    await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1' } });
    await cms.patch('cfg', 'application/merge-patch+json', { data: { a: '2' } });
    await cms.delete('cfg');
    const del = replay.server.requests.at(-1)!;
    assert.equal(del.method, 'DELETE');
    assert.equal(del.path, `/api/v1/namespaces/${NS}/configmaps/cfg`);
    await done;
    w.stop();
    assert.deepEqual(
      seen.map((e) => [e.type, (e.object as Obj & { data?: { a?: string } }).data?.a]),
      [
        ['ADDED', '1'],
        ['MODIFIED', '2'],
        ['DELETED', '2'],
      ],
    );
  });

  it('a watch from a compacted resourceVersion gets one ERROR event: 410 Expired', async () => {
    const cms = replay.k8s.coreV1().configmaps(NS);
    const from = (await cms.list()).metadata!.resourceVersion!;
    await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' } });
    replay.server.store.compact();
    const w = await cms.watch({ resourceVersion: from });
    const events: WatchEvent<Obj>[] = [];
    for await (const e of w) events.push(e as WatchEvent<Obj>);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'ERROR');
    assert.deepEqual(events[0]!.object, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: ${from} (${Number(from) + 1})`,
      reason: 'Expired',
      code: 410,
    });
  });
});
