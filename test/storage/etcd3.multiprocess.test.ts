import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/factory.js';
import type { WatchEvent } from '../../runtime/storage/interfaces.js';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';

const nameOf = (e: WatchEvent | undefined): string | undefined => (e?.object as StoredObject | undefined)?.metadata?.name;
const here = dirname(fileURLToPath(import.meta.url));
let etcd: EtcdCluster;
let factory: StorageFactory;
before(async () => {
  etcd = await startEtcd();
  factory = newStorageFactory({ backend: { backend: 'etcd3', endpoints: etcd.endpoints, compactionIntervalMs: 0 } });
});
after(async () => {
  await factory?.close();
  await etcd?.close();
});

test('two API server processes on one etcd see each other’s writes through watch', async () => {
  const store = await factory.forResource({ resourcePrefix: '/configmaps/' });
  const list = await store.getList('/configmaps/', { recursive: true });
  const w = await store.watch('/configmaps/', { recursive: true, resourceVersion: list.resourceVersion });
  const count = 20;
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'fixtures/etcdWriter.ts'), etcd.endpoints[0] ?? '', String(count)], {
    cwd: resolve(here, '../..'),
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  assert.equal(code, 0, 'the writer process failed');
  const events: WatchEvent[] = [];
  const timer = setTimeout(() => w.stop(), 20_000);
  for await (const ev of w) {
    events.push(ev);
    if (events.length === count + 2) break;
  }
  clearTimeout(timer);
  w.stop();
  assert.equal(events.length, count + 2, 'every write of the other process arrived');
  assert.deepEqual(
    events.slice(0, count).map((e) => [e.type, nameOf(e)]),
    Array.from({ length: count }, (_, i) => ['ADDED', `from-child-${i}`]),
  );
  assert.deepEqual([events[count]?.type, nameOf(events[count])], ['MODIFIED', 'from-child-0']);
  assert.deepEqual([events[count + 1]?.type, nameOf(events[count + 1])], ['DELETED', 'from-child-1']);
});
