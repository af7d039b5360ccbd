import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { maxLimit } from '../kvstore/list.js';
import type { ValueTransformer } from '../transformer.js';
import type { BackendUnderTest, NewStoreOptions, StoreUnderTest } from './harness.js';
import { RunTestList } from './listTest.js';
import * as lists from './listTests.js';
import * as crud from './storeTests.js';
import * as updates from './updateTests.js';
import * as watches from './watcherTests.js';
import * as watchLists from './watchListTests.js';

type Body = (t: TestContext, s: StoreUnderTest) => Promise<void>;

/**
 * Registers the storage conformance suite (a port of k8s.io/apiserver/pkg/storage/testing) for
 * one backend. Every test gets a fresh store; tests run in the order kube lists them.
 */
export function runConformanceSuite(b: BackendUnderTest): void {
  const run = (name: string, body: Body, opts: NewStoreOptions = {}): void => {
    const reason = b.notApplicable?.[name];
    if (reason) {
      test(name, { skip: `not applicable to ${b.name}: ${reason}` }, () => undefined);
      return;
    }
    test(name, async (t) => {
      const s = await b.newStore(opts);
      s.recorder.getReadsAndReset();
      s.prefixTransformer.getReadsAndReset();
      try {
        await body(t, s);
      } finally {
        await s.close();
      }
    });
  };

  describe(`storage conformance (store_tests.go): ${b.name}`, () => {
    run('RunTestCreate', crud.RunTestCreate);
    run('RunTestCreateWithTTL', crud.RunTestCreateWithTTL);
    run('RunTestCreateWithKeyExist', crud.RunTestCreateWithKeyExist);
    run('RunTestGet', crud.RunTestGet);
    run('RunTestUnconditionalDelete', crud.RunTestUnconditionalDelete);
    run('RunTestConditionalDelete', crud.RunTestConditionalDelete);
    run('RunTestDeleteWithSuggestion', crud.RunTestDeleteWithSuggestion);
    run('RunTestDeleteWithSuggestionAndConflict', crud.RunTestDeleteWithSuggestionAndConflict);
    run('RunTestDeleteWithConflict', crud.RunTestDeleteWithConflict);
    run('RunTestDeleteWithSuggestionOfDeletedObject', crud.RunTestDeleteWithSuggestionOfDeletedObject);
    run('RunTestValidateDeletionWithSuggestion', crud.RunTestValidateDeletionWithSuggestion);
    run('RunTestValidateDeletionWithOnlySuggestionValid', crud.RunTestValidateDeletionWithOnlySuggestionValid);
    run('RunTestPreconditionalDeleteWithSuggestion', crud.RunTestPreconditionalDeleteWithSuggestion);
    run('RunTestPreconditionalDeleteWithOnlySuggestionPass', crud.RunTestPreconditionalDeleteWithOnlySuggestionPass);
    run('RunTestList', (t, s) => RunTestList(t, s, b.cached));
    run('RunTestDeleteWithConflictAndMissingExpectedTransformOrDecodeError', (t, s) => crud.RunTestDeleteWithConflictAndMissingExpectedTransformOrDecodeError(t, s, failSwitch(s)));
    run('RunTestDeleteExpectedTransformOrDecodeError', async (t, s) => {
      // kube runs it with a failing transformer and with a failing decoder.
      await t.test('transform error', () => crud.RunTestDeleteExpectedTransformOrDecodeError(t, s, failSwitch(s)));
      await t.test('decode error', async () => {
        const pod = { metadata: { name: 'foo2', namespace: 'test-ns' } };
        await s.store.create('/pods/test-ns/foo2', pod);
        const revert = s.updateTransformer((orig) => undecodable(orig));
        try {
          await s.store.delete('/pods/test-ns/foo2', { expectTransformOrDecodeError: true });
        } finally {
          revert();
        }
        await assert.rejects(s.store.get('/pods/test-ns/foo2'), (e) => (e as { code?: string }).code === 'KeyNotFound');
      });
    });
    run('RunTestDeleteWithSuggestionAndMissingExpectedTransformOrDecodeError', crud.RunTestDeleteWithSuggestionAndMissingExpectedTransformOrDecodeError);
    run('RunTestConsistentList', (t, s) => lists.RunTestConsistentList(t, s, { cacheEnabled: b.cached, consistentReadsSupported: s.consistentReadsFromCache ?? true }));
    run('RunTestGetListNonRecursive', lists.RunTestGetListNonRecursive);
    run('RunTestGetListRecursivePrefix', lists.RunTestGetListRecursivePrefix);
    run('RunTestGetListWithErrorAggregation', lists.RunTestGetListWithErrorAggregation, { corruptObjectHandling: true });
    run('RunTestGetListWithoutErrorAggregation', lists.RunTestGetListWithoutErrorAggregation);
    run('RunTestListContinuation', (t, s) => lists.RunTestListContinuation(t, s, callsValidation(b, s)));
    run('RunTestListPaginationRareObject', (t, s) => lists.RunTestListPaginationRareObject(t, s, callsValidation(b, s)));
    run('RunTestListContinuationWithFilter', (t, s) => lists.RunTestListContinuationWithFilter(t, s, callsValidation(b, s)));
    run('RunTestListInconsistentContinuation', lists.RunTestListInconsistentContinuation);
    run('RunTestListResourceVersionMatch', lists.RunTestListResourceVersionMatch);
    run('RunTestGuaranteedUpdate', updates.RunTestGuaranteedUpdate);
    run('RunTestGuaranteedUpdateWithTTL', updates.RunTestGuaranteedUpdateWithTTL);
    run('RunTestGuaranteedUpdateChecksStoredData', updates.RunTestGuaranteedUpdateChecksStoredData);
    run('RunTestGuaranteedUpdateWithConflict', updates.RunTestGuaranteedUpdateWithConflict);
    run('RunTestGuaranteedUpdateWithSuggestionAndConflict', updates.RunTestGuaranteedUpdateWithSuggestionAndConflict);
    run('RunTestTransformationFailure', updates.RunTestTransformationFailure);
    run('RunTestStats', (t, s) => updates.RunTestStats(t, s, b.notApplicable?.['RunTestStats/size'] === undefined));
    run('RunTestListPaging', lists.RunTestListPaging);
    run('RunTestNamespaceScopedList', lists.RunTestNamespaceScopedList, { indexedFields: ['spec.nodeName'] });
    run('RunTestCompactRevision', updates.RunTestCompactRevision);
    run('RunTestKeySchema', updates.RunTestKeySchema);
  });

  describe(`storage conformance (watcher_tests.go): ${b.name}`, () => {
    run('RunTestWatch', watches.RunTestWatch);
    run('RunTestWatchFromZero', (t, s) => watches.RunTestWatchFromZero(t, s, true));
    run('RunTestDeleteTriggerWatch', watches.RunTestDeleteTriggerWatch);
    run('RunTestWatchFromNonZero', watches.RunTestWatchFromNonZero);
    run('RunTestDelayedWatchDelivery', watches.RunTestDelayedWatchDelivery);
    run('RunTestWatchError', watches.RunTestWatchError);
    run('RunTestWatchWithUnsafeDelete', watches.RunTestWatchWithUnsafeDelete, { corruptObjectHandling: true });
    run('RunTestWatchContextCancel', watches.RunTestWatchContextCancel);
    run('RunTestWatcherTimeout', watches.RunTestWatcherTimeout);
    run('RunTestWatchDeleteEventObjectHaveLatestRV', watches.RunTestWatchDeleteEventObjectHaveLatestRV);
    run('RunTestWatchInitializationSignal', watches.RunTestWatchInitializationSignal);
    run('RunOptionalTestProgressNotify', watches.RunOptionalTestProgressNotify);
    run('RunTestClusterScopedWatch', watches.RunTestClusterScopedWatch, { clusterScoped: true, indexedFields: ['spec.nodeName'] });
    run('RunTestNamespaceScopedWatch', watches.RunTestNamespaceScopedWatch, { indexedFields: ['spec.nodeName'] });
    run('RunTestWatchDispatchBookmarkEvents', (t, s) => watchLists.RunTestWatchDispatchBookmarkEvents(t, s, b.cached));
    if (b.cached) run('RunTestOptionalWatchBookmarksWithCorrectResourceVersion', watchLists.RunTestOptionalWatchBookmarksWithCorrectResourceVersion);
    else
      test(
        'RunTestOptionalWatchBookmarksWithCorrectResourceVersion',
        { skip: `not applicable to ${b.name}: bookmarks come from the watch cache; kube runs this test only against the cacher` },
        () => undefined,
      );
    run('RunSendInitialEventsBackwardCompatibility', watchLists.RunSendInitialEventsBackwardCompatibility);
    run('RunWatchSemantics', watchLists.RunWatchSemantics, { uncompactedHistory: true });
    run('RunWatchSemanticInitialEventsExtended', watchLists.RunWatchSemanticInitialEventsExtended);
    run('RunWatchListMatchSingle', watchLists.RunWatchListMatchSingle);
    run('RunWatchErrorIsBlockingFurtherEvents', watchLists.RunWatchErrorIsBlockingFurtherEvents);
  });
}

/** setFailing for the unsafe-delete tests: toggles a transformer failure on every read. */
function failSwitch(s: StoreUnderTest): (failing: boolean) => void {
  let revert: (() => void) | undefined;
  return (failing) => {
    revert?.();
    revert = failing ? s.updateTransformer((orig) => failingRead(orig)) : undefined;
  };
}

function failingRead(inner: ValueTransformer): ValueTransformer {
  return {
    transformFromStorage: () => {
      throw new Error('synthetic error');
    },
    transformToStorage: (d, c) => inner.transformToStorage(d, c),
  };
}

/** Reads succeed but yield bytes that are not JSON, so decoding fails. */
function undecodable(inner: ValueTransformer): ValueTransformer {
  return {
    transformFromStorage: (d, c) => ({ data: Buffer.concat([Buffer.from('\u0000not json'), inner.transformFromStorage(d, c).data]), stale: false }),
    transformToStorage: (d, c) => inner.transformToStorage(d, c),
  };
}

/** checkStorageCallsInvariants: transformer reads and backend calls of a list (kube doubles page sizes). */
function callsValidation(b: BackendUnderTest, s: StoreUnderTest): lists.CallsValidation | undefined {
  // A cache passes paginated lists through; kube's cacher tests validate nothing here either.
  if (b.cached) return undefined;
  return (pageSize, estimatedProcessedObjects) => {
    assert.equal(s.prefixTransformer.getReadsAndReset(), estimatedProcessedObjects, 'unexpected transformer reads');
    let estimatedGetCalls = 1;
    if (pageSize !== 0) {
      let currLimit = pageSize;
      for (let sum = 1; sum < estimatedProcessedObjects;) {
        currLimit = Math.min(currLimit * 2, maxLimit);
        sum += currLimit;
        estimatedGetCalls++;
      }
    }
    assert.equal(s.recorder.getReadsAndReset(), estimatedGetCalls, 'unexpected backend reads');
  };
}
