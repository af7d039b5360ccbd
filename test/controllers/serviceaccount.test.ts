// kube's ServiceAccountsController (pkg/controller/serviceaccount/serviceaccounts_controller.go)
// over a real control plane: the controller runs against the server's loopback client and ensures
// `default` in every Active namespace, again after it is deleted, and never in a Terminating one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CoreV1Client } from '../../generated/clientset/core/v1/index.js';
import { isNotFound } from '../../runtime/client/index.js';
import { ServiceAccountsController } from '../../runtime/controllers/serviceaccount/index.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';
import { until } from '../integration/assertions.js';

describe('ServiceAccountsController over the control plane', () => {
  let dataDir = '';
  let plane: ControlPlane;
  let core: CoreV1Client;
  let controller: ServiceAccountsController;
  const errors: string[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sa-controller-'));
    plane = await startControlPlane({ dataDir, securePort: 0, bindAddress: '127.0.0.1', storageBackend: 'sqlite' });
    core = new CoreV1Client(plane.loopback);
    controller = new ServiceAccountsController({ rest: plane.loopback, onError: (ns, err) => errors.push(`${ns}: ${String(err)}`) });
    controller.start();
  });

  after(async () => {
    await controller?.stop();
    await plane?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const defaultSA = (namespace: string): Promise<string | undefined> =>
    core
      .serviceaccounts(namespace)
      .get('default')
      .then(
        (sa) => sa.metadata?.uid,
        (err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        },
      );

  test('the system namespaces get a default service account', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) await until(`default in ${ns}`, () => defaultSA(ns));
  });

  test('a new namespace gets one', async () => {
    await core.namespaces().create({ metadata: { name: 'team-a' } });
    const sa = await until('default in team-a', () =>
      core
        .serviceaccounts('team-a')
        .get('default')
        .catch(() => undefined),
    );
    assert.equal(sa.metadata?.namespace, 'team-a');
  });

  test('a deleted default service account is created again', async () => {
    await core.namespaces().create({ metadata: { name: 'team-b' } });
    const first = await until('default in team-b', () => defaultSA('team-b'));
    await core.serviceaccounts('team-b').delete('default');
    const second = await until('default in team-b again', async () => {
      const uid = await defaultSA('team-b');
      return uid !== undefined && uid !== first ? uid : undefined;
    });
    assert.notEqual(second, first);
  });

  test('none in a Terminating namespace', async () => {
    // A finalizer of its own keeps the namespace Terminating after its content is gone.
    await core.namespaces().create({ metadata: { name: 'team-c' }, spec: { finalizers: ['kubernetes', 'example.com/hold'] } });
    await until('default in team-c', () => defaultSA('team-c'));
    await core.namespaces().delete('team-c');
    await until('team-c emptied while Terminating', async () => {
      const ns = await core.namespaces().get('team-c');
      return ns.status?.phase === 'Terminating' && (await defaultSA('team-c')) === undefined ? true : undefined;
    });
    // The controller has seen the namespace Terminating (its update queued it): a sync creates nothing.
    await until('the controller sees team-c Terminating', async () => {
      await controller.syncNamespace('team-c');
      const list = await core.serviceaccounts('team-c').list();
      return list.items.length === 0 ? true : undefined;
    });
    await controller.syncNamespace('team-c');
    assert.equal(await defaultSA('team-c'), undefined);
    const ns = await core.namespaces().get('team-c');
    assert.equal(ns.status?.phase, 'Terminating');
    assert.deepEqual(errors, []);
  });
});
