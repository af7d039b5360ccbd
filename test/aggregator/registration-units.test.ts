// The autoregister controller's table over the generated fake clientset (what is created,
// updated, deleted or left alone, once or continuously), and the pure pieces of registration
// and proxying: APIService ordering, request-header encoding of the user, header filtering.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { APIService } from '../../apis/apiregistration/v1/types.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { AutoRegisterController } from '../../runtime/aggregator/controllers/autoregister.js';
import { AUTO_REGISTER_MANAGED_LABEL, escapeExtraKey, localAPIService, sortedByGroupAndVersion } from '../../runtime/aggregator/index.js';
import { backendRequestHeaders, backendResponseHeaders } from '../../runtime/aggregator/proxy-headers.js';
import { silentLogger } from '../../runtime/client/cache/index.js';
import { newSharedInformerFactoryCore } from '../../runtime/client/index.js';
import { isNotFound } from '../../runtime/apimachinery/errors/index.js';
import { until } from './proxy-env.js';

function labelled(svc: APIService, manage: string | undefined): APIService {
  return { ...svc, metadata: { ...svc.metadata, ...(manage !== undefined ? { labels: { [AUTO_REGISTER_MANAGED_LABEL]: manage } } : {}) } };
}

const local = (group: string, version: string, versionPriority = 15): APIService => localAPIService(group, version, { group: 1000, version: versionPriority });

test("autoregister: kube's table, once (onstart) and continuously, and APIServices taken over by a service left alone", async () => {
  const cs = newSimpleClientset(
    // Present at start, managed on start, with another spec: updated once.
    labelled(local('onstart.example.com', 'v1', 3), 'onstart'),
    // Present, managed continuously, no longer wanted: deleted.
    labelled(local('stale.example.com', 'v1'), 'true'),
    // Present without the label: someone else's.
    local('manual.example.com', 'v1', 7),
    // Managed, but pointing at a service now: taken over.
    labelled({ ...local('taken.example.com', 'v1'), spec: { ...local('taken.example.com', 'v1').spec!, service: { namespace: 'ns', name: 'svc', port: 443 }, insecureSkipTLSVerify: true } }, 'true'),
  );
  const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore({ tuning: { logger: silentLogger } }));
  const client = cs.apiregistrationV1().apiservices();
  const controller = new AutoRegisterController({ informer: factory.apiregistration().v1().apiservices(), client, onError: () => undefined });
  controller.addAPIServiceToSyncOnStart(local('onstart.example.com', 'v1'));
  controller.addAPIServiceToSyncOnStart(local('created-once.example.com', 'v1'));
  controller.addAPIServiceToSync(local('kept.example.com', 'v1'));
  controller.addAPIServiceToSync(local('manual.example.com', 'v1'));
  controller.addAPIServiceToSync(local('taken.example.com', 'v1'));
  factory.start();
  const stop = new AbortController();
  const running = controller.run(stop.signal);
  const get = async (name: string): Promise<APIService | undefined> => {
    try {
      return await client.get(name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };
  try {
    await until('every name synced once', async () =>
      controller.hasSynced(['v1.onstart.example.com', 'v1.created-once.example.com', 'v1.kept.example.com', 'v1.manual.example.com', 'v1.taken.example.com', 'v1.stale.example.com'])
        ? true
        : undefined,
    );
    assert.equal((await get('v1.onstart.example.com'))?.spec?.versionPriority, 15, 'updated once');
    assert.equal((await get('v1.created-once.example.com'))?.metadata?.labels?.[AUTO_REGISTER_MANAGED_LABEL], 'onstart');
    assert.equal((await get('v1.kept.example.com'))?.metadata?.labels?.[AUTO_REGISTER_MANAGED_LABEL], 'true');
    assert.equal(await get('v1.stale.example.com'), undefined, 'deleted');
    assert.equal((await get('v1.manual.example.com'))?.spec?.versionPriority, 7, 'not ours');
    assert.equal((await get('v1.taken.example.com'))?.spec?.service?.name, 'svc', 'taken over');

    // Once means once: a change or a deletion afterwards stays; a continuous one comes back.
    const onstart = (await get('v1.onstart.example.com'))!;
    await client.update({ ...onstart, spec: { ...onstart.spec!, versionPriority: 9 } });
    await client.delete('v1.created-once.example.com');
    await client.delete('v1.kept.example.com');
    await until('v1.kept.example.com recreated', () => get('v1.kept.example.com'));
    assert.equal((await get('v1.onstart.example.com'))?.spec?.versionPriority, 9);
    assert.equal(await get('v1.created-once.example.com'), undefined);

    // Handed back (a CRD's version gone): the continuous one is deleted.
    controller.removeAPIServiceToSync('v1.kept.example.com');
    await until('v1.kept.example.com deleted', async () => ((await get('v1.kept.example.com')) === undefined ? true : undefined));
  } finally {
    stop.abort();
    await running;
    await factory.shutdown();
  }
});

test('sortedByGroupAndVersion: groups by priority (then name), versions by priority (then kube-aware order)', () => {
  const svc = (group: string, version: string, groupPriorityMinimum: number, versionPriority: number): APIService => ({
    metadata: { name: `${version}.${group}` },
    spec: { group, version, groupPriorityMinimum, versionPriority },
  });
  const sorted = sortedByGroupAndVersion([
    svc('b.io', 'v1', 1000, 15),
    svc('a.io', 'v1beta1', 1000, 10),
    svc('a.io', 'v2', 1000, 10),
    svc('a.io', 'v1', 1000, 20),
    svc('z.io', 'v1', 2000, 1),
    svc('b.io', 'v1alpha1', 1000, 15),
  ]);
  assert.deepEqual(
    sorted.map((g) => g.map((s) => s.metadata?.name)),
    [['v1.z.io'], ['v1.a.io', 'v2.a.io', 'v1beta1.a.io'], ['v1.b.io', 'v1alpha1.b.io']],
  );
});

test('the user as request headers: extra keys percent-encoded where a header name cannot carry them', () => {
  assert.equal(escapeExtraKey('scopes.example.com/team'), 'scopes.example.com%2Fteam');
  assert.equal(escapeExtraKey('100%'), '100%25');
  assert.equal(escapeExtraKey('ünï code'), '%C3%BCn%C3%AF%20code');
  const headers = backendRequestHeaders(
    {
      headers: {
        host: 'aggregator',
        authorization: 'Bearer x',
        connection: 'keep-alive, x-hop',
        'x-hop': '1',
        'keep-alive': 'timeout=5',
        'x-remote-user': 'mallory',
        'x-remote-extra-a': 'b',
        accept: 'application/json',
        'x-forwarded-for': '10.0.0.1',
      },
      remoteAddress: '127.0.0.1',
      upgrade: false,
    },
    { name: 'alice', uid: 'u-1', groups: ['g1', 'g2'], extra: { 'scopes.example.com/team': ['blue', 'green'] } },
  );
  assert.deepEqual(headers, {
    accept: 'application/json',
    'x-forwarded-for': '10.0.0.1, 127.0.0.1',
    'X-Remote-User': 'alice',
    'X-Remote-Uid': 'u-1',
    'X-Remote-Group': ['g1', 'g2'],
    'X-Remote-Extra-scopes.example.com%2Fteam': ['blue', 'green'],
  });
  assert.deepEqual(backendResponseHeaders(['Content-Type', 'application/json', 'Connection', 'close, X-Private', 'X-Private', '1', 'Warning', 'a', 'Warning', 'b', 'Transfer-Encoding', 'chunked']), [
    'Content-Type',
    'application/json',
    'Warning',
    'a',
    'Warning',
    'b',
  ]);
});
