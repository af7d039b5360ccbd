// A 3-member etcd loses two members: the survivor has no leader, so etcd's server fails a write
// once its own request timeout passes. The store hands that error on as etcd gave it (a
// BackendError, not a storage error), which the API answers as kube does: 500, empty reason,
// the error's text, no Retry-After, and the write is not sent again. A read is sent again while
// etcd says Unavailable, until this client's deadline, then answers 500 ServerTimeout (the
// documented difference: kube's etcd client keeps trying until the request's own deadline).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toStatusError } from '../../runtime/apimachinery/errors/index.js';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/factory.js';
import type { Interface } from '../../runtime/storage/interfaces.js';
import { BackendError } from '../../runtime/storage/kvstore/kvErrors.js';
import { startEtcd, type EtcdCluster, type EtcdMember } from './etcdServer.js';
import { configMap, rejection } from './failures.js';

/** Above etcd's own request timeout (5 s + 2 election timeouts = 6 s here), so etcd answers a write first. */
const requestTimeoutMs = 9000;
const target = { gr: { group: '', resource: 'configmaps' }, name: 'b', operation: 'create' };

let cluster: EtcdCluster;
let factory: StorageFactory;
let store: Interface;
let survivor: EtcdMember;
before(async () => {
  cluster = await startEtcd(3);
  factory = newStorageFactory({ backend: { backend: 'etcd3', endpoints: cluster.endpoints, requestTimeoutMs, compactionIntervalMs: 0 }, watchCache: false });
  store = await factory.forResource({ resourcePrefix: '/configmaps/' });
});
after(async () => {
  await factory?.close();
  await cluster?.close();
});

test('quorum lost: the survivor reports no leader', async () => {
  await store.create('/configmaps/d/a', configMap('a'));
  survivor = await cluster.leader();
  for (const m of cluster.members) if (m !== survivor) await m.kill();
  // CheckQuorum: the leader steps down one election timeout after it stops hearing from a quorum.
  const deadline = Date.now() + 30_000;
  while ((await survivor.status().catch(() => undefined))?.leaderId !== '0') {
    assert.ok(Date.now() < deadline, 'the survivor still names a leader 30 s after losing quorum');
    await new Promise((r) => setTimeout(r, 100));
  }
});

test("a write etcd's server fails: etcd's error as kube answers it, without Retry-After", async () => {
  const err = await rejection(store.create('/configmaps/d/b', configMap('b')));
  assert.ok(err instanceof BackendError, `${err.name}: ${err.message}`);
  // etcd 3.4 answers "context deadline exceeded" with code Unknown; newer servers "etcdserver: request timed out…".
  assert.match(err.message, /^(etcdserver: |rpc error: code = [A-Za-z]+ desc = )/);
  const s = toStatusError(err, target).status;
  assert.equal(s.code, 500);
  assert.equal(s.reason ?? '', '');
  assert.equal(s.message, err.message);
  assert.equal(s.details, undefined, 'no retryAfterSeconds: the client must not send the write again');
});

test('a read is retried while etcd is unavailable, then fails at the deadline as ServerTimeout', async () => {
  const started = performance.now();
  const err = await rejection(store.get('/configmaps/d/a', {}));
  const ms = performance.now() - started;
  const s = toStatusError(err, { ...target, operation: 'get' }).status;
  assert.equal(s.reason, 'ServerTimeout', `${err.name}: ${err.message}`);
  assert.equal(s.details?.retryAfterSeconds, 2);
  // etcd answers a read with Unavailable after its own 6 s request timeout: only sending it again reaches the deadline.
  assert.ok(ms >= requestTimeoutMs - 1000, `the read gave up after ${Math.round(ms)} ms, before its ${requestTimeoutMs} ms deadline`);
});

test('quorum back: reads and writes succeed again', async () => {
  for (const m of cluster.members) if (m !== survivor) m.restart();
  await cluster.waitHealthy(undefined, 60_000);
  await store.create('/configmaps/d/c', configMap('c'));
  const got = await store.get('/configmaps/d/a', {});
  assert.equal(got?.metadata?.name, 'a');
});
