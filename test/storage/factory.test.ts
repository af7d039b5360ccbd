import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { encodeWatchEventJSON } from '../../runtime/storage/cacher/cachingObject.js';
import { Compactor } from '../../runtime/storage/etcd3/compactor.js';
import type { EtcdKV } from '../../runtime/storage/etcd3/kv.js';
import { isExpired } from '../../runtime/storage/errors.js';
import { newStorageFactory } from '../../runtime/storage/factory.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';

const obj = (name: string): StoredObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });

describe('storage factory', () => {
  let dir = '';
  let etcd: EtcdCluster | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'storage-factory-'));
    etcd = await startEtcd();
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await etcd?.close();
  });

  test('sqlite with watch cache: writes, cached reads, one serialization per event for all watchers', async () => {
    const f = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'a.db') } });
    try {
      const cms = await f.forResource({ resourcePrefix: '/configmaps/' });
      const w1 = await cms.watch('/configmaps/default', { recursive: true, resourceVersion: '0' });
      const w2 = await cms.watch('/configmaps/default', { recursive: true, resourceVersion: '0' });
      const created = await cms.create('/configmaps/default/a', obj('a'));
      const list = await cms.getList('/configmaps/', { recursive: true, resourceVersion: '0' });
      assert.equal(list.items.length <= 1, true);
      const consistent = await cms.getList('/configmaps/', { recursive: true });
      assert.deepEqual(consistent.items, [created]);
      const e1 = await w1.receive();
      const e2 = await w2.receive();
      assert.ok(e1 && e2 && e1.type === 'ADDED');
      assert.equal(e1.object, e2.object, 'watchers share the cached object');
      const b1 = encodeWatchEventJSON(e1);
      const b2 = encodeWatchEventJSON(e2);
      assert.deepEqual(JSON.parse(b1.toString()), { type: 'ADDED', object: created });
      assert.ok(b1.equals(b2));
      w1.stop();
      w2.stop();
      await f.readinessCheck();
    } finally {
      await f.close();
    }
  });

  test('sqlite periodic compaction keeps the configured history; older revisions are 410', async () => {
    const f = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'b.db'), retainRevisions: 2, compactionIntervalMs: 50 }, watchCache: false });
    try {
      const cms = await f.forResource({ resourcePrefix: '/configmaps/' });
      const first = await cms.create('/configmaps/default/a', obj('a'));
      for (let i = 0; i < 5; i++) await cms.create(`/configmaps/default/b${i}`, obj(`b${i}`));
      await new Promise((r) => setTimeout(r, 300));
      await assert.rejects(cms.getList('/configmaps/', { recursive: true, resourceVersion: first.metadata?.resourceVersion ?? '', resourceVersionMatch: 'Exact' }), (e) => isExpired(e));
      assert.equal((await cms.getList('/configmaps/', { recursive: true })).items.length, 6);
    } finally {
      await f.close();
    }
  });

  test('etcd3 with watch cache and the compare-and-swap compactor', async () => {
    assert.ok(etcd);
    const f = newStorageFactory({ backend: { backend: 'etcd3', endpoints: etcd.endpoints, prefix: '/factory-test', compactionIntervalMs: 0 } });
    try {
      const cms = await f.forResource({ resourcePrefix: '/configmaps/' });
      const first = await cms.create('/configmaps/default/a', obj('a'));
      const got = await cms.get('/configmaps/default/a');
      assert.deepEqual(got, first);
      // Two rounds: the second compacts to the revision the first recorded.
      const compactor = new Compactor((f.kv as EtcdKV).client, f.kv as EtcdKV, 60_000);
      await compactor.round();
      await cms.create('/configmaps/default/b', obj('b'));
      await compactor.round();
      assert.ok(cms.compactRevision() > Number(first.metadata?.resourceVersion));
      await assert.rejects(cms.getList('/configmaps/', { recursive: true, resourceVersion: first.metadata?.resourceVersion ?? '', resourceVersionMatch: 'Exact' }), (e) => isExpired(e));
      await f.readinessCheck();
    } finally {
      await f.close();
    }
  });
});
