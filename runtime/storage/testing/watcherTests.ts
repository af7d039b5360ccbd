import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import { simpleUpdate, type WatchEvent } from '../interfaces.js';
import type { SelectionPredicate } from '../selectionPredicate.js';
import { everything } from '../selectionPredicate.js';
import type { StoreUnderTest } from './harness.js';
import {
  basePod,
  basePodAssigned,
  basePodUpdated,
  baseNamespacedPod,
  baseNamespacedPodAssigned,
  baseNamespacedPodUpdated,
  clone,
  computePodKey,
  corruptErr,
  createPodPredicate,
  errInjectingTransformer,
  expectNoDiff,
  failingTransformer,
  foreverTestTimeout,
  labelAttrs,
  mustAtoi,
  nameAttrs,
  pod,
  receiveWithin,
  rvOf,
  testCheckEventType,
  testCheckResult,
  testCheckResultFunc,
  testCheckStop,
  testPropagateStore,
  withRV,
  type Pod,
} from './utils.js';

// Port of the first half of k8s.io/apiserver/pkg/storage/testing/watcher_tests.go.

interface WatchStep {
  obj: Pod | undefined;
  expectEvent: boolean;
  type?: WatchEvent['type'];
}
const step = (obj: Pod | undefined, expectEvent: boolean, type?: WatchEvent['type']): WatchStep => ({ obj, expectEvent, type });

export async function RunTestWatch(t: TestContext, s: StoreUnderTest): Promise<void> {
  await testWatch(t, s, false);
  await testWatch(t, s, true);
}

async function testWatch(t: TestContext, s: StoreUnderTest, recursive: boolean): Promise<void> {
  const basePodX = pod('foo');
  const basePodAssignedX = pod('foo', '', { spec: { nodeName: 'bar' } });
  const selected = (p: Pod): Pod => {
    const r = clone(p);
    r.metadata.labels = { select: 'true' };
    return r;
  };
  const nodeNameAttrs = (p: Pod) => ({ labels: {}, fields: { 'spec.nodeName': p.spec?.nodeName ?? '' } });
  const cases: Array<{ name: string; ns: string; pred: SelectionPredicate<Pod>; steps: WatchStep[] }> = [
    { name: 'create a key', ns: `test-ns-1-${recursive}`, steps: [step(basePodX, true, 'ADDED')], pred: everything as SelectionPredicate<Pod> },
    {
      name: 'key updated to match predicate',
      ns: `test-ns-2-${recursive}`,
      steps: [step(basePodX, false), step(basePodAssignedX, true, 'ADDED')],
      pred: { label: labels.everything(), field: fields.parseSelectorOrDie('spec.nodeName=bar'), getAttrs: nodeNameAttrs },
    },
    { name: 'update', ns: `test-ns-3-${recursive}`, steps: [step(basePodX, true, 'ADDED'), step(basePodAssignedX, true, 'MODIFIED')], pred: everything as SelectionPredicate<Pod> },
    {
      name: 'delete because of being filtered',
      ns: `test-ns-4-${recursive}`,
      steps: [step(basePodX, true, 'ADDED'), step(basePodAssignedX, true, 'DELETED')],
      pred: { label: labels.everything(), field: fields.parseSelectorOrDie('spec.nodeName!=bar'), getAttrs: nodeNameAttrs },
    },
    {
      name: 'filtering',
      ns: `test-ns-5-${recursive}`,
      steps: [
        step(selected(basePodX), true, 'ADDED'),
        step(basePodX, true, 'DELETED'),
        step(selected(basePodX), true, 'ADDED'),
        step(selected(basePodAssignedX), true, 'MODIFIED'),
        step(undefined, true, 'DELETED'),
      ],
      pred: { label: labels.selectorFromSet({ select: 'true' }), field: fields.everything(), getAttrs: labelAttrs },
    },
  ];
  for (const tt of cases) {
    await t.test(`${tt.name} (recursive=${recursive})`, async () => {
      let watchKey = `/pods/${tt.ns}`;
      const key = `${watchKey}/foo`;
      if (!recursive) watchKey = key;
      const pred = tt.pred as SelectionPredicate;
      const list = await s.store.getList(watchKey, { resourceVersion: '', predicate: pred, recursive });
      const w = await s.store.watch(watchKey, { resourceVersion: list.resourceVersion, predicate: pred, recursive });
      // A pod in another namespace first: its event must not show up.
      await s.store.guaranteedUpdate(`/pods/${tt.ns}-bad/foo`, {
        ignoreNotFound: true,
        tryUpdate: simpleUpdate(() => {
          const o = clone(basePodX);
          o.metadata.namespace = `${tt.ns}-bad`;
          return o;
        }),
      });
      let prev: Pod | undefined;
      for (const st of tt.steps) {
        let out: Pod;
        if (st.obj) {
          const o = clone(st.obj);
          o.metadata.namespace = tt.ns;
          out = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: simpleUpdate(() => clone(o)) });
        } else {
          out = (await s.store.delete(key)) as Pod;
        }
        if (st.expectEvent) {
          const expectObj = st.type === 'DELETED' ? withRV(prev as Pod, rvOf(out)) : out;
          await testCheckResult(w, { type: st.type as 'ADDED', object: expectObj });
        }
        prev = out;
      }
      w.stop();
      await testCheckStop(w);
    });
  }
}

export async function RunTestWatchFromZero(t: TestContext, s: StoreUnderTest, compaction = true): Promise<void> {
  const { key, stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  let w = await s.store.watch(key, { resourceVersion: '0' });
  await testCheckResult(w, { type: 'ADDED', object: stored });
  const out = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: simpleUpdate(() => pod('foo', 'test-ns', { metadata: { annotations: { a: '1' } } })) });
  // Seeing MODIFIED also shows a cache has caught up.
  await testCheckResult(w, { type: 'MODIFIED', object: out });
  w.stop();
  w = await s.store.watch(key, { resourceVersion: '0' });
  await testCheckResult(w, { type: 'ADDED', object: out });
  w.stop();
  if (!compaction) return void t.skip('compaction callback not provided');
  const newOut = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: simpleUpdate(() => pod('foo', 'test-ns')) });
  await s.compact(rvOf(newOut));
  w = await s.store.watch(key, { resourceVersion: '0' });
  try {
    await testCheckResult(w, { type: 'ADDED', object: newOut });
  } finally {
    w.stop();
  }
  const tooOld = await s.store.watch(key, { resourceVersion: rvOf(out) });
  try {
    await testCheckResultFunc(tooOld, (ev) => {
      assert.equal(ev.type, 'ERROR');
      const st = ev.object as { code?: number; reason?: string };
      assert.ok((st.code === 410 && st.reason === 'Expired') || (st.code === 500 && st.reason === 'InternalError'), `expected a 410 Expired, got ${JSON.stringify(st)}`);
    });
  } finally {
    tooOld.stop();
  }
}

export async function RunTestDeleteTriggerWatch(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  const w = await s.store.watch(key, { resourceVersion: rvOf(stored) });
  await s.store.delete(key);
  await testCheckEventType(w, 'DELETED');
  w.stop();
}

export async function RunTestWatchFromNonZero(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  const w = await s.store.watch(key, { resourceVersion: rvOf(stored) });
  const out = await s.store.guaranteedUpdate(key, {
    ignoreNotFound: true,
    tryUpdate: simpleUpdate(() => {
      const n = clone(stored);
      n.metadata.annotations = { version: '2' };
      return n;
    }),
  });
  await testCheckResult(w, { type: 'MODIFIED', object: out });
  w.stop();
}

export async function RunTestDelayedWatchDelivery(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  const watcher = await s.store.watch('/pods/test-ns', { resourceVersion: rvOf(stored), recursive: true });
  const totalPods = 21;
  for (let i = 0; i < totalPods; i++) {
    const p = pod(`foo-${i}`, 'test-ns');
    await s.store.guaranteedUpdate(computePodKey(p), { ignoreNotFound: true, tryUpdate: simpleUpdate(() => clone(p)) });
  }
  let watched = 0;
  for (;;) {
    const ev = await watcher.receive();
    if (!ev) break;
    assert.equal((ev.object as Pod).metadata.name, `foo-${watched}`, 'unexpected object watched');
    watched++;
    if (watched === 1) {
      // Let the queue fill, then stop: events already buffered must still be delivered.
      await new Promise((r) => setTimeout(r, 1000));
      watcher.stop();
    }
  }
  const outBufferSize = 10;
  assert.ok(watched >= outBufferSize + 1, `unexpected number of events: ${watched}, expected at least ${outBufferSize + 1}`);
}

export async function RunTestWatchError(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const obj = pod('foo', 'test-ns');
  const key = computePodKey(obj);
  const list = await s.store.getList('/pods/', { resourceVersion: '0', recursive: true });
  await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: simpleUpdate(() => clone(obj)) });
  const revert = s.updatePrefixTransformer(() => failingTransformer);
  try {
    const w = await s.store.watch(key, { resourceVersion: list.resourceVersion });
    await testCheckEventType(w, 'ERROR');
    w.stop();
  } finally {
    revert();
  }
}

export async function RunTestWatchWithUnsafeDelete(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const obj = pod('foo', 'test-ns');
  const key = computePodKey(obj);
  await s.store.create(key, clone(obj));
  const list = await s.store.getList('/pods/', { resourceVersion: '0', recursive: true });
  const revert = s.updateTransformer((orig) => errInjectingTransformer(orig, () => corruptErr()));
  try {
    const w = await s.store.watch(key, { resourceVersion: list.resourceVersion });
    await assert.rejects(s.store.delete(key), 'expected normal Delete to fail');
    await s.store.delete(key, { expectTransformOrDecodeError: true });
    await testCheckResultFunc(w, (ev) => {
      assert.equal(ev.type, 'ERROR');
      const st = ev.object as { reason?: string; message?: string };
      assert.equal(st.reason, 'StoreReadError');
      assert.match(st.message ?? '', /saw a DELETED event, but object data is corrupt/);
    });
    w.stop();
  } finally {
    revert();
  }
}

export async function RunTestWatchContextCancel(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const ac = new AbortController();
  ac.abort();
  // An already-cancelled watch is not an error: it is simply closed.
  const w = await s.store.watch('/pods/not-existing', { resourceVersion: '0', signal: ac.signal });
  const ev = await receiveWithin(w, foreverTestTimeout);
  assert.equal(ev, undefined, 'the watch should be closed');
}

export async function RunTestWatcherTimeout(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const initialRV = (await s.store.getList('/pods/', { recursive: true })).resourceVersion;
  const opts = { resourceVersion: initialRV, recursive: true };
  const nonReadingWatchers = 50;
  const idle = [];
  for (let i = 0; i < nonReadingWatchers; i++) idle.push(await s.store.watch('/pods/test-ns', opts));
  const readingWatcher = await s.store.watch('/pods/test-ns', opts);
  try {
    // Non-reading watchers must not hold back the reading one.
    for (let i = 0; i < 22; i++) {
      const p = pod(`foo-${i}`, 'test-ns');
      const out = await s.store.create(computePodKey(p), p);
      await testCheckResult(readingWatcher, { type: 'ADDED', object: out });
    }
  } finally {
    readingWatcher.stop();
    for (const w of idle) w.stop();
  }
}

export async function RunTestWatchDeleteEventObjectHaveLatestRV(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  const w = await s.store.watch(key, { resourceVersion: rvOf(stored), signal: AbortSignal.timeout(foreverTestTimeout) });
  const deleted = (await s.store.delete(key, { preconditions: {} })) as Pod;
  assert.notEqual(rvOf(deleted), rvOf(stored), "ResourceVersion didn't change on deletion");
  await testCheckResult(w, { type: 'DELETED', object: deleted });
  w.stop();
}

export async function RunTestWatchInitializationSignal(_t: TestContext, s: StoreUnderTest): Promise<void> {
  // There is no APF seat to free here: the signal is watch() resolving once the watch is set up.
  const { key, stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  const established = s.store.watch(key, { resourceVersion: rvOf(stored) });
  const w = await Promise.race([established, new Promise<never>((_, rej) => setTimeout(() => rej(new Error('watch not initialized within 5s')), 5000).unref())]);
  w.stop();
}

export async function RunOptionalTestProgressNotify(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const input = pod('name', 'test-ns');
  const key = computePodKey(input);
  const out = await s.store.create(key, input);
  // Advance past the object so the watch is not on a future revision.
  await s.increaseRV();
  const w = await s.store.watch(key, { resourceVersion: rvOf(out), progressNotify: true });
  try {
    await testCheckResultFunc(w, (ev) => {
      assert.equal(ev.type, 'BOOKMARK');
      assert.ok(mustAtoi(rvOf(ev.object as Pod)) >= mustAtoi(rvOf(out)));
      expectNoDiff('bookmark event should contain an object with no fields set other than resourceVersion', { metadata: {} }, withRV(ev.object as Pod, undefined));
    });
  } finally {
    w.stop();
  }
}

export async function RunTestClusterScopedWatch(t: TestContext, s: StoreUnderTest): Promise<void> {
  const cases: Array<{ name: string; requestedName?: string; recursive?: boolean; fieldSelector: fields.Selector; indexFields?: string[]; steps: WatchStep[] }> = [
    {
      name: 'cluster-wide watch, request without name, without field selector',
      recursive: true,
      fieldSelector: fields.everything(),
      steps: [step(basePod('t1-foo1'), true, 'ADDED'), step(basePodUpdated('t1-foo1'), true, 'MODIFIED'), step(basePodAssigned('t1-foo2', 't1-bar1'), true, 'ADDED')],
    },
    {
      name: 'cluster-wide watch, request without name, field selector with spec.nodeName',
      recursive: true,
      fieldSelector: fields.parseSelectorOrDie('spec.nodeName=t2-bar1'),
      indexFields: ['spec.nodeName'],
      steps: [step(basePod('t2-foo1'), false), step(basePodAssigned('t2-foo1', 't2-bar1'), true, 'ADDED')],
    },
    {
      name: 'cluster-wide watch, request without name, field selector with spec.nodeName to filter out watch',
      recursive: true,
      fieldSelector: fields.parseSelectorOrDie('spec.nodeName!=t3-bar1'),
      indexFields: ['spec.nodeName'],
      steps: [
        step(basePod('t3-foo1'), true, 'ADDED'),
        step(basePod('t3-foo2'), true, 'ADDED'),
        step(basePodUpdated('t3-foo1'), true, 'MODIFIED'),
        step(basePodAssigned('t3-foo1', 't3-bar1'), true, 'DELETED'),
      ],
    },
    {
      name: 'cluster-wide watch, request with name, field selector with metadata.name',
      requestedName: 't4-foo1',
      fieldSelector: fields.parseSelectorOrDie('metadata.name=t4-foo1'),
      steps: [step(basePod('t4-foo1'), true, 'ADDED'), step(basePod('t4-foo2'), false), step(basePodUpdated('t4-foo1'), true, 'MODIFIED'), step(basePodUpdated('t4-foo2'), false)],
    },
    {
      name: 'cluster-wide watch, request with name, field selector with metadata.name and spec.nodeName',
      requestedName: 't5-foo1',
      fieldSelector: fields.selectorFromSet({ 'metadata.name': 't5-foo1', 'spec.nodeName': 't5-bar1' }),
      indexFields: ['spec.nodeName'],
      steps: [
        step(basePod('t5-foo1'), false),
        step(basePod('t5-foo2'), false),
        step(basePodUpdated('t5-foo1'), false),
        step(basePodUpdated('t5-foo2'), false),
        step(basePodAssigned('t5-foo1', 't5-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'cluster-wide watch, request with name, field selector with metadata.name, and with spec.nodeName to filter out watch',
      requestedName: 't6-foo1',
      fieldSelector: fields.andSelectors(fields.parseSelectorOrDie('spec.nodeName!=t6-bar1'), fields.selectorFromSet({ 'metadata.name': 't6-foo1' })),
      indexFields: ['spec.nodeName'],
      steps: [
        step(basePod('t6-foo1'), true, 'ADDED'),
        step(basePod('t6-foo2'), false),
        step(basePodUpdated('t6-foo1'), true, 'MODIFIED'),
        step(basePodAssigned('t6-foo1', 't6-bar1'), true, 'DELETED'),
        step(basePodAssigned('t6-foo2', 't6-bar1'), false),
      ],
    },
  ];
  for (const tt of cases) {
    await t.test(tt.name, async () => {
      const watchKey = `/pods/${tt.requestedName ?? ''}`;
      const pred = createPodPredicate(tt.fieldSelector, false, tt.indexFields) as SelectionPredicate;
      const list = await s.store.getList('/pods/', { resourceVersion: '', predicate: pred, recursive: true });
      const w = await s.store.watch(watchKey, { resourceVersion: list.resourceVersion, predicate: pred, recursive: tt.recursive ?? false });
      await runWatchSteps(
        s,
        w,
        tt.steps,
        (p) => `/pods/${p.metadata.name}`,
        (p) => p.metadata.name ?? '',
      );
      w.stop();
      await testCheckStop(w);
    });
  }
}

/** Applies each step with GuaranteedUpdate and checks the expected event (DELETED carries the previous object at the new RV). */
async function runWatchSteps(s: StoreUnderTest, w: Awaited<ReturnType<StoreUnderTest['store']['watch']>>, steps: WatchStep[], keyOf: (p: Pod) => string, idOf: (p: Pod) => string): Promise<void> {
  const current = new Map<string, Pod>();
  for (const st of steps) {
    const obj = st.obj as Pod;
    const out = await s.store.guaranteedUpdate(keyOf(obj), { ignoreNotFound: true, tryUpdate: simpleUpdate(() => clone(obj)) });
    let expectObj = out;
    if (st.type === 'DELETED') {
      expectObj = withRV(current.get(idOf(obj)) as Pod, rvOf(out));
      current.delete(idOf(obj));
    } else {
      current.set(idOf(obj), out);
    }
    if (st.expectEvent) await testCheckResult(w, { type: st.type as 'ADDED', object: expectObj });
  }
}

export async function RunTestNamespaceScopedWatch(t: TestContext, s: StoreUnderTest): Promise<void> {
  const sel = fields.parseSelectorOrDie;
  const P = baseNamespacedPod;
  const U = baseNamespacedPodUpdated;
  const A = baseNamespacedPodAssigned;
  const cases: Array<{ name: string; requestedName?: string; requestedNamespace?: string; recursive?: boolean; fieldSelector: fields.Selector; indexFields?: string[]; steps: WatchStep[] }> = [
    {
      name: 'namespaced watch, request without name, request without namespace, without field selector',
      recursive: true,
      fieldSelector: fields.everything(),
      steps: [step(P('t1-foo1', 't1-ns1'), true, 'ADDED'), step(P('t1-foo2', 't1-ns2'), true, 'ADDED'), step(U('t1-foo1', 't1-ns1'), true, 'MODIFIED'), step(U('t1-foo2', 't1-ns2'), true, 'MODIFIED')],
    },
    {
      name: 'namespaced watch, request without name, request without namespace, field selector with metadata.namespace',
      recursive: true,
      fieldSelector: sel('metadata.namespace=t2-ns1'),
      steps: [step(P('t2-foo1', 't2-ns1'), true, 'ADDED'), step(P('t2-foo1', 't2-ns2'), false), step(U('t2-foo1', 't2-ns1'), true, 'MODIFIED'), step(U('t2-foo1', 't2-ns2'), false)],
    },
    {
      name: 'namespaced watch, request without name, request without namespace, field selector with spec.nodename',
      recursive: true,
      fieldSelector: sel('spec.nodeName=t3-bar1'),
      indexFields: ['spec.nodeName'],
      steps: [step(P('t3-foo1', 't3-ns1'), false), step(P('t3-foo2', 't3-ns2'), false), step(A('t3-foo1', 't3-ns1', 't3-bar1'), true, 'ADDED'), step(A('t3-foo2', 't3-ns2', 't3-bar1'), true, 'ADDED')],
    },
    {
      name: 'namespaced watch, request without name, request without namespace, field selector with spec.nodename to filter out watch',
      recursive: true,
      fieldSelector: sel('spec.nodeName!=t4-bar1'),
      indexFields: ['spec.nodeName'],
      steps: [
        step(P('t4-foo1', 't4-ns1'), true, 'ADDED'),
        step(P('t4-foo2', 't4-ns1'), true, 'ADDED'),
        step(U('t4-foo1', 't4-ns1'), true, 'MODIFIED'),
        step(A('t4-foo1', 't4-ns1', 't4-bar1'), true, 'DELETED'),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, without field selector',
      requestedNamespace: 't5-ns1',
      recursive: true,
      fieldSelector: fields.everything(),
      steps: [
        step(P('t5-foo1', 't5-ns1'), true, 'ADDED'),
        step(P('t5-foo1', 't5-ns2'), false),
        step(P('t5-foo2', 't5-ns1'), true, 'ADDED'),
        step(U('t5-foo1', 't5-ns1'), true, 'MODIFIED'),
        step(U('t5-foo1', 't5-ns2'), false),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with matched metadata.namespace',
      requestedNamespace: 't6-ns1',
      recursive: true,
      fieldSelector: sel('metadata.namespace=t6-ns1'),
      steps: [step(P('t6-foo1', 't6-ns1'), true, 'ADDED'), step(P('t6-foo1', 't6-ns2'), false), step(U('t6-foo1', 't6-ns1'), true, 'MODIFIED')],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with non-matched metadata.namespace',
      requestedNamespace: 't7-ns1',
      recursive: true,
      fieldSelector: sel('metadata.namespace=t7-ns2'),
      steps: [step(P('t7-foo1', 't7-ns1'), false), step(P('t7-foo1', 't7-ns2'), false), step(U('t7-foo1', 't7-ns1'), false), step(U('t7-foo1', 't7-ns2'), false)],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with spec.nodename',
      requestedNamespace: 't8-ns1',
      recursive: true,
      fieldSelector: sel('spec.nodeName=t8-bar2'),
      indexFields: ['spec.nodeName'],
      steps: [
        step(P('t8-foo1', 't8-ns1'), false),
        step(A('t8-foo1', 't8-ns1', 't8-bar1'), false),
        step(A('t8-foo1', 't8-ns2', 't8-bar2'), false),
        step(A('t8-foo1', 't8-ns1', 't8-bar2'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request without name, request with namespace, field selector with spec.nodename to filter out watch',
      requestedNamespace: 't9-ns2',
      recursive: true,
      fieldSelector: sel('spec.nodeName!=t9-bar1'),
      indexFields: ['spec.nodeName'],
      steps: [
        step(P('t9-foo1', 't9-ns1'), false),
        step(P('t9-foo1', 't9-ns2'), true, 'ADDED'),
        step(A('t9-foo1', 't9-ns2', 't9-bar1'), true, 'DELETED'),
        step(A('t9-foo1', 't9-ns2', 't9-bar2'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name',
      requestedName: 't10-foo1',
      recursive: true,
      fieldSelector: sel('metadata.name=t10-foo1'),
      steps: [
        step(P('t10-foo1', 't10-ns1'), true, 'ADDED'),
        step(P('t10-foo1', 't10-ns2'), true, 'ADDED'),
        step(P('t10-foo2', 't10-ns1'), false),
        step(U('t10-foo1', 't10-ns1'), true, 'MODIFIED'),
        step(A('t10-foo1', 't10-ns1', 't10-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name and metadata.namespace',
      requestedName: 't11-foo1',
      recursive: true,
      fieldSelector: fields.selectorFromSet({ 'metadata.name': 't11-foo1', 'metadata.namespace': 't11-ns1' }),
      steps: [
        step(P('t11-foo1', 't11-ns1'), true, 'ADDED'),
        step(P('t11-foo2', 't11-ns1'), false),
        step(P('t11-foo1', 't11-ns2'), false),
        step(U('t11-foo1', 't11-ns1'), true, 'MODIFIED'),
        step(A('t11-foo1', 't11-ns1', 't11-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name and spec.nodeName',
      requestedName: 't12-foo1',
      recursive: true,
      fieldSelector: fields.selectorFromSet({ 'metadata.name': 't12-foo1', 'spec.nodeName': 't12-bar1' }),
      indexFields: ['spec.nodeName'],
      steps: [step(P('t12-foo1', 't12-ns1'), false), step(U('t12-foo1', 't12-ns1'), false), step(A('t12-foo1', 't12-ns1', 't12-bar1'), true, 'ADDED')],
    },
    {
      name: 'namespaced watch, request with name, request without namespace, field selector with metadata.name, and with spec.nodeName to filter out watch',
      requestedName: 't15-foo1',
      recursive: true,
      fieldSelector: fields.andSelectors(sel('spec.nodeName!=t15-bar1'), fields.selectorFromSet({ 'metadata.name': 't15-foo1' })),
      indexFields: ['spec.nodeName'],
      steps: [
        step(P('t15-foo1', 't15-ns1'), true, 'ADDED'),
        step(P('t15-foo2', 't15-ns1'), false),
        step(U('t15-foo1', 't15-ns1'), true, 'MODIFIED'),
        step(A('t15-foo1', 't15-ns1', 't15-bar1'), true, 'DELETED'),
        step(A('t15-foo1', 't15-ns1', 't15-bar2'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name',
      requestedName: 't16-foo1',
      requestedNamespace: 't16-ns1',
      fieldSelector: sel('metadata.name=t16-foo1'),
      steps: [
        step(P('t16-foo1', 't16-ns1'), true, 'ADDED'),
        step(P('t16-foo2', 't16-ns1'), false),
        step(U('t16-foo1', 't16-ns1'), true, 'MODIFIED'),
        step(A('t16-foo1', 't16-ns1', 't16-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name and metadata.namespace',
      requestedName: 't17-foo2',
      requestedNamespace: 't17-ns1',
      fieldSelector: fields.selectorFromSet({ 'metadata.name': 't17-foo2', 'metadata.namespace': 't17-ns1' }),
      steps: [
        step(P('t17-foo1', 't17-ns1'), false),
        step(P('t17-foo2', 't17-ns1'), true, 'ADDED'),
        step(U('t17-foo1', 't17-ns1'), false),
        step(A('t17-foo2', 't17-ns1', 't17-bar1'), true, 'MODIFIED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name, metadata.namespace and spec.nodename',
      requestedName: 't18-foo1',
      requestedNamespace: 't18-ns1',
      fieldSelector: fields.selectorFromSet({ 'metadata.name': 't18-foo1', 'metadata.namespace': 't18-ns1', 'spec.nodeName': 't18-bar1' }),
      indexFields: ['spec.nodeName'],
      steps: [
        step(P('t18-foo1', 't18-ns1'), false),
        step(P('t18-foo2', 't18-ns1'), false),
        step(P('t18-foo1', 't18-ns2'), false),
        step(U('t18-foo1', 't18-ns1'), false),
        step(A('t18-foo1', 't18-ns1', 't18-bar1'), true, 'ADDED'),
      ],
    },
    {
      name: 'namespaced watch, request with name, request with namespace, with field selector metadata.name, metadata.namespace, and with spec.nodename to filter out watch',
      requestedName: 't19-foo2',
      requestedNamespace: 't19-ns1',
      fieldSelector: fields.andSelectors(sel('spec.nodeName!=t19-bar1'), fields.selectorFromSet({ 'metadata.name': 't19-foo2', 'metadata.namespace': 't19-ns1' })),
      indexFields: ['spec.nodeName'],
      steps: [
        step(P('t19-foo1', 't19-ns1'), false),
        step(P('t19-foo2', 't19-ns2'), false),
        step(P('t19-foo2', 't19-ns1'), true, 'ADDED'),
        step(U('t19-foo2', 't19-ns1'), true, 'MODIFIED'),
        step(A('t19-foo2', 't19-ns1', 't19-bar1'), true, 'DELETED'),
      ],
    },
  ];
  for (const tt of cases) {
    await t.test(tt.name, async () => {
      let watchKey = '/pods/';
      if (tt.requestedNamespace) {
        watchKey += `${tt.requestedNamespace}/`;
        if (tt.requestedName) watchKey += tt.requestedName;
      }
      const pred = createPodPredicate(tt.fieldSelector, true, tt.indexFields) as SelectionPredicate;
      const list = await s.store.getList('/pods/', { resourceVersion: '', predicate: pred, recursive: true });
      const w = await s.store.watch(watchKey, { resourceVersion: list.resourceVersion, predicate: pred, recursive: tt.recursive ?? false });
      await runWatchSteps(s, w, tt.steps, computePodKey, (p) => `${p.metadata.namespace}/${p.metadata.name}`);
      w.stop();
      await testCheckStop(w);
    });
  }
}

export { nameAttrs };
