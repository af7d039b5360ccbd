// kube's --watch-cache and --watch-cache-sizes (k8s.io/apiserver/pkg/server/options/etcd.go:
// ParseWatchCacheSizes and the REST options factory's choice of decorator, with kube-apiserver's
// DefaultWatchCacheSizes: events and events.k8s.io events at 0), and where the choice lands: the
// storage factory gives a resource a watch cache or its storage, per served resource.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { completeOptions, OptionsError, parseServerRunOptions } from '../../runtime/controlplane/options.js';
import { completeStorageOptions, storageConfigFor } from '../../runtime/server/options/storage.js';
import { parseWatchCacheSizes } from '../../runtime/server/options/watchcachesizes.js';
import { Cacher } from '../../runtime/storage/cacher/cacher.js';
import { newStorageFactory, type StorageConfig } from '../../runtime/storage/index.js';
import { group as coreDeclaration } from '../../apis/core/group.js';
import { group as eventsDeclaration } from '../../apis/events/group.js';

const fails = (entries: string[], message: string): void =>
  assert.throws(
    () => parseWatchCacheSizes(entries),
    (e: unknown) => e instanceof OptionsError && e.message === message,
  );

test('ParseWatchCacheSizes: resource[.group]#size, the group after the first dot; a later entry wins (TestParseWatchCacheSizes)', () => {
  assert.deepEqual(
    parseWatchCacheSizes(['events#0', 'events.events.k8s.io#100', 'deployments.apps#+7', 'leases.coordination.k8s.io#5', 'leases.coordination.k8s.io#-0']),
    new Map([
      ['events', 0],
      ['events.events.k8s.io', 100],
      ['deployments.apps', 7],
      ['leases.coordination.k8s.io', 0],
    ]),
  );
  assert.deepEqual(parseWatchCacheSizes([]), new Map());
});

test("ParseWatchCacheSizes: kube's errors", () => {
  fails(['events'], 'invalid value of watch cache size: events');
  fails(['events#1#2'], 'invalid value of watch cache size: events#1#2');
  fails(['events#many'], 'invalid size of watch cache size: events#many');
  fails(['events#'], 'invalid size of watch cache size: events#');
  fails(['events# 1'], 'invalid size of watch cache size: events# 1');
  fails(['events#1.5'], 'invalid size of watch cache size: events#1.5');
  fails(['events#9223372036854775808'], 'invalid size of watch cache size: events#9223372036854775808');
  fails(['events#-1'], 'watch cache size cannot be negative: events#-1');
  // Hostile keys are data.
  assert.deepEqual(
    parseWatchCacheSizes(['__proto__#0', 'constructor.x#1']),
    new Map([
      ['__proto__', 0],
      ['constructor.x', 1],
    ]),
  );
});

test('--watch-cache-sizes through the control plane flags: comma separated and repeatable; read only with --watch-cache on, as kube', () => {
  const storage = (...argv: string[]) => completeOptions(parseServerRunOptions(argv), () => {});
  assert.deepEqual(storage().watchCacheSizes, new Map());
  assert.deepEqual(
    storage('--watch-cache-sizes=events#100,events.events.k8s.io#1', '--watch-cache-sizes', 'configmaps#0').watchCacheSizes,
    new Map([
      ['events', 100],
      ['events.events.k8s.io', 1],
      ['configmaps', 0],
    ]),
  );
  assert.throws(
    () => storage('--watch-cache-sizes=events'),
    (e: unknown) => e instanceof OptionsError && e.message.startsWith('invalid value of watch cache size: events'),
  );
  // kube neither parses nor applies the sizes when the watch cache is off.
  assert.deepEqual(storage('--watch-cache=false', '--watch-cache-sizes=events').watchCacheSizes, new Map());
  const o = completeStorageOptions({ watchCacheSizes: ['events#5'] }, { etcdPrefix: '/registry' });
  assert.deepEqual(storageConfigFor(o, '/d/kube.db').storageConfig.watchCacheSizes, new Map([['events', 5]]));
  assert.equal('watchCacheSizes' in storageConfigFor(completeStorageOptions({}, { etcdPrefix: '/registry' }), '/d/kube.db').storageConfig, false);
});

test('both Events resources declare they are served without a watch cache (DefaultWatchCacheSizes)', () => {
  assert.deepEqual(coreDeclaration.watchCache, { Event: false });
  assert.deepEqual(eventsDeclaration.watchCache, { Event: false });
});

test("the storage factory's choice per served resource: --watch-cache, then the resource's --watch-cache-sizes entry, then its declaration", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch-cache-sizes-'));
  const factoryWith = (config: Omit<StorageConfig, 'backend'>, name: string) => newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, name) }, warn: () => {}, ...config });
  const core = { group: '', resource: 'events' };
  const events = { group: 'events.k8s.io', resource: 'events' };
  const cms = { group: '', resource: 'configmaps' };
  const cached = async (f: ReturnType<typeof factoryWith>, servedAs: typeof core | undefined, watchCache?: boolean) =>
    (await f.forResource({ resourcePrefix: '/events/', ...(servedAs === undefined ? {} : { servedAs }), ...(watchCache === undefined ? {} : { watchCache }) })) instanceof Cacher;
  const byDefault = factoryWith({}, 'a');
  const sized = factoryWith(
    {
      watchCacheSizes: new Map([
        ['events', 100],
        ['configmaps', 0],
      ]),
    },
    'b',
  );
  const off = factoryWith({ watchCache: false, watchCacheSizes: new Map([['events', 100]]) }, 'c');
  try {
    assert.equal(await cached(byDefault, cms), true, 'cached unless declared otherwise');
    assert.equal(await cached(byDefault, core, false), false, 'declared without a cache');
    assert.equal(await cached(byDefault, undefined, false), false, "the server's own storages");
    assert.equal(await cached(sized, core, false), true, 'a non-zero size enables it');
    assert.equal(await cached(sized, events, false), false, 'each resource decides: events.k8s.io is not named');
    assert.equal(await cached(sized, cms), false, 'size 0 disables it');
    assert.equal(await cached(off, core, false), false, '--watch-cache=false: none anywhere');
    assert.equal(await cached(off, cms), false);
  } finally {
    await Promise.all([byDefault.close(), sized.close(), off.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a non-zero size logs kube's warning each time the named resource's storage is made (the cache is sized dynamically); 0, no entry or --watch-cache=false log nothing", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'watch-cache-sizes-warn-'));
  const warnings: string[] = [];
  const warn = (m: string): void => void warnings.push(m);
  const sizes = new Map([
    ['events', 100],
    ['events.events.k8s.io', 1],
    ['configmaps', 0],
  ]);
  const on = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'on') }, watchCacheSizes: sizes, warn });
  const off = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'off') }, watchCache: false, watchCacheSizes: sizes, warn });
  try {
    await on.forResource({ resourcePrefix: '/events/', servedAs: { group: '', resource: 'events' }, watchCache: false });
    await on.forResource({ resourcePrefix: '/events.k8s.io/events/', servedAs: { group: 'events.k8s.io', resource: 'events' }, watchCache: false });
    await on.forResource({ resourcePrefix: '/configmaps/', servedAs: { group: '', resource: 'configmaps' } });
    await on.forResource({ resourcePrefix: '/secrets/', servedAs: { group: '', resource: 'secrets' } });
    await on.forResource({ resourcePrefix: '/events/' });
    await off.forResource({ resourcePrefix: '/events/', servedAs: { group: '', resource: 'events' } });
    assert.deepEqual(warnings, ['Dropping watch-cache-size for events - watchCache size is now dynamic', 'Dropping watch-cache-size for events.events.k8s.io - watchCache size is now dynamic']);
  } finally {
    await Promise.all([on.close(), off.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
});
