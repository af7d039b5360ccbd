import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { isInternalError, isInvalidObj, isNotFound, KeyNotFoundError } from '../errors.js';
import { simpleUpdate, type UpdateFunc } from '../interfaces.js';
import type { StoreUnderTest } from './harness.js';
import { clone, computePodKey, deepEqualSafePodSpec, pod, PrefixTransformer, rvOf, testCheckEventType, testPropagateStore, withRV, type Pod } from './utils.js';

// Port of the update, stats, compaction and key-schema tests of store_tests.go.

const validateAll = (): void => undefined;

const setLabels = (l: Record<string, string>): UpdateFunc<Pod> =>
  simpleUpdate((p: Pod) => {
    p.metadata.labels = l;
    return p;
  });

export async function RunTestGuaranteedUpdate(t: TestContext, s: StoreUnderTest): Promise<void> {
  const inputObj = pod('foo', 'test-ns', { metadata: { uid: 'A' } });
  const key = computePodKey(inputObj);
  const cases = [
    { name: 'non-existing key, ignoreNotFound=false', key: '/pods/non-existing', ignoreNotFound: false, expectNotFoundErr: true },
    { name: 'non-existing key, ignoreNotFound=true', key: '/pods/non-existing', ignoreNotFound: true },
    { name: 'existing key', key },
    { name: 'same data', key, expectNoUpdate: true },
    { name: 'same data, a selfLink', key, expectNoUpdate: true, hasSelfLink: true },
    { name: 'same data, stale', key, transformStale: true },
    { name: 'UID match', key, uid: 'A', expectNoUpdate: true },
    { name: 'UID mismatch', key, uid: 'B', expectInvalidObjErr: true, expectNoUpdate: true },
  ];
  for (const [i, tt] of cases.entries()) {
    await t.test(tt.name, async () => {
      const { key: k, stored: storeObj } = await testPropagateStore(s.store, inputObj);
      const annotations = tt.expectNoUpdate ? undefined : { version: String(i) };
      const revert = tt.transformStale
        ? s.updatePrefixTransformer((tr) => {
            tr.stale = true;
            return tr;
          })
        : undefined;
      try {
        const version = rvOf(storeObj);
        const p = s.store.guaranteedUpdate(tt.key, {
          ignoreNotFound: tt.ignoreNotFound ?? false,
          preconditions: tt.uid ? { uid: tt.uid } : undefined,
          tryUpdate: simpleUpdate((obj: Pod) => {
            if (tt.expectNotFoundErr && tt.ignoreNotFound) assert.equal(obj.metadata?.name, undefined, 'expecting zero value');
            const next = clone(storeObj);
            if (tt.hasSelfLink) next.metadata.selfLink = 'testlink';
            if (annotations) next.metadata.annotations = annotations;
            else delete next.metadata.annotations;
            return next;
          }),
        });
        if (tt.expectNotFoundErr) return void (await assert.rejects(p, (e) => isNotFound(e)));
        if (tt.expectInvalidObjErr) return void (await assert.rejects(p, (e) => isInvalidObj(e)));
        const out = await p;
        assert.deepEqual(out.metadata.annotations, annotations);
        assert.equal(out.metadata.selfLink, undefined, 'selfLink should not be set');
        await s.keyValidation(k);
        if (tt.expectNoUpdate) assert.equal(rvOf(out), version, 'expect no version change');
        else assert.notEqual(rvOf(out), version, 'expect version change');
      } finally {
        revert?.();
      }
    });
  }
}

export async function RunTestGuaranteedUpdateWithTTL(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const input = pod('foo', 'test-ns');
  const key = computePodKey(input);
  const out = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: () => ({ object: clone(input), ttlSeconds: 1 }) });
  const w = await s.store.watch(key, { resourceVersion: rvOf(out) });
  try {
    await testCheckEventType(w, 'DELETED');
  } finally {
    w.stop();
  }
}

export async function RunTestGuaranteedUpdateChecksStoredData(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const input = pod('foo', 'test-ns');
  const key = computePodKey(input);
  // Store data a write would normalize (an extra byte after the prefix).
  let revert = s.updatePrefixTransformer((tr) => {
    tr.prefix = Buffer.concat([tr.prefix, Buffer.from(' ')]);
    return tr;
  });
  const { stored: initial } = await testPropagateStore(s.store, input);
  revert();
  // The canonical encoding differs from what is stored: this "no-op" update must write.
  const in1 = withRV(input, rvOf(initial));
  let out = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: () => ({ object: clone(in1) }), cachedExistingObject: in1 });
  assert.notEqual(rvOf(out), rvOf(initial), 'guaranteed update should have updated the serialized data');
  const lastVersion = rvOf(out);
  // Now input matches stored data: no write.
  const in2 = out;
  out = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: () => ({ object: clone(in2) }), cachedExistingObject: in2 });
  assert.equal(rvOf(out), lastVersion, 'guaranteed update should have short-circuited write');
  revert = s.updatePrefixTransformer((tr) => {
    tr.stale = true;
    return tr;
  });
  try {
    out = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: () => ({ object: clone(in2) }), cachedExistingObject: in2 });
    assert.notEqual(rvOf(out), lastVersion, 'guaranteed update should have written when the transformer reported stale');
  } finally {
    revert();
  }
}

export async function RunTestGuaranteedUpdateWithConflict(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  let releaseFirst!: () => void;
  const secondEntered = new Promise<void>((r) => (releaseFirst = r));
  let firstDone!: () => void;
  const firstFinished = new Promise<void>((r) => (firstDone = r));
  const first = s.store
    .guaranteedUpdate(key, {
      tryUpdate: simpleUpdate(async (p: Pod) => {
        p.metadata.name = 'foo-1';
        await secondEntered;
        return p;
      }),
    })
    .finally(() => firstDone());
  let updateCount = 0;
  await s.store.guaranteedUpdate(key, {
    tryUpdate: simpleUpdate(async (p: Pod) => {
      if (updateCount === 0) {
        releaseFirst();
        await firstFinished;
      }
      updateCount++;
      p.metadata.name = 'foo-2';
      return p;
    }),
  });
  await first;
  assert.equal(updateCount, 2, 'should have conflicted and called the update func twice');
}

export async function RunTestGuaranteedUpdateWithSuggestionAndConflict(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  await s.store.guaranteedUpdate(key, {
    tryUpdate: simpleUpdate((p: Pod) => {
      p.metadata.generation = 2;
      return p;
    }),
  });
  let sawConflict = false;
  const updatedPod2 = await s.store.guaranteedUpdate(key, {
    cachedExistingObject: originalPod,
    tryUpdate: simpleUpdate((p: Pod) => {
      if (p.metadata.generation !== 2) {
        assert.ok(!sawConflict, 'unexpected second conflict');
        sawConflict = true;
        throw new Error('conflict on stale object');
      }
      p.metadata.generation = 3;
      return p;
    }),
  });
  assert.equal(updatedPod2.metadata.generation, 3);
  let attempts = 0;
  await assert.rejects(
    s.store.guaranteedUpdate(key, {
      cachedExistingObject: updatedPod2,
      tryUpdate: () => {
        attempts++;
        throw new Error('validation or admission error');
      },
    }),
  );
  assert.ok(attempts <= 2, `update function should have been called at most twice, called ${attempts}`);
}

export async function RunTestTransformationFailure(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const barFirst = pod('bar', 'first', { spec: deepEqualSafePodSpec() });
  const bazSecond = pod('baz', 'second', { spec: deepEqualSafePodSpec() });
  await s.store.create(computePodKey(barFirst), clone(barFirst));
  // The second object is written with a prefix the store will not accept.
  const revert = s.updatePrefixTransformer(() => new PrefixTransformer(Buffer.from('otherprefix!')));
  await s.store.create(computePodKey(bazSecond), clone(bazSecond));
  revert();
  const key = computePodKey(bazSecond);
  await assert.rejects(s.store.getList('/pods/', { recursive: true }), (e) => isInternalError(e));
  await assert.rejects(s.store.get(key), (e) => isInternalError(e));
  const identity = async (input: Pod | undefined) => ({ object: input as Pod });
  await assert.rejects(s.store.guaranteedUpdate(key, { tryUpdate: identity }), (e) => isInternalError(e));
  // With a suggestion, the unchanged object still needs a live read, which fails.
  await assert.rejects(s.store.guaranteedUpdate(key, { tryUpdate: identity, cachedExistingObject: clone(bazSecond) }));
  await assert.rejects(s.store.delete(key, { validateDeletion: validateAll }), (e) => isInternalError(e));
  await assert.rejects(s.store.get(key), (e) => isInternalError(e));
}

export async function RunTestStats(_t: TestContext, s: StoreUnderTest, sizeEnabled: boolean): Promise<void> {
  // Object sizes as stored: the JSON encoding (no resourceVersion) after the transformer.
  const objectSize = (p: Pod): number => s.prefixTransformer.prefix.length + Buffer.byteLength(JSON.stringify(withRV(p, undefined)));
  const assertStats = async (objectCount: number, avg: number): Promise<void> => {
    await s.store.getList('/pods/', { recursive: true });
    const stats = await s.store.stats();
    assert.deepEqual(stats, { objectCount, estimatedAverageObjectSizeBytes: sizeEnabled ? avg : 0 });
  };
  await assertStats(0, 0);
  const foo = pod('foo');
  const fooKey = computePodKey(foo);
  await s.store.create(fooKey, clone(foo));
  const fooSize = objectSize(foo);
  await assertStats(1, fooSize);
  const bar = pod('bar');
  const barKey = computePodKey(bar);
  await s.store.create(barKey, clone(bar));
  let barSize = objectSize(bar);
  await assertStats(2, Math.floor((fooSize + barSize) / 2));
  const updated = await s.store.guaranteedUpdate(barKey, { tryUpdate: setLabels({ foo: 'bar' }) });
  barSize = objectSize(updated);
  await assertStats(2, Math.floor((fooSize + barSize) / 2));
  await s.store.delete(fooKey, { validateDeletion: validateAll });
  await assertStats(1, barSize);
  await assert.rejects(s.store.delete(fooKey, { validateDeletion: validateAll }), KeyNotFoundError);
  await assertStats(1, barSize);
  await s.store.delete(barKey, { validateDeletion: validateAll });
  await assertStats(0, 0);
}

export async function RunTestCompactRevision(_t: TestContext, s: StoreUnderTest): Promise<void> {
  let listOut = await s.store.getList('/pods/', { recursive: true });
  const currentRV = s.store.versioner.parseResourceVersion(listOut.resourceVersion);
  assert.ok(s.store.compactRevision() < currentRV, 'expected current RV not to be compacted');
  listOut = await s.store.getList('/pods/', { recursive: true, resourceVersion: listOut.resourceVersion, resourceVersionMatch: 'Exact' });
  await s.increaseRV();
  const expectCompactedRV = currentRV + 1;
  await s.compact(String(expectCompactedRV));
  await assert.rejects(s.store.getList('/pods/', { recursive: true, resourceVersion: listOut.resourceVersion, resourceVersionMatch: 'Exact' }), /The resourceVersion for the provided list is too old/);
  assert.equal(s.store.compactRevision(), expectCompactedRV);
}

export async function RunTestKeySchema(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const st = s.store;
  const obj = (): Pod => ({ metadata: {} });
  const rejects = async (p: Promise<unknown>, msg: string): Promise<void> => {
    await assert.rejects(p, (e) => e instanceof Error && e.message.includes(msg), `expected error containing ${msg}`);
  };
  for (const [k, m] of [
    ['', 'empty key'],
    ['/', 'empty key'],
    ['.', 'invalid key'],
    ['..', 'invalid key'],
    ['pods', 'lacks resource prefix'],
    ['/pods', 'lacks resource prefix'],
    ['/pods.apps', 'lacks resource prefix'],
    ['/foo/', 'lacks resource prefix'],
  ] as const) {
    await rejects(st.create(k, obj()), m);
  }
  for (const k of ['/pods/', '/pods/name', '/pods/namespace', '/pods/namespace/name']) await st.create(k, obj());
  const rec = { recursive: true };
  const nonRec = { recursive: false };
  // getList and watch reject the same keys.
  const badCollectionKeys = [
    ['', rec, 'empty key'],
    ['/', rec, 'empty key'],
    ['.', rec, 'invalid key'],
    ['..', rec, 'invalid key'],
    ['pods', rec, 'lacks resource prefix'],
    ['/pods.apps', rec, 'lacks resource prefix'],
    ['/foo/', rec, 'lacks resource prefix'],
    ['/pods', nonRec, 'lacks resource prefix'],
  ] as const;
  for (const [k, o, m] of badCollectionKeys) {
    await rejects(st.getList(k, o), m);
  }
  for (const k of ['/pods', '/pods/', '/pods/namespace', '/pods/namespace/name']) await st.getList(k, rec);
  for (const [k, m] of [
    ['', 'empty key'],
    ['/', 'empty key'],
    ['.', 'invalid key'],
    ['..', 'invalid key'],
    ['pods', 'lacks resource prefix'],
    ['/pods', 'lacks resource prefix'],
    ['/pods.apps', 'lacks resource prefix'],
    ['/foo/', 'lacks resource prefix'],
  ] as const) {
    await rejects(st.get(k), m);
  }
  for (const k of ['/pods/', '/pods/namespace', '/pods/namespace/name']) await st.get(k);
  for (const [k, o, m] of badCollectionKeys) {
    await rejects(st.watch(k, o), m);
  }
  for (const k of ['/pods', '/pods/namespace', '/pods/namespace/name']) (await st.watch(k, rec)).stop();
  const tryUpdate = () => ({ object: obj() });
  for (const [k, m] of [
    ['', 'empty key'],
    ['/', 'empty key'],
    ['.', 'invalid key'],
    ['..', 'invalid key'],
    ['pods', 'lacks resource prefix'],
    ['/pods', 'lacks resource prefix'],
    ['/pods.apps', 'lacks resource prefix'],
    ['/foo/', 'lacks resource prefix'],
  ] as const) {
    await rejects(st.guaranteedUpdate(k, { tryUpdate }), m);
  }
  for (const k of ['/pods/', '/pods/namespace', '/pods/namespace/name']) await st.guaranteedUpdate(k, { tryUpdate });
  for (const [k, m] of [
    ['', 'empty key'],
    ['/', 'empty key'],
    ['.', 'invalid key'],
    ['..', 'invalid key'],
    ['pods', 'lacks resource prefix'],
    ['/pods', 'lacks resource prefix'],
    ['/pods.apps', 'lacks resource prefix'],
    ['/foo', 'lacks resource prefix'],
  ] as const) {
    await rejects(st.delete(k, { validateDeletion: validateAll }), m);
  }
  for (const k of ['/pods/', '/pods/namespace', '/pods/namespace/name']) await st.delete(k, { validateDeletion: validateAll });
}
