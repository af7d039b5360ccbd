import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import { decodeContinue } from '../continue.js';
import { ExpiredError, InternalError } from '../errors.js';
import type { ListResult } from '../interfaces.js';
import type { SelectionPredicate } from '../selectionPredicate.js';
import type { StoreUnderTest } from './harness.js';
import {
  baseNamespacedPod,
  baseNamespacedPodAssigned,
  baseNamespacedPodUpdated,
  clone,
  computePodKey,
  corruptErr,
  createPodPredicate,
  encodeContinueOrDie,
  errInjectingTransformer,
  expectContains,
  expectNoDiff,
  labelAttrs,
  mustAtoi,
  nameAttrs,
  pod,
  resourceVersionNotOlderThan,
  rvOf,
  withRV,
  type Pod,
} from './utils.js';

// Port of the list tests of store_tests.go other than RunTestList.

/** CallsValidation: checks backend reads and transformer reads of the last list (no-op for caches). */
export type CallsValidation = (pageSize: number, estimatedProcessedObjects: number) => void;

const everythingPred = (): SelectionPredicate<Pod> => ({ label: labels.everything(), field: fields.everything() });

export async function RunTestConsistentList(t: TestContext, s: StoreUnderTest, opts: { cacheEnabled: boolean; consistentReadsSupported: boolean }): Promise<void> {
  const outPod = await s.store.create(computePodKey(pod('foo', 'default')), pod('foo', 'default'));
  const lastResourceWriteRV = mustAtoi(rvOf(outPod));
  await s.increaseRV();
  let consistentRV = lastResourceWriteRV + 1;
  let cacheSyncRV = 0;
  const cases: Array<{ name: string; requestRV?: string; continueToken?: string; validate: (rv: number) => void }> = [
    {
      name: 'Non-consistent list before consistent read',
      requestRV: '0',
      validate: (rv) => {
        if (opts.cacheEnabled) assert.ok(rv <= consistentRV, `cache may lag: ${rv}`);
        else assert.equal(rv, consistentRV);
      },
    },
    {
      name: 'LIST without RV returns consistent RV',
      requestRV: '',
      validate: (rv) => {
        assert.equal(rv, consistentRV);
        cacheSyncRV = rv;
      },
    },
    { name: 'List with negative continue RV returns consistent RV', continueToken: encodeContinueOrDie('/pods/a', -1), validate: (rv) => assert.equal(rv, consistentRV) },
    {
      name: 'Non-consistent request after consistent read',
      requestRV: '0',
      validate: (rv) => {
        if (opts.cacheEnabled && opts.consistentReadsSupported) assert.ok(rv >= cacheSyncRV, `a consistent read synced the cache to ${cacheSyncRV}, got ${rv}`);
        else if (opts.cacheEnabled) assert.ok(rv <= consistentRV);
        else assert.equal(rv, consistentRV);
      },
    },
  ];
  for (const tc of cases) {
    await t.test(tc.name, async () => {
      const pred: SelectionPredicate<Pod> = everythingPred();
      if (tc.continueToken) pred.continue = tc.continueToken;
      const out = await s.store.getList('/pods/empty', { recursive: true, resourceVersion: tc.requestRV ?? '', predicate: pred as SelectionPredicate });
      tc.validate(mustAtoi(out.resourceVersion));
    });
    await s.increaseRV();
    consistentRV++;
  }
}

export async function RunTestGetListNonRecursive(t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: prevStoredObj } = await (async () => {
    const p = pod('foo', 'test-ns');
    return { key: computePodKey(p), stored: await s.store.create(computePodKey(p), p) };
  })();
  const prevRV = rvOf(prevStoredObj);
  const storedObj = await s.store.guaranteedUpdate(key, {
    tryUpdate: () => {
      const n = clone(prevStoredObj);
      n.metadata.annotations = { version: 'second' };
      return { object: n };
    },
  });
  const objRV = rvOf(storedObj);
  await s.increaseRV();
  const notName: SelectionPredicate<Pod> = { label: labels.everything(), field: fields.parseSelectorOrDie(`metadata.name!=${storedObj.metadata.name}`), getAttrs: nameAttrs };
  const cases: Array<{ name: string; key: string; pred: SelectionPredicate<Pod>; expectedOut?: Pod[]; expectedAlternatives?: Pod[][]; rv?: string; rvMatch?: string; expectRVTooLarge?: boolean }> = [
    { name: 'existing key', key, pred: everythingPred(), expectedOut: [storedObj] },
    { name: 'existing key, resourceVersion=0', key, pred: everythingPred(), expectedAlternatives: [[], [prevStoredObj], [storedObj]], rv: '0' },
    {
      name: 'existing key, resourceVersion=0, resourceVersionMatch=notOlderThan',
      key,
      pred: everythingPred(),
      expectedAlternatives: [[], [prevStoredObj], [storedObj]],
      rv: '0',
      rvMatch: 'NotOlderThan',
    },
    { name: 'existing key, resourceVersion=current', key, pred: everythingPred(), expectedOut: [storedObj], rv: objRV },
    { name: 'existing key, resourceVersion=current, resourceVersionMatch=notOlderThan', key, pred: everythingPred(), expectedOut: [storedObj], rv: objRV, rvMatch: 'NotOlderThan' },
    {
      name: 'existing key, resourceVersion=previous, resourceVersionMatch=notOlderThan',
      key,
      pred: everythingPred(),
      expectedAlternatives: [[prevStoredObj], [storedObj]],
      rv: prevRV,
      rvMatch: 'NotOlderThan',
    },
    { name: 'existing key, resourceVersion=current, resourceVersionMatch=exact', key, pred: everythingPred(), expectedOut: [storedObj], rv: objRV, rvMatch: 'Exact' },
    { name: 'existing key, resourceVersion=previous, resourceVersionMatch=exact', key, pred: everythingPred(), expectedOut: [prevStoredObj], rv: prevRV, rvMatch: 'Exact' },
    { name: 'existing key, resourceVersion=too high', key, pred: everythingPred(), rv: '9223372036854775807', expectRVTooLarge: true },
    { name: 'non-existing key', key: '/pods/non-existing', pred: everythingPred(), expectedOut: [] },
    { name: 'with matching pod name', key: '/pods/non-existing', pred: notName, expectedOut: [] },
    { name: 'existing key, resourceVersion=current, with not matching pod name', key, pred: notName, expectedOut: [], rv: objRV },
  ];
  await Promise.all(
    cases.map((tt) =>
      t.test(tt.name, async () => {
        const p = s.store.getList(tt.key, { resourceVersion: tt.rv ?? '', resourceVersionMatch: tt.rvMatch ?? '', predicate: tt.pred as SelectionPredicate, recursive: false });
        if (tt.expectRVTooLarge) return void (await assert.rejects(p, (e) => (e as { code?: string }).code === 'TooLargeResourceVersion'));
        const out = await p;
        assert.notEqual(out.resourceVersion, '', 'unset resourceVersion');
        if (tt.expectedAlternatives) expectContains('incorrect list pods', tt.expectedAlternatives, out.items);
        else expectNoDiff('incorrect list pods', tt.expectedOut, out.items);
      }),
    ),
  );
}

export async function RunTestGetListRecursivePrefix(t: TestContext, s: StoreUnderTest): Promise<void> {
  const mk = async (p: Pod): Promise<{ key: string; obj: Pod }> => ({ key: computePodKey(p), obj: await s.store.create(computePodKey(p), p) });
  const foo = await mk(pod('foo', 'test-ns'));
  const fooBar = await mk(pod('foobar', 'test-ns'));
  const other = await mk(pod('baz', 'test-ns2'));
  const lastRev = rvOf(other.obj);
  const cases = [
    { name: "NonRecursive on resource prefix doesn't return any objects", key: '/pods/', recursive: false, expectedOut: [] as Pod[] },
    { name: 'Recursive on resource prefix returns all objects', key: '/pods/', recursive: true, expectedOut: [foo.obj, fooBar.obj, other.obj] },
    { name: "NonRecursive on namespace prefix doesn't return any objects", key: '/pods/test-ns/', recursive: false, expectedOut: [] },
    { name: 'Recursive on resource prefix returns objects in the namespace', key: '/pods/test-ns/', recursive: true, expectedOut: [foo.obj, fooBar.obj] },
    { name: 'NonRecursive on object key (prefix) returns object and no other objects with the same prefix', key: foo.key, recursive: false, expectedOut: [foo.obj] },
    { name: "Recursive on object key (prefix) doesn't return anything", key: foo.key, recursive: true, expectedOut: [] },
    { name: 'NonRecursive on object key (no-prefix) return object', key: fooBar.key, recursive: false, expectedOut: [fooBar.obj] },
    { name: "Recursive on object key (no-prefix) doesn't return anything", key: fooBar.key, recursive: true, expectedOut: [] },
  ];
  for (const lt of [
    { name: 'Exact', rv: lastRev, match: 'Exact' },
    { name: 'Consistent', rv: '', match: '' },
    { name: 'NotOlderThan', rv: '0', match: 'NotOlderThan' },
  ]) {
    await t.test(lt.name, async (t) => {
      // In Go the preceding consistent reads have synced a watch cache by now; a cache that
      // sends consistent reads to its backend (etcd < 3.4.31) is synced explicitly instead.
      if (lt.rv === '0' && s.consistentReadsFromCache === false) {
        await s.store.getList('/pods/', { recursive: true, resourceVersion: lastRev, resourceVersionMatch: 'NotOlderThan' });
      }
      for (const tt of cases) {
        await t.test(tt.name, async () => {
          const out = await s.store.getList(tt.key, { resourceVersion: lt.rv, resourceVersionMatch: lt.match, recursive: tt.recursive });
          expectNoDiff('incorrect list pods', tt.expectedOut, out.items);
        });
      }
    });
  }
}

const objName = (id: number): string => `foo-${String(id).padStart(6, '0')}`;
const idOf = (key: string): number => Number(key.slice(key.lastIndexOf('/') + 1).replace(/^foo-/, ''));

export async function RunTestGetListWithErrorAggregation(t: TestContext, s: StoreUnderTest): Promise<void> {
  const errUnexpected = new Error('bits flipped');
  const physical = (prefix: string, id: number): string => `${s.pathPrefix}${prefix.slice(1)}${objName(id)}`;
  const cases: Array<{ name: string; n: number; inject: (key: string) => Error | undefined; verify: (prefix: string, err: unknown) => void; items?: (prefix: string) => void }> = [
    {
      name: 'first error is an unexpected error, no aggregation expected',
      n: 7,
      inject: (key) => (idOf(key) === 2 ? errUnexpected : idOf(key) % 2 === 0 ? corruptErr() : undefined),
      verify: (_prefix, err) => {
        assert.ok(err instanceof InternalError && err.causes.length === 0, `expected a bare InternalError, got ${String(err)}`);
      },
    },
    {
      name: 'feature enabled, should aggregate corrupt object errors',
      n: 7,
      inject: (key) => (idOf(key) % 2 === 0 ? corruptErr() : undefined),
      verify: (prefix, err) => {
        assert.ok(err instanceof InternalError);
        assert.deepEqual(
          err.causes.map((c) => c.field),
          [2, 4, 6].map((i) => physical(prefix, i)),
        );
      },
    },
    {
      name: 'feature enabled, aggregation should abort as soon as it encounters an unexpected error',
      n: 7,
      inject: (key) => (idOf(key) === 4 ? errUnexpected : idOf(key) % 2 === 0 ? corruptErr() : undefined),
      verify: (prefix, err) => {
        assert.ok(err instanceof InternalError);
        assert.equal(err.causes.length, 2);
        assert.equal(err.causes[0]?.field, physical(prefix, 2));
        assert.equal(err.causes[1]?.reason, 'UnexpectedServerResponse');
      },
    },
    {
      name: 'feature enabled, error aggregation should not exceed the maximum limit',
      n: 210,
      inject: (key) => (idOf(key) % 2 === 0 ? corruptErr() : undefined),
      verify: (_prefix, err) => {
        assert.ok(err instanceof InternalError);
        assert.equal(err.causes.length, 101);
        assert.deepEqual(err.causes[100], { reason: 'TooMany', message: 'too many errors, the list is truncated' });
      },
    },
    {
      name: 'feature enabled, there are exactly 100 (error aggregation limit) corrupt errors',
      n: 100,
      inject: () => corruptErr(),
      verify: (_prefix, err) => {
        assert.ok(err instanceof InternalError);
        assert.equal(err.causes.length, 101);
        assert.deepEqual(err.causes[100], { reason: 'TooMany', message: 'too many errors, the list is truncated' });
      },
    },
  ];
  for (const [i, tt] of cases.entries()) {
    await t.test(tt.name, async () => {
      const ns = `ns-${i}`;
      const prefix = `/pods/${ns}/`;
      for (let j = 1; j <= tt.n; j++) await s.store.create(computePodKey(pod(objName(j), ns)), pod(objName(j), ns));
      const out = await s.store.getList(prefix, { recursive: true });
      assert.equal(out.items.length, tt.n);
      const revert = s.updateTransformer((orig) => errInjectingTransformer(orig, tt.inject));
      try {
        const err = await s.store.getList(prefix, { recursive: true }).then(
          () => assert.fail('expected GetList to return an error'),
          (e: unknown) => e,
        );
        tt.verify(prefix, err);
      } finally {
        revert();
      }
    });
  }
}

export async function RunTestGetListWithoutErrorAggregation(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const prefix = '/pods/ns/';
  for (let i = 1; i <= 7; i++) await s.store.create(computePodKey(pod(objName(i), 'ns')), pod(objName(i), 'ns'));
  assert.equal((await s.store.getList(prefix, { recursive: true })).items.length, 7);
  const revert = s.updateTransformer((orig) => errInjectingTransformer(orig, (key) => (idOf(key) % 2 === 0 ? corruptErr() : undefined)));
  try {
    const err = await s.store.getList(prefix, { recursive: true }).then(
      () => assert.fail('expected GetList to return an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof InternalError && err.causes.length === 0, `expected a bare InternalError, got ${String(err)}`);
    assert.ok(err.message.startsWith(`unable to transform key "${s.pathPrefix}pods/ns/${objName(2)}"`), err.message);
  } finally {
    revert();
  }
}

function namePred(limit: number, cont: string, field = fields.everything()): SelectionPredicate {
  const p: SelectionPredicate<Pod> = { label: labels.everything(), field, getAttrs: nameAttrs };
  if (limit) p.limit = limit;
  if (cont) p.continue = cont;
  return p as SelectionPredicate;
}

async function createAll(s: StoreUnderTest, pods: Pod[]): Promise<{ stored: Pod[]; currentRV: string }> {
  const stored: Pod[] = [];
  for (const p of pods) stored.push(await s.store.create(computePodKey(p), clone(p)));
  return { stored, currentRV: rvOf(stored[stored.length - 1]) };
}

export async function RunTestListContinuation(_t: TestContext, s: StoreUnderTest, validation?: CallsValidation): Promise<void> {
  const { stored, currentRV } = await createAll(s, [pod('bar', 'first'), pod('bar', 'second'), pod('foo', 'second')]);
  let out = await s.store.getList('/pods/', { resourceVersion: '', predicate: namePred(1, ''), recursive: true });
  assert.ok(out.continue, 'no continuation token set');
  expectNoDiff('incorrect first page', [stored[0]], out.items);
  assert.equal(out.resourceVersion, currentRV);
  validation?.(1, 1);
  const continueFromSecondItem = out.continue;
  out = await s.store.getList('/pods/', { predicate: namePred(0, continueFromSecondItem), recursive: true });
  assert.equal(out.continue, undefined, 'unexpected continuation token');
  decodeContinue(continueFromSecondItem, '/pods/');
  expectNoDiff('incorrect second page', [stored[1], stored[2]], out.items);
  assert.equal(out.resourceVersion, currentRV);
  validation?.(0, 2);
  out = await s.store.getList('/pods/', { predicate: namePred(1, continueFromSecondItem), recursive: true });
  assert.ok(out.continue, 'no continuation token set');
  expectNoDiff('incorrect second page', [stored[1]], out.items);
  assert.equal(out.resourceVersion, currentRV);
  validation?.(1, 1);
  out = await s.store.getList('/pods/', { predicate: namePred(1, out.continue), recursive: true });
  assert.equal(out.continue, undefined);
  expectNoDiff('incorrect third page', [stored[2]], out.items);
  assert.equal(out.resourceVersion, currentRV);
  validation?.(1, 1);
}

export async function RunTestListPaginationRareObject(_t: TestContext, s: StoreUnderTest, validation?: CallsValidation): Promise<void> {
  const podCount = 1000;
  const pods: Pod[] = [];
  for (let i = 0; i < podCount; i++) pods.push(await s.store.create(computePodKey(pod(`pod-${i}`)), pod(`pod-${i}`)));
  const out = await s.store.getList('/pods/', { predicate: namePred(1, '', fields.oneTermEqualSelector('metadata.name', 'pod-999')), recursive: true });
  assert.equal(out.continue, undefined, 'unexpected continuation token');
  expectNoDiff('unexpected first page', [pods[999]], out.items);
  validation?.(1, podCount);
}

export async function RunTestListContinuationWithFilter(_t: TestContext, s: StoreUnderTest, validation?: CallsValidation): Promise<void> {
  const { stored, currentRV } = await createAll(s, [pod('foo', '1'), pod('bar', '2'), pod('foo', '3'), pod('foo', '4')]);
  const notBar = fields.oneTermNotEqualSelector('metadata.name', 'bar');
  let out = await s.store.getList('/pods/', { predicate: namePred(2, '', notBar), recursive: true });
  assert.ok(out.continue, 'no continuation token set');
  expectNoDiff('incorrect first page', [stored[0], stored[2]], out.items);
  assert.equal(out.resourceVersion, currentRV);
  validation?.(2, 3);
  out = await s.store.getList('/pods/', { predicate: namePred(2, out.continue, notBar), recursive: true });
  assert.equal(out.continue, undefined);
  expectNoDiff('incorrect second page', [stored[3]], out.items);
  assert.equal(out.resourceVersion, currentRV);
  validation?.(2, 1);
}

export async function RunTestListInconsistentContinuation(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const preset = [pod('bar', 'first'), pod('bar', 'second'), pod('foo', 'second')];
  const { stored } = await createAll(s, preset);
  let out = await s.store.getList('/pods/', { resourceVersion: '0', predicate: namePred(1, ''), recursive: true });
  assert.ok(out.continue, 'no continuation token set');
  expectNoDiff('incorrect first page', [stored[0]], out.items);
  const continueFromSecondItem = out.continue;
  const newPod: Pod = { metadata: { name: 'foo', labels: { state: 'new' } } };
  const updated = await s.store.guaranteedUpdate(computePodKey(preset[2] as Pod), { tryUpdate: () => ({ object: clone(newPod) }), cachedExistingObject: newPod });
  const lastRVString = rvOf(updated);
  await s.compact(lastRVString);
  const err = await s.store.getList('/pods/', { resourceVersion: '0', predicate: namePred(0, continueFromSecondItem), recursive: true }).then(
    () => assert.fail('unexpected no error'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ExpiredError, `expected ExpiredError, got ${String(err)}`);
  assert.match(err.message, /The provided continue parameter is too old /);
  const inconsistent = err.toStatus().metadata.continue ?? '';
  assert.ok(inconsistent, 'expect non-empty continue token');
  out = await s.store.getList('/pods/', { resourceVersion: '0', predicate: namePred(1, inconsistent), recursive: true });
  assert.ok(out.continue, 'no continuation token set');
  expectNoDiff('incorrect second page', [stored[1]], out.items);
  resourceVersionNotOlderThan(lastRVString)(out.resourceVersion);
  const resolved = out.resourceVersion;
  out = await s.store.getList('/pods/', { resourceVersion: '0', predicate: namePred(1, out.continue), recursive: true });
  assert.equal(out.continue, undefined);
  expectNoDiff('incorrect third page', [updated], out.items);
  assert.equal(out.resourceVersion, resolved);
}

export async function RunTestListResourceVersionMatch(_t: TestContext, s: StoreUnderTest): Promise<void> {
  // Creates objects from inside reads (a "reproducing" transformer): lists must still be snapshots.
  let index = 0;
  const creates: Array<Promise<unknown>> = [];
  const createObject = (): Promise<unknown> => {
    index++;
    const p: Pod = { metadata: { name: `pod-${index}`, labels: { even: String(index % 2 === 0) } } };
    const c = s.store.create(computePodKey(p), p);
    creates.push(c);
    return c;
  };
  const revert = s.updatePrefixTransformer((prev) => ({
    transformFromStorage(data, ctx) {
      void createObject();
      return prev.transformFromStorage(data, ctx);
    },
    transformToStorage: (data, ctx) => prev.transformToStorage(data, ctx),
  }));
  try {
    for (let i = 0; i < 5; i++) await createObject();
    const predicate: SelectionPredicate<Pod> = { label: labels.selectorFromSet({ even: 'true' }), field: fields.everything(), getAttrs: labelAttrs, limit: 4 };
    const pred = predicate as SelectionPredicate;
    const result1 = await s.store.getList('/pods/', { predicate: pred, recursive: true });
    const result2 = await s.store.getList('/pods/', { predicate: pred, resourceVersion: result1.resourceVersion, resourceVersionMatch: 'Exact', recursive: true });
    expectNoDiff('incorrect lists', result1, result2);
    const result3: ListResult<Pod> = await s.store.getList('/pods/', { predicate: pred, resourceVersion: result1.resourceVersion, resourceVersionMatch: 'NotOlderThan', recursive: true });
    const result4 = await s.store.getList('/pods/', { predicate: pred, resourceVersion: result3.resourceVersion, resourceVersionMatch: 'Exact', recursive: true });
    expectNoDiff('incorrect lists', result3, result4);
  } finally {
    revert();
    await Promise.allSettled(creates);
  }
}

export async function RunTestListPaging(_t: TestContext, s: StoreUnderTest): Promise<void> {
  for (let i = 0; i < 4; i++) await s.store.create(computePodKey(pod(`test-${i}`, 'paging')), pod(`test-${i}`, 'paging'));
  const names: string[] = [];
  let cont = '';
  let calls = 0;
  for (;;) {
    calls++;
    const pred: SelectionPredicate = { label: labels.everything(), field: fields.everything(), limit: 1 };
    if (cont) pred.continue = cont;
    const out = await s.store.getList('/pods/', { recursive: true, predicate: pred });
    for (const item of out.items) names.push(item.metadata.name ?? '');
    if (!out.continue) break;
    if (calls === 2) await s.store.create(computePodKey(pod('test-5', 'paging')), pod('test-5', 'paging'));
    cont = out.continue;
  }
  assert.equal(calls, 4, 'unexpected list invocations');
  assert.deepEqual(names, ['test-0', 'test-1', 'test-2', 'test-3']);
}

export async function RunTestNamespaceScopedList(t: TestContext, s: StoreUnderTest): Promise<void> {
  const sel = (x: string): fields.Selector => fields.parseSelectorOrDie(x);
  const cases: Array<{
    name: string;
    requestedNamespace?: string;
    indexFields?: string[];
    fieldSelector: (ns: string) => fields.Selector;
    inputPods: (ns: string) => Pod[];
    expectPods: (ns: string) => Pod[];
  }> = [
    {
      name: 'request without namespace, without field selector',
      fieldSelector: () => fields.everything(),
      inputPods: () => [baseNamespacedPod('foo1', 'ns1'), baseNamespacedPod('foo2', 'ns2')],
      expectPods: () => [baseNamespacedPod('foo1', 'ns1'), baseNamespacedPod('foo2', 'ns2')],
    },
    {
      name: 'request without namespace, field selector with metadata.namespace',
      fieldSelector: (n) => fields.selectorFromSet({ 'metadata.namespace': `${n}ns1` }),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`)],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`)],
    },
    {
      name: 'request without namespace, field selector with spec.nodename',
      fieldSelector: () => sel('spec.nodeName=bar1'),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [baseNamespacedPodAssigned('foo1', `${n}ns1`, 'bar1'), baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar2')],
      expectPods: (n) => [baseNamespacedPodAssigned('foo1', `${n}ns1`, 'bar1')],
    },
    {
      name: 'request without namespace, field selector with spec.nodename to filter out',
      fieldSelector: () => sel('spec.nodeName!=bar1'),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [baseNamespacedPodAssigned('foo1', `${n}ns1`, 'bar1'), baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar2')],
      expectPods: (n) => [baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar2')],
    },
    {
      name: 'request with namespace, without field selector',
      requestedNamespace: 'ns1',
      fieldSelector: () => fields.everything(),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`), baseNamespacedPod('foo2', `${n}ns1`)],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo2', `${n}ns1`)],
    },
    {
      name: 'request with namespace, field selector with matched metadata.namespace',
      requestedNamespace: 'ns1',
      fieldSelector: (n) => fields.selectorFromSet({ 'metadata.namespace': `${n}ns1` }),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`)],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`)],
    },
    {
      name: 'request with namespace, field selector with non-matched metadata.namespace',
      requestedNamespace: 'ns1',
      fieldSelector: (n) => fields.selectorFromSet({ 'metadata.namespace': `${n}ns2` }),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`), baseNamespacedPodUpdated('foo2', `${n}ns1`), baseNamespacedPodUpdated('foo2', `${n}ns2`)],
      expectPods: () => [],
    },
    {
      name: 'request with namespace, field selector with spec.nodename',
      requestedNamespace: 'ns1',
      fieldSelector: () => sel('spec.nodeName=bar2'),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [baseNamespacedPodAssigned('foo1', `${n}ns1`, 'bar1'), baseNamespacedPodAssigned('foo1', `${n}ns2`, 'bar2'), baseNamespacedPodAssigned('foo2', `${n}ns1`, 'bar2')],
      expectPods: (n) => [baseNamespacedPodAssigned('foo2', `${n}ns1`, 'bar2')],
    },
    {
      name: 'request with namespace, field selector with spec.nodename to filter out',
      requestedNamespace: 'ns2',
      fieldSelector: () => sel('spec.nodeName!=bar1'),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [
        baseNamespacedPod('foo1', `${n}ns1`),
        baseNamespacedPod('foo1', `${n}ns2`),
        baseNamespacedPodAssigned('foo3', `${n}ns2`, 'bar1'),
        baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar2'),
      ],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns2`), baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar2')],
    },
    {
      name: 'request without namespace, field selector with metadata.name',
      fieldSelector: () => sel('metadata.name=foo1'),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`), baseNamespacedPod('foo2', `${n}ns1`)],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`)],
    },
    {
      name: 'request without namespace, field selector with metadata.name and metadata.namespace',
      fieldSelector: (n) => fields.selectorFromSet({ 'metadata.name': 'foo1', 'metadata.namespace': `${n}ns1` }),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo2', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`)],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`)],
    },
    {
      name: 'request without namespace, field selector with metadata.name and spec.nodeName',
      fieldSelector: () => fields.selectorFromSet({ 'metadata.name': 'foo1', 'spec.nodeName': 'bar1' }),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [baseNamespacedPodAssigned('foo1', `${n}ns1`, 'bar1')],
      expectPods: (n) => [baseNamespacedPodAssigned('foo1', `${n}ns1`, 'bar1')],
    },
    {
      name: 'request without namespace, field selector with metadata.name, and with spec.nodeName to filter out watch',
      fieldSelector: () => fields.andSelectors(sel('spec.nodeName!=bar1'), fields.selectorFromSet({ 'metadata.name': 'foo1' })),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [
        baseNamespacedPod('foo1', `${n}ns1`),
        baseNamespacedPod('foo2', `${n}ns1`),
        baseNamespacedPodAssigned('foo1', `${n}ns2`, 'bar1'),
        baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar1'),
        baseNamespacedPodAssigned('foo1', `${n}ns3`, 'bar2'),
        baseNamespacedPodAssigned('foo2', `${n}ns3`, 'bar2'),
      ],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPodAssigned('foo1', `${n}ns3`, 'bar2')],
    },
    {
      name: 'request with namespace, with field selector metadata.name',
      requestedNamespace: 'ns1',
      fieldSelector: () => sel('metadata.name=foo1'),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo2', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`), baseNamespacedPod('foo2', `${n}ns2`)],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`)],
    },
    {
      name: 'request with namespace, with field selector metadata.name and metadata.namespace',
      requestedNamespace: 'ns1',
      fieldSelector: (n) => fields.selectorFromSet({ 'metadata.name': 'foo1', 'metadata.namespace': `${n}ns1` }),
      inputPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`), baseNamespacedPod('foo2', `${n}ns1`), baseNamespacedPod('foo1', `${n}ns2`), baseNamespacedPod('foo2', `${n}ns2`)],
      expectPods: (n) => [baseNamespacedPod('foo1', `${n}ns1`)],
    },
    {
      name: 'request with namespace, with field selector metadata.name, metadata.namespace and spec.nodename',
      requestedNamespace: 'ns2',
      fieldSelector: (n) => fields.selectorFromSet({ 'metadata.name': 'foo2', 'metadata.namespace': `${n}ns2`, 'spec.nodeName': 'bar1' }),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [
        baseNamespacedPod('foo1', `${n}ns1`),
        baseNamespacedPod('foo2', `${n}ns1`),
        baseNamespacedPod('foo1', `${n}ns2`),
        baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar1'),
        baseNamespacedPodAssigned('foo1', `${n}ns3`, 'bar1'),
        baseNamespacedPodAssigned('foo2', `${n}ns3`, 'bar1'),
      ],
      expectPods: (n) => [baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar1')],
    },
    {
      name: 'request with namespace, with field selector metadata.name, metadata.namespace, and with spec.nodename to filter out',
      requestedNamespace: 'ns2',
      fieldSelector: (n) => fields.andSelectors(sel('spec.nodeName!=bar2'), fields.selectorFromSet({ 'metadata.name': 'foo1', 'metadata.namespace': `${n}ns2` })),
      indexFields: ['spec.nodeName'],
      inputPods: (n) => [
        baseNamespacedPod('foo1', `${n}ns1`),
        baseNamespacedPod('foo2', `${n}ns1`),
        baseNamespacedPodAssigned('foo1', `${n}ns2`, 'bar1'),
        baseNamespacedPodAssigned('foo2', `${n}ns2`, 'bar2'),
        baseNamespacedPodAssigned('foo1', `${n}ns3`, 'bar2'),
      ],
      expectPods: (n) => [baseNamespacedPodAssigned('foo1', `${n}ns2`, 'bar1')],
    },
  ];
  for (const [i, tt] of cases.entries()) {
    await t.test(tt.name, async () => {
      const ns = `t${i}-`;
      const keys = new Set<string>();
      for (const p of tt.inputPods(ns)) {
        keys.add(computePodKey(p));
        await s.store.create(computePodKey(p), clone(p));
      }
      const path = tt.requestedNamespace ? `/pods/${ns}${tt.requestedNamespace}` : '/pods/';
      const out = await s.store.getList(path, { resourceVersion: '', predicate: createPodPredicate(tt.fieldSelector(ns), true, tt.indexFields) as SelectionPredicate, recursive: true });
      const mine = out.items.filter((p) => keys.has(computePodKey(p))).map((p) => withRV(p, undefined));
      expectNoDiff('incorrect list pods', tt.expectPods(ns), mine);
    });
  }
}

export { mustAtoi };
