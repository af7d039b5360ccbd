import { Cacher } from '../../runtime/storage/cacher/cacher.js';
import type { Store } from '../../runtime/storage/kvstore/store.js';
import type { BackendUnderTest } from '../../runtime/storage/testing/harness.js';
import type { Pod } from '../../runtime/storage/testing/utils.js';

/** Reasons the cacher variant skips a test; kube's cacher_test skips the same ones. */
const cacherNotApplicable: Record<string, string> = {
  RunTestListResourceVersionMatch: 'its transformer writes an object on every read, and the cache reads every write through its upstream watch: an endless loop (kube skips it for the cacher)',
  RunTestListInconsistentContinuation: 'it pages with limit at RV=0, which the watch cache ignores (kube #108003; kube skips it for the cacher)',
  RunTestTransformationFailure: 'an unreadable object breaks the shared upstream watch and the cache relists; kube skips it for the cacher (TODO #109831)',
  RunTestWatchError: 'a failing transformer breaks the shared upstream watch, not one client watch; kube skips it for the cacher (TODO #109831)',
  RunTestWatchWithUnsafeDelete: 'a corrupt object breaks the shared upstream watch, not one client watch; kube runs it only against the etcd3 store',
  RunWatchErrorIsBlockingFurtherEvents: 'a corrupt object breaks the shared upstream watch (the cache relists) rather than one client watch; kube runs it only against the etcd3 store',
  RunTestGetListWithErrorAggregation: 'lists are served from objects the cache decoded before the transformer broke; kube runs it only against the etcd3 store',
  RunTestGetListWithoutErrorAggregation: 'lists are served from objects the cache decoded before the transformer broke; kube runs it only against the etcd3 store',
};

/** The backend behind a Cacher (watch cache), as kube's cacher_test runs the suite. */
export function cachedBackend(inner: BackendUnderTest): BackendUnderTest {
  return {
    name: `cacher(${inner.name})`,
    cached: true,
    notApplicable: { ...inner.notApplicable, ...cacherNotApplicable },
    async newStore(opts = {}) {
      const s = await inner.newStore(opts);
      const backend = s.store as Store<Pod>;
      const consistentReadsFromCache = await backend.supportsRequestWatchProgress();
      const cacher = new Cacher<Pod>({ storage: backend, resourcePrefix: '/pods/', keyOf: (o) => backend.restKeyOf(o), consistentReadsFromCache });
      await cacher.waitReady();
      return {
        ...s,
        consistentReadsFromCache,
        store: cacher,
        async compact(rv) {
          // As kube's compactWatch: let the cache catch up to rv before compacting the backend.
          await cacher.getList('/pods/', { recursive: true, resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' });
          await s.compact(rv);
        },
        async close() {
          cacher.stop();
          await s.close();
        },
      };
    },
  };
}
