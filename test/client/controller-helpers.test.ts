// What the client entry point gives controller authors beside clients and informers: deepCopy of
// cached (read-only) objects, retryOnConflict with client-go's backoffs, the error predicates of
// apimachinery/pkg/api/errors and the label and field selector parsers. Type-level checks
// (`@ts-expect-error`) are proven by the typecheck.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import {
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newForbidden,
  newGenericServerResponse,
  newInternalError,
  newInvalid,
  newMethodNotSupported,
  newNotAcceptable,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServerTimeout,
  newServiceUnavailable,
  newTimeoutError,
  newTooManyRequests,
  newUnauthorized,
  newUnsupportedMediaType,
  type StatusError as CatalogStatusError,
} from '../../runtime/apimachinery/errors/index.js';
import type { Clock } from '../../runtime/client/cache/index.js';
import { until } from '../integration/assertions.js';
import {
  deepCopy,
  defaultRetry,
  defaultRetryBackoff,
  fields,
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isGone,
  isInternalError,
  isInvalid,
  isMethodNotSupported,
  isNotAcceptable,
  isNotFound,
  isRequestEntityTooLargeError,
  isResourceExpired,
  isServerTimeout,
  isServiceUnavailable,
  isTimeout,
  isTooManyRequests,
  isUnauthorized,
  isUnexpectedServerError,
  isUnsupportedMediaType,
  labels,
  newSharedInformerFactoryCore,
  reasonForError,
  retryOnConflict,
  retryOnError,
  StatusError,
  suggestsClientDelay,
  type DeepReadonly,
} from '../../runtime/client/index.js';

const flunders = { group: 'wardle.example.com', resource: 'flunders' };

/** A clock that records the waits asked for and does not wait. */
function recordingClock(): Clock & { readonly waits: number[] } {
  const waits: number[] = [];
  return { waits, now: () => 0, sleep: async (ms) => void waits.push(ms) };
}

describe('deepCopy', () => {
  test('a cached object is read-only by type; its deep copy is the mutable kind, ready for update', async () => {
    const cs = newSimpleClientset({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns', labels: { app: 'web' } } });
    const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore());
    const lister = factory.wardle().v1alpha1().flunders().lister();
    factory.start();
    await factory.waitForCacheSync();
    const cached: DeepReadonly<Flunder> = lister.namespace('ns').get('a');
    assert.throws(
      () => {
        // @ts-expect-error cached objects are shared: mutating one is a compile error…
        cached.spec = { reference: 'b' };
      },
      TypeError,
      '…and throws at run time (frozen)',
    );
    assert.throws(() => {
      // @ts-expect-error nested fields too
      cached.metadata!.labels!['app'] = 'db';
    }, TypeError);

    const copy = deepCopy(cached);
    copy.spec = { reference: 'b' };
    copy.metadata!.labels!['app'] = 'db';
    const typed: Flunder = copy; // the kind itself, not a read-only view
    const updated = await cs.wardleV1alpha1().flunders('ns').update(typed);
    assert.equal(updated.spec?.reference, 'b');
    assert.equal(cached.metadata?.labels?.['app'], 'web', 'the cached object is untouched');
    await factory.shutdown();
  });

  test('indexers and event handlers hand out the same read-only objects', async () => {
    const cs = newSimpleClientset({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns' } });
    const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore());
    const informer = factory.wardle().v1alpha1().flunders().informer();
    const added: DeepReadonly<Flunder>[] = [];
    informer.addEventHandler({ onAdd: (obj) => void added.push(obj) });
    factory.start();
    await factory.waitForCacheSync();
    await until('the initial add', () => added[0]);
    const fromHandler = added[0] as DeepReadonly<Flunder>;
    const fromIndexer = informer.getIndexer().getByKey('ns/a');
    assert.equal(fromIndexer, fromHandler, 'one shared object');
    assert.throws(() => {
      // @ts-expect-error what a handler receives is read-only by type…
      fromHandler.metadata!.name = 'b';
    }, TypeError);
    assert.throws(() => {
      // @ts-expect-error …and so is what the indexer returns
      informer.getIndexer().byIndex('namespace', 'ns')[0]!.spec = {};
    }, TypeError);
    await factory.shutdown();
  });

  test('keys such as __proto__ and constructor stay data, and deep nesting does not overflow', () => {
    const hostile = JSON.parse('{"metadata":{"name":"x","annotations":{"__proto__":"p","constructor":"c"}},"spec":{"__proto__":{"polluted":true}}}') as Record<string, unknown>;
    const copy = deepCopy(hostile);
    assert.deepEqual(copy, hostile);
    assert.notEqual(copy['spec'], hostile['spec']);
    assert.equal(Object.getPrototypeOf(copy['spec']), Object.prototype);
    assert.ok(Object.prototype.hasOwnProperty.call(copy['spec'], '__proto__'));
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 10_000; i++) deep = (deep['a'] = {}) as Record<string, unknown>; // what the decoder accepts
    assert.doesNotThrow(() => deepCopy(root));
  });
});

describe('retryOnConflict', () => {
  const conflict = (): CatalogStatusError => newConflict(flunders, 'a', 'the object has been modified; please apply your changes to the latest version and try again');

  test('retries 409 Conflict until the write succeeds and returns its result', async () => {
    const clock = recordingClock();
    let attempts = 0;
    const result = await retryOnConflict(
      defaultRetry,
      async () => {
        if (++attempts < 3) throw conflict();
        return 'written';
      },
      { clock, random: () => 0 },
    );
    assert.equal(result, 'written');
    assert.equal(attempts, 3);
    assert.deepEqual(clock.waits, [10, 10]);
  });

  test('gives up after the backoff steps with the last conflict (DefaultRetry: 5 attempts, 10 ms apart, jitter 0.1)', async () => {
    const clock = recordingClock();
    let attempts = 0;
    const last = conflict();
    await assert.rejects(
      retryOnConflict(
        defaultRetry,
        async () => {
          attempts++;
          throw attempts === 5 ? last : conflict();
        },
        { clock, random: () => 1 },
      ),
      (err) => err === last,
    );
    assert.equal(attempts, 5);
    assert.deepEqual(clock.waits, [11, 11, 11, 11]);
  });

  test('DefaultBackoff: 4 attempts, waits of 10, 50 and 250 ms stretched by up to a tenth', async () => {
    const clock = recordingClock();
    let attempts = 0;
    await assert.rejects(
      retryOnConflict(
        defaultRetryBackoff,
        async () => {
          attempts++;
          throw conflict();
        },
        { clock, random: () => 0.5 },
      ),
      isConflict,
    );
    assert.equal(attempts, 4);
    assert.deepEqual(clock.waits, [10.5, 52.5, 262.5]);
  });

  test('does not retry other errors', async () => {
    for (const err of [newNotFound(flunders, 'a'), newInvalid({ group: 'wardle.example.com', kind: 'Flunder' }, 'a', []), new Error('boom')]) {
      const clock = recordingClock();
      let attempts = 0;
      await assert.rejects(
        retryOnConflict(
          defaultRetry,
          async () => {
            attempts++;
            throw err;
          },
          { clock },
        ),
        (e) => e === err,
      );
      assert.equal(attempts, 1);
      assert.deepEqual(clock.waits, []);
    }
  });

  test('retryOnError retries what its predicate accepts', async () => {
    let attempts = 0;
    const result = await retryOnError(
      { steps: 3, durationMs: 1, factor: 2, jitter: 0 },
      isServerTimeout,
      async () => {
        if (++attempts < 3) throw newServerTimeout(flunders, 'create', 2);
        return attempts;
      },
      { clock: recordingClock() },
    );
    assert.equal(result, 3);
  });

  test('retries real conflicts against the fake clientset', async () => {
    const cs = newSimpleClientset({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns' } });
    const client = cs.wardleV1alpha1().flunders('ns');
    const stale = await client.get('a');
    await client.update({ ...stale, spec: { reference: 'someone else' } });
    let attempts = 0;
    const written = await retryOnConflict(defaultRetry, async () => {
      // The first attempt writes the stale copy (409); later ones re-read, as they should.
      const base = attempts++ === 0 ? stale : await client.get('a');
      return client.update({ ...deepCopy(base), spec: { ...base.spec, reference: 'mine' } });
    });
    assert.equal(attempts, 2);
    assert.equal(written.spec?.reference, 'mine');
  });
});

describe('error predicates from the client entry point', () => {
  const gr = flunders;
  const cases: [string, (e: unknown) => boolean, CatalogStatusError, number][] = [
    ['isNotFound', isNotFound, newNotFound(gr, 'a'), 404],
    ['isAlreadyExists', isAlreadyExists, newAlreadyExists(gr, 'a'), 409],
    ['isConflict', isConflict, newConflict(gr, 'a', 'x'), 409],
    ['isInvalid', isInvalid, newInvalid({ group: gr.group, kind: 'Flunder' }, 'a', []), 422],
    ['isBadRequest', isBadRequest, newBadRequest('x'), 400],
    ['isUnauthorized', isUnauthorized, newUnauthorized(), 401],
    ['isForbidden', isForbidden, newForbidden(gr, 'a', 'no'), 403],
    ['isMethodNotSupported', isMethodNotSupported, newMethodNotSupported(gr, 'patch'), 405],
    ['isNotAcceptable', isNotAcceptable, newNotAcceptable(['application/json']), 406],
    ['isRequestEntityTooLargeError', isRequestEntityTooLargeError, newRequestEntityTooLarge('x'), 413],
    ['isUnsupportedMediaType', isUnsupportedMediaType, newUnsupportedMediaType(['application/json']), 415],
    ['isTooManyRequests', isTooManyRequests, newTooManyRequests('x', 1), 429],
    ['isInternalError', isInternalError, newInternalError(new Error('x')), 500],
    ['isServiceUnavailable', isServiceUnavailable, newServiceUnavailable('x'), 503],
    ['isTimeout', isTimeout, newTimeoutError('x'), 504],
    ['isResourceExpired', isResourceExpired, newResourceExpired('x'), 410],
  ];

  test('each predicate knows its reason and no other', () => {
    for (const [name, is, err, code] of cases) {
      assert.equal(is(err), true, `${name}(${err.reason})`);
      assert.equal(err.code, code, name);
      for (const [other, , otherErr] of cases) {
        if (otherErr.reason !== err.reason && !(name === 'isResourceExpired' && otherErr.reason === 'Gone')) assert.equal(is(otherErr), false, `${name}(${other}'s error)`);
      }
      assert.equal(is(new Error(err.message)), false, `${name} of a plain Error`);
    }
    assert.equal(reasonForError(newNotFound(gr, 'a')), 'NotFound');
    assert.equal(reasonForError(new Error('x')), '');
    assert.ok(newNotFound(gr, 'a') instanceof StatusError, 'the entry point exports the class servers and clients throw');
  });

  test('a reason the catalog does not know falls back to the HTTP code, as apierrors does', () => {
    const foreign = (code: number): StatusError =>
      new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'x',
        code,
        reason: 'SomethingNew' as never,
      });
    assert.equal(isNotFound(foreign(404)), true);
    assert.equal(isNotAcceptable(foreign(406)), true);
    assert.equal(isUnsupportedMediaType(foreign(415)), true);
    assert.equal(isInternalError(foreign(500)), true);
    assert.equal(isGone(foreign(410)), true);
    assert.equal(isConflict(foreign(404)), false);
    // A bare HTTP answer the REST client turned into a Status is marked as such.
    assert.equal(isUnexpectedServerError(newGenericServerResponse(502)), false);
    const unexpected = new StatusError({ ...newGenericServerResponse(502, 'bad gateway').status, details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'bad gateway' }] } });
    assert.equal(isUnexpectedServerError(unexpected), true);
  });

  test('suggestsClientDelay reads Retry-After from the details (always for ServerTimeout)', () => {
    assert.equal(suggestsClientDelay(newTooManyRequests('x', 3)), 3);
    assert.equal(suggestsClientDelay(newServerTimeout(flunders, 'create', 2)), 2);
    assert.equal(suggestsClientDelay(newNotFound(flunders, 'a')), undefined);
    assert.equal(suggestsClientDelay(new Error('x')), undefined);
  });
});

describe('selector parsers from the client entry point', () => {
  test('labels.parse and fields.parseSelector', () => {
    const sel = labels.parse('app=web,tier!=db,env in (prod,staging),!legacy');
    assert.equal(sel.matchesSet({ app: 'web', tier: 'front', env: 'prod' }), true);
    assert.equal(sel.matchesSet({ app: 'web', tier: 'db', env: 'prod' }), false);
    assert.throws(() => labels.parse('env in (prod'), labels.InvalidSelectorError);
    const fsel = fields.parseSelector('metadata.name=a,status.phase!=Failed');
    assert.equal(fsel.matchesSet({ 'metadata.name': 'a', 'status.phase': 'Running' }), true);
    assert.equal(fsel.matchesSet({ 'metadata.name': 'b', 'status.phase': 'Running' }), false);
    assert.throws(() => fields.parseSelector('a~b'), fields.InvalidFieldSelectorError);
  });
});
