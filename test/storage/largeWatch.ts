// Issue 12: a watch over a large collection delivers every initial event (no RV, RV=0,
// sendInitialEvents with the initial-events-end bookmark after exactly all of them), and a
// consumer too slow for live events never sees a gap: the backend store pauses its stream
// (memory bounded, nothing lost), the watch cache ends the watch cleanly. Run per backend, with
// and without the cache, by the *.largewatch.test.ts files.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as fields from '../../runtime/apimachinery/fields/index.js';
import * as labels from '../../runtime/apimachinery/labels/index.js';
import { initialEventsAnnotationKey, type WatchEvent, type WatchOptions, type Watcher } from '../../runtime/storage/interfaces.js';
import type { SelectionPredicate } from '../../runtime/storage/selectionPredicate.js';
import type { BackendUnderTest, StoreUnderTest } from '../../runtime/storage/testing/harness.js';
import { computePodKey, pod, type Pod } from '../../runtime/storage/testing/utils.js';
import { WatchQueue } from '../../runtime/storage/watchQueue.js';
import { until } from '../integration/assertions.js';

const objects = 10_000;
/** Live events written while a watcher does not read: well above any per-watcher buffer (1,000). */
const liveBurst = 2_500;

/** Creates pods concurrently (a bounded number in flight); returns their names in revision order. */
async function createPods(s: StoreUnderTest, names: readonly string[]): Promise<string[]> {
  let next = 0;
  const created: Array<{ name: string; rv: number }> = [];
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      const name = names[next++] as string;
      const p = pod(name, 'ns');
      const stored = await s.store.create(computePodKey(p), p);
      created.push({ name, rv: Number(stored.metadata.resourceVersion) });
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  return created.sort((a, b) => a.rv - b.rv).map((c) => c.name);
}

const podName = (prefix: string, i: number): string => `${prefix}-${String(i).padStart(5, '0')}`;

async function next(w: Watcher<Pod>): Promise<WatchEvent<Pod>> {
  const ev = await w.receive();
  assert.ok(ev !== undefined, 'the watch ended');
  return ev;
}

/** Receives the initial ADDED events until `count` arrived, asserting each object appears once. */
async function receiveInitial(w: Watcher<Pod>, count: number, afterFirst: () => Promise<void>): Promise<Set<string>> {
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const ev = await next(w);
    assert.equal(ev.type, 'ADDED', `initial event ${i}: ${JSON.stringify(ev).slice(0, 300)}`);
    const name = (ev.object as Pod).metadata.name ?? '';
    assert.ok(!names.has(name), `${name} sent twice`);
    names.add(name);
    if (i === 0) await afterFirst();
  }
  return names;
}

export function describeLargeWatch(backend: BackendUnderTest): void {
  describe(`watch over ${objects} objects: ${backend.name}`, () => {
    let s: StoreUnderTest;
    const initial = Array.from({ length: objects }, (_, i) => podName('obj', i));
    /** Every object in the store: the initial ones and those later tests wrote. */
    const present = [...initial];
    let live = 0;
    before(async () => {
      s = await backend.newStore();
      await createPods(s, initial);
    });
    after(async () => {
      await s?.close();
    });

    const everything = (bookmarks: boolean): SelectionPredicate<Pod> => ({ label: labels.everything(), field: fields.everything(), allowWatchBookmarks: bookmarks });

    /** Every initial event, then the bookmark when asked for, then a live event written after the first. */
    const initialThenLive = async (opts: WatchOptions, bookmark: boolean): Promise<void> => {
      const w = await s.store.watch('/pods/', { recursive: true, ...opts });
      try {
        const liveName = podName('live', live++);
        const expected = [...present];
        const got = await receiveInitial(w, expected.length, async () => {
          const p = pod(liveName, 'ns');
          await s.store.create(computePodKey(p), p);
          present.push(liveName);
        });
        for (const n of expected) assert.ok(got.has(n), `${n} missing from the initial events`);
        let ev = await next(w);
        if (bookmark) {
          assert.equal(ev.type, 'BOOKMARK', `after ${expected.length} ADDED: ${JSON.stringify(ev).slice(0, 300)}`);
          assert.equal(ev.object.metadata?.annotations?.[initialEventsAnnotationKey], 'true');
          ev = await next(w);
        }
        while (ev.type === 'BOOKMARK') ev = await next(w);
        assert.equal(ev.type, 'ADDED', JSON.stringify(ev).slice(0, 300));
        assert.equal((ev.object as Pod).metadata.name, liveName);
      } finally {
        w.stop();
      }
    };

    it('no resourceVersion: every object as ADDED, then live events', async () => {
      await initialThenLive({ resourceVersion: '', predicate: everything(false) as SelectionPredicate }, false);
    });

    it('resourceVersion=0: every object as ADDED, then live events', async () => {
      await initialThenLive({ resourceVersion: '0', predicate: everything(false) as SelectionPredicate }, false);
    });

    it('sendInitialEvents=true with bookmarks: the initial-events-end bookmark right after one ADDED per object', async () => {
      await initialThenLive({ resourceVersion: '', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true, predicate: everything(true) as SelectionPredicate }, true);
    });

    it('a consumer too slow for live events misses nothing it is sent', async () => {
      const from = await s.store.getCurrentResourceVersion();
      const w = await s.store.watch('/pods/', { recursive: true, resourceVersion: String(from), predicate: everything(false) as SelectionPredicate });
      try {
        const burst = await createPods(
          s,
          Array.from({ length: liveBurst }, (_, i) => podName(`burst${live}`, i)),
        );
        live++;
        if (backend.cached) {
          // kube's cacher: a watcher that cannot keep up is ended, cleanly (no ERROR), after the
          // first events in revision order, none skipped; the client resumes from the last one.
          await until('the unresponsive watcher to be ended', () => (w.stopped ? true : undefined));
          const got: string[] = [];
          for (let ev = await w.receive(); ev !== undefined; ev = await w.receive()) {
            assert.equal(ev.type, 'ADDED', JSON.stringify(ev).slice(0, 300));
            got.push((ev.object as Pod).metadata.name ?? '');
          }
          assert.ok(got.length < liveBurst, `${got.length} events buffered for a watcher that reads nothing`);
          assert.deepEqual(got, burst.slice(0, got.length));
          return;
        }
        // The backend store pauses its stream: the buffer stays bounded, and every event follows in revision order.
        assert.ok(w instanceof WatchQueue);
        await until('events to be buffered', () => (w.pending >= 1000 ? true : undefined));
        await new Promise((r) => setTimeout(r, 1000));
        assert.ok(w.pending <= 1000 + 500, `${w.pending} events buffered for a watcher that reads nothing`);
        for (const name of burst) {
          const ev = await next(w);
          assert.equal(ev.type, 'ADDED', JSON.stringify(ev).slice(0, 300));
          assert.equal((ev.object as Pod).metadata.name, name);
        }
        assert.equal(w.stopped, false);
      } finally {
        w.stop();
      }
    });

    it('a watch from a past resourceVersion replays every later event, in order', async () => {
      const from = await s.store.getCurrentResourceVersion();
      const burst = await createPods(
        s,
        Array.from({ length: liveBurst }, (_, i) => podName(`replay${live}`, i)),
      );
      live++;
      const w = await s.store.watch('/pods/', { recursive: true, resourceVersion: String(from), predicate: everything(false) as SelectionPredicate });
      try {
        for (const name of burst) {
          const ev = await next(w);
          assert.equal(ev.type, 'ADDED', JSON.stringify(ev).slice(0, 300));
          assert.equal((ev.object as Pod).metadata.name, name);
        }
      } finally {
        w.stop();
      }
    });
  });
}
