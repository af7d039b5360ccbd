// A write whose outcome is unknown, on a real etcd: sent and then its connection dropped (the
// member killed under it), or sent to a hung member (SIGSTOP) until this client's deadline. Both
// answer as kube passes its etcd client's error through: 500, empty reason, no Retry-After, so
// client-go does not send again a write that may have committed. A write that never left (no
// member listening) and a read keep 500 ServerTimeout with Retry-After: sending them again is
// safe, and a write answered so is not stored afterwards.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toStatusError } from '../../runtime/apimachinery/errors/index.js';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/factory.js';
import type { Interface } from '../../runtime/storage/interfaces.js';
import { BackendError } from '../../runtime/storage/kvstore/kvErrors.js';
import { startEtcd, type EtcdCluster, type EtcdMember } from './etcdServer.js';
import { configMap, rejection } from './failures.js';

/** Short enough that a write sent to a stopped member meets it before the keepalive (5 s + 3 s) drops the connection. */
const shortTimeoutMs = 1500;
/** Long enough that the member is killed under the write before its deadline. */
const longTimeoutMs = 20_000;
const target = { gr: { group: '', resource: 'configmaps' }, name: 'x', operation: 'create' };

let cluster: EtcdCluster;
let member: EtcdMember;
let short: { factory: StorageFactory; store: Interface };
let long: { factory: StorageFactory; store: Interface };

async function storeWith(requestTimeoutMs: number): Promise<{ factory: StorageFactory; store: Interface }> {
  const factory = newStorageFactory({ backend: { backend: 'etcd3', endpoints: cluster.endpoints, requestTimeoutMs, compactionIntervalMs: 0 }, watchCache: false });
  return { factory, store: await factory.forResource({ resourcePrefix: '/configmaps/' }) };
}

before(async () => {
  cluster = await startEtcd(1);
  const m = cluster.members[0];
  assert.ok(m);
  member = m;
  short = await storeWith(shortTimeoutMs);
  long = await storeWith(longTimeoutMs);
});
after(async () => {
  member?.resume();
  await short?.factory.close();
  await long?.factory.close();
  await cluster?.close();
});

/** kube's answer to a write that may have committed: the etcd client's error, 500, no reason, no Retry-After. */
function assertUncertain(err: Error, message: RegExp): void {
  assert.ok(err instanceof BackendError, `${err.name}: ${err.message}`);
  assert.match(err.message, message);
  assert.deepEqual(toStatusError(err, target).status, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, code: 500 });
}

/** A call that is safe to send again: 500 ServerTimeout with Retry-After 2. */
function assertServerTimeout(err: Error, operation: string): void {
  const s = toStatusError(err, { ...target, operation }).status;
  assert.equal(s.code, 500, `${err.name}: ${err.message}`);
  assert.equal(s.reason, 'ServerTimeout', `${err.name}: ${err.message}`);
  assert.equal(s.details?.retryAfterSeconds, 2);
}

async function stored(name: string): Promise<boolean> {
  return (await long.store.get(`/configmaps/d/${name}`, { ignoreNotFound: true })) !== undefined;
}

test('both clients connected', async () => {
  await short.store.create('/configmaps/d/a', configMap('a'));
  assert.ok(await stored('a'));
});

test('a write sent, then its connection dropped (member killed): "rpc error: code = Unavailable desc = …", no Retry-After', async () => {
  member.pause();
  const write = rejection(long.store.create('/configmaps/d/dropped', configMap('dropped')));
  // The write is on the wire (the connection stays open to a stopped process) when the member dies.
  await new Promise((r) => setTimeout(r, 500));
  await member.kill();
  assertUncertain(await write, /^rpc error: code = Unavailable desc = .+$/);
});

test('a write with no member listening was never sent: 500 ServerTimeout with Retry-After', async () => {
  const err = await rejection(short.store.create('/configmaps/d/unsent', configMap('unsent')));
  assertServerTimeout(err, 'create');
});

test('a write sent to a stopped member until the deadline: "context deadline exceeded", no Retry-After; a read: ServerTimeout', async () => {
  member.restart();
  await cluster.waitHealthy();
  // Both clients on a live connection again before the stop.
  await short.store.create('/configmaps/d/b', configMap('b'));
  assert.ok(await stored('b'));
  member.pause();
  try {
    const started = performance.now();
    assertUncertain(await rejection(short.store.create('/configmaps/d/hung', configMap('hung'))), /^context deadline exceeded$/);
    assert.ok(performance.now() - started >= shortTimeoutMs - 100, 'answered at the deadline');
    assertServerTimeout(await rejection(short.store.get('/configmaps/d/a', {})), 'get');
  } finally {
    member.resume();
  }
});

test('after recovery: writes succeed; the write answered with Retry-After is not stored', async (t) => {
  await cluster.waitHealthy();
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await short.store.create('/configmaps/d/c', configMap('c'));
      break;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  assert.equal(await stored('unsent'), false, 'a write answered with Retry-After reached etcd');
  // Either outcome is etcd's to decide: which is why neither answer carried a Retry-After.
  t.diagnostic(`the write whose connection dropped is ${(await stored('dropped')) ? '' : 'not '}stored; the write that met the deadline is ${(await stored('hung')) ? '' : 'not '}stored`);
});
