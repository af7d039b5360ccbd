import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startEtcd, type EtcdCluster } from '../storage/etcdServer.js';
import { allow, allowBoth, ctx, deleteOpts, flunder, listOpts, newEnv, nextEvent, patch, statusIs, wardleGroup, write, type Env } from './helpers.js';

// The storage suites install etcd through hack/install-etcd when it is missing; skip with a
// clear message only when that is impossible.
const etcdMissing =
  spawnSync('sh', ['-c', 'command -v etcd'], { stdio: 'ignore' }).status !== 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0
    ? 'etcd is not installed and hack/install-etcd cannot install it here'
    : false;

describe('generic Store on etcd3', { skip: etcdMissing }, () => {
  let etcd: EtcdCluster | undefined;
  let env: Env;
  before(async () => {
    etcd = await startEtcd();
    env = await newEnv({ backend: 'etcd3', endpoints: etcd.endpoints, compactionIntervalMs: 0 });
  });
  after(async () => {
    await env?.close();
    await etcd?.close();
  });

  test('create (storage version), conflict, finalizer lifecycle with events, 404', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const created = await main.create(ctx('e1'), flunder('a', { fischerReference: 'f', referenceType: 'Fischer' }, { finalizers: ['example.com/x'] }), allow, write);
    const raw = await (await env.raw('wardle.example.com', 'flunders')).get('/wardle.example.com/flunders/e1/a');
    assert.deepEqual(raw?.spec, { reference: 'f', referenceType: 'Fischer' });
    const w = await main.watch(ctx('e1'), listOpts({ resourceVersion: String(created.metadata?.resourceVersion) }));
    await assert.rejects(
      main.update(
        ctx('e1'),
        'a',
        patch((o) => ({ ...o, metadata: { ...o.metadata, resourceVersion: '1' } })),
        allowBoth,
        { ...write, forceAllowCreate: false },
      ),
      statusIs(409, 'Operation cannot be fulfilled on flunders.wardle.example.com "a": the object has been modified; please apply your changes to the latest version and try again'),
    );
    const d = await main.delete(ctx('e1'), 'a', allow, deleteOpts);
    assert.equal(d.deleted, false);
    assert.equal((await nextEvent(w)).type, 'MODIFIED');
    await main.update(
      ctx('e1'),
      'a',
      patch((o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } })),
      allowBoth,
      { ...write, forceAllowCreate: false },
    );
    const ev = await nextEvent(w);
    assert.equal(ev.type, 'DELETED');
    assert.equal(ev.type === 'DELETED' ? ev.object.apiVersion : '', 'wardle.example.com/v1beta1');
    await assert.rejects(main.get(ctx('e1'), 'a', { resourceVersion: '' }), statusIs(404, 'flunders.wardle.example.com "a" not found'));
    w.stop();
  });
});
