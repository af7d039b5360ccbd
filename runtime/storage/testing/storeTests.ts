import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { isExist, isInvalidObj, isNotFound, isTooLargeResourceVersion, ResourceVersionSetOnCreateError } from '../errors.js';
import { simpleUpdate, type UpdateFunc } from '../interfaces.js';
import type { StoreUnderTest } from './harness.js';
import { clone, computePodKey, expectContains, expectNoDiff, mustAtoi, pod, rvOf, testCheckEventType, testPropagateStore, withRV, type Pod } from './utils.js';

// Port of the create, get and delete tests of k8s.io/apiserver/pkg/storage/testing/store_tests.go. Test names match
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
  await assert.rejects(s.store.delete(key, { preconditions: { uid: 'myUID' }, validateDeletion: validateAll, cachedExistingObject: originalPod }), (e) => isInvalidObj(e));
  expectNoDiff('incorrect pod:', updatedPod, await s.store.get(key));
}

export async function RunTestDeleteWithConflictAndMissingExpectedTransformOrDecodeError(_t: TestContext, s: StoreUnderTest, setFailing: (failing: boolean) => void): Promise<void> {
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
  await assert.rejects(s.store.delete(key, { validateDeletion: validateAll, cachedExistingObject: out, expectTransformOrDecodeError: true }), (e) => isInvalidObj(e));
}
