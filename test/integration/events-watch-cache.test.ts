// Events are served without a watch cache, as kube-apiserver serves them (pkg/kubeapiserver's
// DefaultWatchCacheSizes: events#0 and events.events.k8s.io#0), unless --watch-cache-sizes gives
// them a size (k8s.io/apiserver's ParseWatchCacheSizes; kube decides per REST resource, so each of
// the two cohabitating Events resources is cached or not on its own). On SQLite and etcd, through
// the API and the real kubectl.
//
// What tells a storage read from a cached one through the API: a watch from a resourceVersion
// older than the cache's start. A watch cache starts at the server's start and answers it with
// kube's 410 `too old resource version` (cacher's getAllEventsSinceLocked); storage replays its
// history from there (the etcd3 watcher, SQLite's change feed).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok } from './assertions.js';
import { backends, ControlPlane, etcdUnavailable, type Backend } from './harness.js';
import { HttpsClient, type WatchEvent } from './https.js';
import { Kubectl, kubectlUnavailable } from './kubectl.js';

const NS = 'default';
const CORE = `/api/v1/namespaces/${NS}/events`;
const EVENTS = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;

/** An old client's core/v1 Event about a ConfigMap. */
function coreEvent(name: string): Record<string, unknown> {
  const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-a', namespace: NS, uid: 'uid-cm-a' },
    reason: 'Tested',
    message: `core ${name}`,
    type: 'Normal',
    source: { component: 'tester' },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  };
}

/** An events.k8s.io/v1 Event. */
function eventsEvent(name: string): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: new Date().toISOString(),
    reportingController: 'k8s.io/tester',
    reportingInstance: 'tester-1',
    action: 'Testing',
    reason: 'Tested',
    regarding: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm-a', namespace: NS, uid: 'uid-cm-a' },
    note: `events ${name}`,
    type: 'Normal',
  };
}

const rvOf = (o: Record<string, unknown>): string => (o['metadata'] as { resourceVersion: string }).resourceVersion;
const nameOf = (o: Record<string, unknown>): string => (o['metadata'] as { name: string }).name;
const itemNames = (body: Record<string, unknown>): string[] => ((body['items'] ?? []) as Array<Record<string, unknown>>).map(nameOf).sort();
const addedNames = (events: readonly WatchEvent[]): string[] => events.filter((e) => e.type === 'ADDED').map((e) => nameOf(e.object));

/**
 * A server whose Events storage has history from before its start: an Event (`before`, at the
 * returned resourceVersion) and a later write, then a restart, so any watch cache of the new
 * process starts after that resourceVersion.
 */
async function serverWithHistory(backend: Backend, extraArgs: readonly string[]): Promise<{ cp: ControlPlane; c: HttpsClient; rv: string }> {
  const first = await ControlPlane.start({ backend, extraArgs });
  const c1 = new HttpsClient(first.credentials);
  let created;
  try {
    created = await c1.json('POST', CORE, coreEvent('before'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const later = await c1.json('POST', `/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later' } });
    assert.equal(later.status, 201, JSON.stringify(later.body));
  } finally {
    c1.close();
  }
  const cp = await first.restart();
  return { cp, c: new HttpsClient(cp.credentials), rv: rvOf(created.body) };
}

/** Watches `path` from `rv`, writes an Event through events.k8s.io, and returns what the watch saw first. */
async function watchFromHistory(c: HttpsClient, path: string, rv: string, write: string): Promise<WatchEvent[]> {
  const w = await c.watch(`${path}?watch=true&resourceVersion=${rv}`);
  try {
    assert.equal(w.status, 200);
    // Either the 410 comes at once, or storage serves the watch and then delivers the write.
    const written = await c.json('POST', EVENTS, eventsEvent(write));
    assert.equal(written.status, 201, JSON.stringify(written.body));
    return await w.until((evs) => evs.some((e) => e.type === 'ERROR') || addedNames(evs).includes(write), 30_000);
  } finally {
    w.close();
  }
}

const expired = (events: readonly WatchEvent[], rv: string): void => {
  const error = events.find((e) => e.type === 'ERROR');
  assert.ok(error, `expected a 410 from the watch cache: ${JSON.stringify(events)}`);
  assert.equal(error.object['code'], 410);
  assert.equal(error.object['reason'], 'Expired');
  assert.match(String(error.object['message']), new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`));
};

/** Storage replays every Event written after the resourceVersion, in order: `written` (those of the earlier cases, then this one's). */
const fromStorage = (events: readonly WatchEvent[], written: readonly string[]): void => {
  assert.deepEqual(
    events.map((e) => e.type),
    written.map(() => 'ADDED'),
    `storage replays what came after the resourceVersion: ${JSON.stringify(events)}`,
  );
  assert.deepEqual(addedNames(events), written);
};

for (const backend of backends) {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;

  describe(`Events are served without a watch cache by default on ${backend}`, { skip: skip ?? false }, () => {
    let cp: ControlPlane;
    let c: HttpsClient;
    let rv: string;
    before(async () => {
      ({ cp, c, rv } = await serverWithHistory(backend, []));
    });
    after(async () => {
      c?.close();
      await cp?.stop();
    });

    it('a core/v1 watch from before the start is served from storage (no 410), and sees an events.k8s.io write', async () => {
      fromStorage(await watchFromHistory(c, CORE, rv, 'after-core'), ['after-core']);
    });

    it('an events.k8s.io/v1 watch from before the start is served from storage too, each watch converting what its storage watch delivers', async () => {
      const events = await watchFromHistory(c, EVENTS, rv, 'after-events');
      fromStorage(events, ['after-core', 'after-events']);
      assert.deepEqual(
        events.map((e) => [e.object['apiVersion'], e.object['note']]),
        [
          ['events.k8s.io/v1', 'events after-core'],
          ['events.k8s.io/v1', 'events after-events'],
        ],
      );
    });

    it('LIST with resourceVersion=0, resourceVersionMatch=NotOlderThan and Exact read storage', async () => {
      const any = await c.json('GET', `${CORE}?resourceVersion=0`);
      assert.equal(any.status, 200);
      assert.ok(itemNames(any.body).includes('before'));
      const notOlder = await c.json('GET', `${EVENTS}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
      assert.equal(notOlder.status, 200);
      assert.ok(Number(rvOf(notOlder.body)) >= Number(rv));
      assert.ok(itemNames(notOlder.body).includes('before'));
      // Exact: the list as it was at that revision, the history storage keeps.
      const exact = await c.json('GET', `${CORE}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
      assert.equal(exact.status, 200, JSON.stringify(exact.body));
      assert.equal(rvOf(exact.body), rv);
      assert.deepEqual(itemNames(exact.body), ['before']);
      // GET with resourceVersion=0 reads storage as well.
      const one = await c.json('GET', `${EVENTS}/before?resourceVersion=0`);
      assert.equal(one.status, 200);
      assert.equal(one.body['note'], 'core before');
    });

    it('a watch without resourceVersion starts with the stored Events; a watch-list ends its initial events with the bookmark', async () => {
      const plain = await c.watch(`${CORE}?watch=true&fieldSelector=metadata.name%3Dbefore`);
      try {
        assert.deepEqual(addedNames(await plain.until((evs) => evs.length >= 1)), ['before']);
      } finally {
        plain.close();
      }
      const list = await c.watch(`${EVENTS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
      try {
        const evs = await list.until((e) => e.some((x) => x.type === 'BOOKMARK'));
        assert.ok(addedNames(evs).includes('before'));
        const bookmark = evs.find((e) => e.type === 'BOOKMARK')!;
        assert.equal((bookmark.object['metadata'] as { annotations?: Record<string, string> }).annotations?.['k8s.io/initial-events-end'], 'true');
      } finally {
        list.close();
      }
    });

    describe('through kubectl', { skip: kubectlUnavailable() ?? false }, () => {
      let kc: Kubectl;
      before(() => {
        kc = new Kubectl(() => cp);
      });
      after(() => kc.dispose());

      it('`kubectl get events -w` lists and then streams a new Event; `kubectl events` lists them', async () => {
        const w = kc.start(['-n', NS, 'get', 'events', '-w']);
        try {
          await w.waitForLine(/Tested .*core before/);
          const created = await c.json('POST', CORE, coreEvent('while-watching'));
          assert.equal(created.status, 201);
          await w.waitForLine(/Tested .*core while-watching/);
        } finally {
          await w.stop();
        }
        const listed = ok(await kc.run(['-n', NS, 'events', '--for', 'ConfigMap/cm-a']), cp);
        assert.match(listed, /core before/);
        assert.match(listed, /events after-events/);
      });
    });
  });

  describe(`--watch-cache-sizes=events#100 on ${backend}: core Events cached, events.k8s.io still not`, { skip: skip ?? false }, () => {
    let cp: ControlPlane;
    let c: HttpsClient;
    let rv: string;
    before(async () => {
      ({ cp, c, rv } = await serverWithHistory(backend, ['--watch-cache-sizes=events#100']));
    });
    after(async () => {
      c?.close();
      await cp?.stop();
    });

    it("core/v1: the watch cache answers a watch from before its start with kube's 410", async () => {
      expired(await watchFromHistory(c, CORE, rv, 'after-core'), rv);
    });

    it('events.k8s.io/v1: storage serves the same watch', async () => {
      // The 410 case before wrote after-core through events.k8s.io: storage replays it.
      fromStorage(await watchFromHistory(c, EVENTS, rv, 'after-events'), ['after-core', 'after-events']);
    });
  });
}
