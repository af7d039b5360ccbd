import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { InternalError, isExist, isInternalError, isInvalidObj, isNotFound, isTooLargeResourceVersion, KeyNotFoundError, ResourceVersionSetOnCreateError } from '../errors.js';
import { simpleUpdate, type UpdateFunc } from '../interfaces.js';
import type { StoreUnderTest } from './harness.js';
import {
  clone,
  computePodKey,
  deepEqualSafePodSpec,
  expectContains,
  expectNoDiff,
  mustAtoi,
  pod,
  PrefixTransformer,
  rvOf,
  testCheckEventType,
  testPropagateStore,
  withRV,
  type Pod,
} from './utils.js';

// Port of the CRUD half of k8s.io/apiserver/pkg/storage/testing/store_tests.go. Test names match
// the Go functions; case names match the Go table entries.

const validateAll = (): void => undefined;

export async function RunTestCreate(t: TestContext, s: StoreUnderTest): Promise<void> {
  const cases: Array<{ name: string; input: Pod; expectedError?: new (...a: never[]) => Error }> = [
    { name: 'successful create', input: pod('foo', 'test-ns') },
    { name: 'create with ResourceVersion set', input: pod('bar', 'test-ns', { metadata: { resourceVersion: '1' } }), expectedError: ResourceVersionSetOnCreateError },
  ];
  for (const tt of cases) {
    await t.test(tt.name, async () => {
      const key = computePodKey(tt.input);
      await assert.rejects(s.store.get(key), (e) => isNotFound(e), `expecting empty result on key ${key}`);
      let out: Pod;
      try {
        out = await s.store.create(key, clone(tt.input));
      } catch (e) {
        assert.ok(tt.expectedError && e instanceof tt.expectedError, `unexpected error ${String(e)}`);
        return;
      }
      assert.equal(tt.expectedError, undefined, 'expected an error');
      assert.equal(out.metadata.name, tt.input.metadata.name);
      assert.notEqual(rvOf(out), '', 'output should have non-empty resource version');
      await s.keyValidation(key);
    });
  }
}

export async function RunTestCreateWithTTL(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const input = pod('foo', 'test-ns');
  const key = computePodKey(input);
  const out = await s.store.create(key, input, { ttlSeconds: 1 });
  const w = await s.store.watch(key, { resourceVersion: rvOf(out) });
  try {
    await testCheckEventType(w, 'DELETED');
  } finally {
    w.stop();
  }
}

export async function RunTestCreateWithKeyExist(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const obj = pod('foo', 'test-ns');
  const { key } = await testPropagateStore(s.store, obj);
  await assert.rejects(s.store.create(key, clone(obj)), (e) => isExist(e));
}

export async function RunTestGet(t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: createdObj } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  const updateObj = clone(createdObj);
  updateObj.metadata.annotations = { 'test-annotation': '1' };
  const storedObj = await s.store.guaranteedUpdate(key, { ignoreNotFound: true, tryUpdate: () => ({ object: clone(updateObj), ttlSeconds: 1 }) });
  const secondObj = pod('bar', 'test-ns');
  const lastUpdatedObj = await s.store.create(computePodKey(secondObj), secondObj);
  const currentRV = mustAtoi(rvOf(storedObj));
  const lastUpdatedCurrentRV = mustAtoi(rvOf(lastUpdatedObj));
  const cases: Array<{
    name: string;
    key: string;
    ignoreNotFound?: boolean;
    expectNotFoundErr?: boolean;
    expectRVTooLarge?: boolean;
    expectedOut?: Pod | undefined;
    expectedAlternatives?: Array<Pod | undefined>;
    rv?: string;
  }> = [
    { name: 'get existing', key, expectedOut: storedObj },
    // RV=0 allows any version, even from before the object existed.
    { name: 'resource version 0', key, ignoreNotFound: true, expectedAlternatives: [undefined, createdObj, storedObj], rv: '0' },
    { name: 'object created resource version', key, expectedAlternatives: [createdObj, storedObj], rv: rvOf(createdObj) },
    { name: 'current object resource version, match=NotOlderThan', key, expectedOut: storedObj, rv: String(currentRV) },
    { name: 'latest resource version', key, expectedOut: storedObj, rv: String(lastUpdatedCurrentRV) },
    { name: 'too high resource version', key, expectRVTooLarge: true, rv: '9223372036854775807' },
    { name: 'get non-existing', key: '/pods/non-existing', expectNotFoundErr: true },
    { name: 'get non-existing, ignore not found', key: '/pods/non-existing', ignoreNotFound: true, expectedOut: undefined },
  ];
  // The Go cases run in parallel so their order cannot hide cache effects; so do these.
  await Promise.all(
    cases.map((tt) =>
      t.test(tt.name, async () => {
        const p = s.store.get(tt.key, { ignoreNotFound: tt.ignoreNotFound ?? false, resourceVersion: tt.rv ?? '' });
        if (tt.expectNotFoundErr) return void (await assert.rejects(p, (e) => isNotFound(e)));
        if (tt.expectRVTooLarge) return void (await assert.rejects(p, (e) => isTooLargeResourceVersion(e)));
        const out = await p;
        if (tt.expectedAlternatives) expectContains(`${tt.name}: incorrect pod`, tt.expectedAlternatives, out);
        else expectNoDiff(`${tt.name}: incorrect pod`, tt.expectedOut, out);
      }),
    ),
  );
}

export async function RunTestUnconditionalDelete(t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored } = await testPropagateStore(s.store, pod('foo', 'test-ns'));
  await t.test('existing key', async () => {
    const out = await s.store.delete(key, { validateDeletion: validateAll });
    assert.notEqual(rvOf(out), rvOf(stored), 'expecting resource version to be updated');
    expectNoDiff('incorrect pod:', stored, withRV(out as Pod, rvOf(stored)));
  });
  await t.test('non-existing key', async () => {
    await assert.rejects(s.store.delete('/pods/non-existing', { validateDeletion: validateAll }), (e) => isNotFound(e));
  });
}

export async function RunTestConditionalDelete(t: TestContext, s: StoreUnderTest): Promise<void> {
  const obj = pod('foo', 'test-ns', { metadata: { uid: 'A' } });
  let { key, stored } = await testPropagateStore(s.store, obj);
  for (const tt of [
    { name: 'UID match', uid: 'A', expectInvalidObjErr: false },
    { name: 'UID mismatch', uid: 'B', expectInvalidObjErr: true },
  ]) {
    await t.test(tt.name, async () => {
      const p = s.store.delete(key, { preconditions: { uid: tt.uid }, validateDeletion: validateAll });
      if (tt.expectInvalidObjErr) return void (await assert.rejects(p, (e) => isInvalidObj(e)));
      const out = (await p) as Pod;
      assert.notEqual(rvOf(out), rvOf(stored));
      expectNoDiff('incorrect pod:', stored, withRV(out, rvOf(stored)));
      ({ key, stored } = await testPropagateStore(s.store, obj));
    });
  }
}

const setLabels = (l: Record<string, string>): UpdateFunc<Pod> =>
  simpleUpdate((p: Pod) => {
    p.metadata.labels = l;
    return p;
  });

export async function RunTestDeleteWithSuggestion(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('name', 'test-ns'));
  await s.store.delete(key, { validateDeletion: validateAll, cachedExistingObject: originalPod });
  await assert.rejects(s.store.get(key), (e) => isNotFound(e));
}

export async function RunTestDeleteWithSuggestionAndConflict(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('name', 'test-ns'));
  const updatedPod = await s.store.guaranteedUpdate(key, { tryUpdate: setLabels({ foo: 'bar' }) });
  const out = await s.store.delete(key, { validateDeletion: validateAll, cachedExistingObject: originalPod });
  await assert.rejects(s.store.get(key), (e) => isNotFound(e));
  expectNoDiff('incorrect pod:', withRV(updatedPod, rvOf(out)), out);
}

export async function RunTestDeleteWithConflict(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key } = await testPropagateStore(s.store, pod('name', 'test-ns'));
  let updatedPod: Pod | undefined;
  let validateCount = 0;
  let updateCount = 0;
  // A conflicting update lands in the middle of the delete.
  const validateAllWithUpdate = async (): Promise<void> => {
    validateCount++;
    if (validateCount > 1) return;
    updatedPod = await s.store.guaranteedUpdate(key, { tryUpdate: setLabels({ foo: 'bar' }) });
    updateCount++;
  };
  const out = await s.store.delete(key, { validateDeletion: validateAllWithUpdate });
  assert.equal(validateCount, 2);
  assert.equal(updateCount, 1);
  await assert.rejects(s.store.get(key), (e) => isNotFound(e));
  expectNoDiff('incorrect pod:', withRV(updatedPod as Pod, rvOf(out)), out);
}

export async function RunTestDeleteWithSuggestionOfDeletedObject(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('name', 'test-ns'));
  await s.store.delete(key, { validateDeletion: validateAll, cachedExistingObject: originalPod });
  await assert.rejects(s.store.delete(key, { validateDeletion: validateAll, cachedExistingObject: originalPod }), (e) => isNotFound(e));
}

export async function RunTestValidateDeletionWithSuggestion(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('name', 'test-ns'));
  let validationCalls = 0;
  const validationError = new Error('validation error');
  const validateNothing = (): void => {
    validationCalls++;
    throw validationError;
  };
  await assert.rejects(s.store.delete(key, { validateDeletion: validateNothing, cachedExistingObject: originalPod }), (e) => e === validationError);
  assert.equal(validationCalls, 1, 'validate function should have been called once');
  await s.store.guaranteedUpdate(key, { tryUpdate: setLabels({ foo: 'bar' }) });
  let calls = 0;
  const validateFresh = (obj: Pod | undefined): void => {
    calls++;
    if (obj?.metadata.labels?.foo !== 'bar') throw new Error('stale object');
  };
  await s.store.delete(key, { validateDeletion: validateFresh, cachedExistingObject: originalPod });
  assert.ok(calls <= 2, `validate function should have been called at most twice, called ${calls}`);
  await assert.rejects(s.store.get(key), (e) => isNotFound(e));
}

export async function RunTestValidateDeletionWithOnlySuggestionValid(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('name', 'test-ns', { metadata: { labels: { foo: 'bar' } } }));
  let validationCalls = 0;
  const validationError = new Error('validation error');
  await assert.rejects(
    s.store.delete(key, {
      validateDeletion: () => {
        validationCalls++;
        throw validationError;
      },
      cachedExistingObject: originalPod,
    }),
    (e) => e === validationError,
  );
  assert.equal(validationCalls, 1);
  const updatedPod = await s.store.guaranteedUpdate(key, { tryUpdate: setLabels({ foo: 'barbar' }) });
  let calls = 0;
  const validateFresh = (obj: Pod | undefined): void => {
    calls++;
    if (obj?.metadata.labels?.foo !== 'bar') throw new Error('stale object');
  };
  await assert.rejects(s.store.delete(key, { validateDeletion: validateFresh, cachedExistingObject: originalPod }), /stale object/);
  assert.ok(calls <= 2);
  expectNoDiff('incorrect pod:', updatedPod, await s.store.get(key));
}

export async function RunTestPreconditionalDeleteWithSuggestion(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('name', 'test-ns'));
  await s.store.guaranteedUpdate(key, {
    tryUpdate: simpleUpdate((p: Pod) => {
      p.metadata.uid = 'myUID';
      return p;
    }),
  });
  await s.store.delete(key, { preconditions: { uid: 'myUID' }, validateDeletion: validateAll, cachedExistingObject: originalPod });
  await assert.rejects(s.store.get(key), (e) => isNotFound(e));
}

export async function RunTestPreconditionalDeleteWithOnlySuggestionPass(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const { key, stored: originalPod } = await testPropagateStore(s.store, pod('name', 'test-ns', { metadata: { uid: 'myUID' } }));
  const updatedPod = await s.store.guaranteedUpdate(key, {
    tryUpdate: simpleUpdate((p: Pod) => {
      p.metadata.uid = 'otherUID';
      return p;
    }),
  });
  // The suggestion passes the precondition but its delete conflicts; the live object fails it.
  await assert.rejects(
    s.store.delete(key, { preconditions: { uid: 'myUID' }, validateDeletion: validateAll, cachedExistingObject: originalPod }),
    (e) => isInvalidObj(e),
  );
  expectNoDiff('incorrect pod:', updatedPod, await s.store.get(key));
}

export async function RunTestDeleteWithConflictAndMissingExpectedTransformOrDecodeError(
  _t: TestContext,
  s: StoreUnderTest,
  setFailing: (failing: boolean) => void,
): Promise<void> {
  const obj = pod('foo', 'test-ns');
  const key = computePodKey(obj);
  await s.store.create(key, obj);
  let validateCount = 0;
  // A concurrent update both bumps the revision and makes the object readable again.
  const injectUpdate = async (): Promise<void> => {
    validateCount++;
    if (validateCount > 1) return;
    setFailing(false);
    await s.store.guaranteedUpdate(key, { tryUpdate: setLabels({ updated: 'true' }) });
  };
  setFailing(true);
  await assert.rejects(s.store.delete(key, { validateDeletion: injectUpdate, expectTransformOrDecodeError: true }), (e) => isInvalidObj(e));
}

export async function RunTestDeleteExpectedTransformOrDecodeError(_t: TestContext, s: StoreUnderTest, setFailing: (failing: boolean) => void): Promise<void> {
  const obj = pod('foo', 'test-ns');
  const key = computePodKey(obj);
  await s.store.create(key, obj);
  setFailing(true);
  await s.store.delete(key, { validateDeletion: validateAll, expectTransformOrDecodeError: true });
  setFailing(false);
  await assert.rejects(s.store.get(key), (e) => isNotFound(e));
}

export async function RunTestDeleteWithSuggestionAndMissingExpectedTransformOrDecodeError(_t: TestContext, s: StoreUnderTest): Promise<void> {
  const obj = pod('foo', 'test-ns');
  const key = computePodKey(obj);
  const out = await s.store.create(key, obj);
  await assert.rejects(
    s.store.delete(key, { validateDeletion: validateAll, cachedExistingObject: out, expectTransformOrDecodeError: true }),
    (e) => isInvalidObj(e),
  );
}

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
  await assert.rejects(
    s.store.getList('/pods/', { recursive: true, resourceVersion: listOut.resourceVersion, resourceVersionMatch: 'Exact' }),
    /The resourceVersion for the provided list is too old/,
  );
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
  for (const [k, o, m] of [
    ['', rec, 'empty key'],
    ['/', rec, 'empty key'],
    ['.', rec, 'invalid key'],
    ['..', rec, 'invalid key'],
    ['pods', rec, 'lacks resource prefix'],
    ['/pods.apps', rec, 'lacks resource prefix'],
    ['/foo/', rec, 'lacks resource prefix'],
    ['/pods', nonRec, 'lacks resource prefix'],
  ] as const) {
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
  for (const [k, o, m] of [
    ['', rec, 'empty key'],
    ['/', rec, 'empty key'],
    ['.', rec, 'invalid key'],
    ['..', rec, 'invalid key'],
    ['pods', rec, 'lacks resource prefix'],
    ['/pods.apps', rec, 'lacks resource prefix'],
    ['/foo/', rec, 'lacks resource prefix'],
    ['/pods', nonRec, 'lacks resource prefix'],
  ] as const) {
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

export { InternalError };
