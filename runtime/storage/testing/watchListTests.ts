import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import { initialEventsAnnotationKey, type WatchEvent, type WatchOptions } from '../interfaces.js';
import type { SelectionPredicate } from '../selectionPredicate.js';
import type { StoreUnderTest } from './harness.js';
import {
  clone,
  computePodKey,
  expectNoDiff,
  makePod,
  mustAtoi,
  nameAttrs,
  pod,
  receiveWithin,
  rvOf,
  testCheckNoMoreResultsWithIgnoreFunc,
  testCheckResultFunc,
  testCheckResultsInStrictOrder,
  testCheckResultWithIgnoreFunc,
  testPropagateStore,
  withRV,
  type Pod,
} from './utils.js';

// Port of the bookmark and watch-list half of watcher_tests.go.

const bookmarkPred = (allow: boolean): SelectionPredicate => ({ label: labels.everything(), field: fields.everything(), allowWatchBookmarks: allow });

export async function RunTestWatchDispatchBookmarkEvents(t: TestContext, s: StoreUnderTest, expectedWatchBookmarks: boolean): Promise<void> {
  const { key, stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  const startRV = rvOf(stored);
  for (const [i, tt] of [
    { name: 'allowWatchBookmarks=false', timeoutMs: 3000, expected: false, allow: false },
    { name: 'allowWatchBookmarks=true', timeoutMs: 3000, expected: expectedWatchBookmarks, allow: true },
  ].entries()) {
    await t.test(tt.name, async () => {
      const watcher = await s.store.watch(key, { resourceVersion: startRV, predicate: bookmarkPred(tt.allow), timeoutMs: tt.timeoutMs });
      try {
        // Activity in another namespace advances the revision without matching the watch.
        const obj = pod('foo', `other-ns-${i}`);
        await s.store.create(computePodKey(obj), obj);
        const ev = await receiveWithin(watcher, 3000);
        if (tt.expected) {
          assert.ok(ev !== 'timeout' && ev !== undefined, 'expected a bookmark, got none');
          assert.equal(ev.type, 'BOOKMARK');
        } else {
          assert.ok(ev === 'timeout' || ev === undefined, `unexpected event ${JSON.stringify(ev)}`);
        }
      } finally {
        watcher.stop();
      }
    });
  }
}

export async function RunTestOptionalWatchBookmarksWithCorrectResourceVersion(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const startRV = (await s.store.getList('/pods/', { recursive: true })).resourceVersion;
  const watcher = await s.store.watch('/pods/test-ns', { resourceVersion: startRV, predicate: bookmarkPred(true), recursive: true, timeoutMs: 3000 });
  let done = false;
  const writer = (async () => {
    for (let i = 0; i < 100 && !done; i++) {
      const p = pod(`foo-${i}`, 'test-ns');
      await s.store.create(computePodKey(p), p);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  let bookmarkReceived = false;
  let last = 0;
  try {
    for (;;) {
      const ev = await watcher.receive();
      if (!ev) break;
      const rv = mustAtoi(rvOf(ev.object as Pod));
      if (ev.type === 'BOOKMARK') {
        bookmarkReceived = true;
        assert.ok(rv >= last, `bookmark resourceVersion ${rv} less than observed ${last}`);
      } else {
        assert.ok(rv > last, `event resourceVersion ${rv} not greater than ${last}`);
      }
      last = rv;
    }
    assert.ok(bookmarkReceived, 'did not receive a bookmark event');
  } finally {
    done = true;
    watcher.stop();
    await writer;
  }
}

export async function RunSendInitialEventsBackwardCompatibility(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const w = await s.store.watch('/pods/', { sendInitialEvents: true });
  w.stop();
}

const added = (pods: Pod[]): WatchEvent<Pod>[] => pods.map((p) => ({ type: 'ADDED', object: p }));
const initialEventsEnd = (rv: string): WatchEvent<Pod> => ({ type: 'BOOKMARK', object: { metadata: { resourceVersion: rv, annotations: { [initialEventsAnnotationKey]: 'true' } } } });
const isBookmark = (e: WatchEvent<Pod>): boolean => e.type === 'BOOKMARK';

export async function RunWatchSemantics(t: TestContext, s: StoreUnderTest): Promise<void> {
  const initial = (): Pod[] => [makePod('1'), makePod('2'), makePod('3')];
  const after = (): Pod[] => [makePod('4'), makePod('5')];
  interface Scenario {
    name: string;
    allowWatchBookmarks?: boolean;
    sendInitialEvents?: boolean;
    resourceVersion?: string;
    useCurrentRV?: boolean;
    expectInitial?: boolean;
    expectBookmark?: boolean;
  }
  const scenarios: Scenario[] = [];
  for (const rv of ['unset', '0', '1', 'useCurrentRV'] as const) {
    for (const [allow, send] of [
      [true, true],
      [true, false],
      [false, false],
      [false, true],
    ] as const) {
      const sc: Scenario = { name: `allowWatchBookmarks=${allow}, sendInitialEvents=${send}, RV=${rv}`, allowWatchBookmarks: allow, sendInitialEvents: send };
      if (rv === '0' || rv === '1') sc.resourceVersion = rv;
      if (rv === 'useCurrentRV') sc.useCurrentRV = true;
      // RV=1 replays history, so the initial pods arrive as events even without sendInitialEvents.
      sc.expectInitial = send || rv === '1';
      sc.expectBookmark = send && allow;
      scenarios.push(sc);
    }
  }
  scenarios.push({ name: 'legacy, RV=0', resourceVersion: '0', expectInitial: true }, { name: 'legacy, RV=unset', expectInitial: true });
  await Promise.all(
    scenarios.map((sc, idx) =>
      t.test(sc.name, async () => {
        const ns = `ns-${idx}`;
        const created: Pod[] = [];
        for (const p of initial()) {
          p.metadata.namespace = ns;
          created.push(await s.store.create(computePodKey(p), p));
        }
        // Make sure a cache has seen the pods, so the watch below is deterministic.
        const list = await s.store.getList(`/pods/${ns}`, { recursive: true, resourceVersion: rvOf(created[created.length - 1]), resourceVersionMatch: 'NotOlderThan' });
        assert.equal(list.items.length, created.length);
        const opts: WatchOptions = { recursive: true, predicate: bookmarkPred(sc.allowWatchBookmarks ?? false) };
        if (sc.sendInitialEvents !== undefined) opts.sendInitialEvents = sc.sendInitialEvents;
        if (sc.resourceVersion) opts.resourceVersion = sc.resourceVersion;
        if (sc.useCurrentRV) opts.resourceVersion = String(await s.store.getCurrentResourceVersion());
        const w = await s.store.watch(`/pods/${ns}`, opts);
        try {
          await testCheckResultsInStrictOrder(w, sc.expectInitial ? added(created) : []);
          if (sc.expectBookmark) {
            const minRV = mustAtoi(rvOf(created[created.length - 1]));
            await testCheckResultFunc(w, (ev) => {
              const actualRV = mustAtoi(rvOf(ev.object as Pod));
              assert.ok(actualRV >= minRV, `bookmark RV ${actualRV} < ${minRV}`);
              expectNoDiff('incorrect event', initialEventsEnd(String(actualRV)), ev);
            });
          }
          const later: Pod[] = [];
          for (const p of after()) {
            p.metadata.namespace = ns;
            later.push(await s.store.create(computePodKey(p), p));
          }
          await testCheckResultWithIgnoreFunc(w, added(later), isBookmark);
          await testCheckNoMoreResultsWithIgnoreFunc(w, isBookmark);
        } finally {
          w.stop();
        }
      }),
    ),
  );
}

export async function RunWatchSemanticInitialEventsExtended(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const ns = 'ns-foo';
  const initialPods: Pod[] = [];
  for (const p of ['1', '2', '3', '4', '5'].map(makePod)) {
    p.metadata.namespace = ns;
    initialPods.push(await s.store.create(computePodKey(p), p));
  }
  // A pod elsewhere advances the global revision: the bookmark must carry it.
  const other = makePod('1');
  other.metadata.namespace = 'other-ns-foo';
  const otherNsPod = await s.store.create(computePodKey(other), other);
  const w = await s.store.watch(`/pods/${ns}`, { recursive: true, sendInitialEvents: true, predicate: bookmarkPred(true) });
  try {
    await testCheckResultsInStrictOrder(w, [...added(initialPods), initialEventsEnd(rvOf(otherNsPod))]);
    await testCheckNoMoreResultsWithIgnoreFunc(w);
  } finally {
    w.stop();
  }
}

export async function RunWatchListMatchSingle(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const ns = 'ns-foo';
  const first = makePod('1');
  first.metadata.namespace = ns;
  const expectedPod = await s.store.create(computePodKey(first), clone(first));
  let lastAdded = expectedPod;
  for (const p of ['2', '3', '4', '5'].map(makePod)) {
    p.metadata.namespace = ns;
    lastAdded = await s.store.create(computePodKey(p), p);
  }
  const pred: SelectionPredicate<Pod> = { label: labels.everything(), field: fields.parseSelectorOrDie('metadata.name=pod-1'), getAttrs: nameAttrs, allowWatchBookmarks: true };
  const w = await s.store.watch('/pods/', { recursive: true, sendInitialEvents: true, predicate: pred as SelectionPredicate });
  try {
    await testCheckResultsInStrictOrder(w, [{ type: 'ADDED', object: expectedPod }, initialEventsEnd(rvOf(lastAdded))]);
    await testCheckNoMoreResultsWithIgnoreFunc(w);
  } finally {
    w.stop();
  }
}

export async function RunWatchErrorIsBlockingFurtherEvents(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const fooCreated = await s.store.create('/pods/test/foo', pod('foo', 'test'));
  await s.store.create('/pods/test/bar', pod('bar', 'test'));
  // From now on stored values get another prefix, so earlier objects become unreadable.
  const revert = s.updatePrefixTransformer((tr) => {
    tr.prefix = Buffer.from('other-prefix');
    return tr;
  });
  try {
    await s.store.create('/pods/test/baz', pod('baz', 'test'));
    const watches = Array.from({ length: 10 }, async () => {
      const w = await s.store.watch('/pods/', { resourceVersion: rvOf(fooCreated), recursive: true });
      // The watch starts at bar, which fails to decode: nothing but the ERROR may follow.
      for (;;) {
        const ev = await receiveWithin(w, 30_000);
        if (ev === 'timeout') assert.fail('watch neither ended nor failed');
        if (!ev) break;
        assert.equal(ev.type, 'ERROR', `unexpected event ${JSON.stringify(ev)}`);
      }
    });
    await Promise.all(watches);
  } finally {
    revert();
  }
}

export { withRV };
