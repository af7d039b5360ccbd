import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  DelayingQueue,
  FakeClock,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  Queue,
  RateLimitingQueue,
  TokenBucket,
} from '../../runtime/client/workqueue/index.js';

/** Takes the next item, failing the test if the queue says it is shut down. */
async function take<T>(q: Queue<T>): Promise<T> {
  const r = await q.get();
  assert.equal(r.shutdown, false);
  return (r as { item: T }).item;
}

/** Resolves after pending promise callbacks ran, to tell whether a get() is still waiting. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Queue', () => {
  test('hands items out in FIFO order and deduplicates queued items', async () => {
    const q = new Queue<string>();
    for (const k of ['a', 'b', 'a', 'c', 'b']) q.add(k);
    assert.equal(q.len(), 3);
    assert.deepEqual([await take(q), await take(q), await take(q)], ['a', 'b', 'c']);
    assert.equal(q.len(), 0);
  });

  test('an item re-added while processing is queued again only after done()', async () => {
    const q = new Queue<string>();
    q.add('a');
    assert.equal(await take(q), 'a');
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 0, 'a is dirty but being processed: not handed to a second worker');
    q.add('b');
    assert.equal(await take(q), 'b');
    q.done('a');
    assert.equal(q.len(), 1);
    assert.equal(await take(q), 'a');
    q.done('a');
    q.done('b');
    assert.equal(q.len(), 0);
  });

  test('an item done without being re-added is not queued again', async () => {
    const q = new Queue<number>();
    q.add(1);
    assert.equal(await take(q), 1);
    q.done(1);
    assert.equal(q.len(), 0);
  });

  test('get() waits for an item; waiters are served in order', async () => {
    const q = new Queue<string>();
    const first = q.get();
    const second = q.get();
    let resolved = 0;
    void first.then(() => resolved++);
    await settle();
    assert.equal(resolved, 0);
    q.add('x');
    q.add('y');
    assert.deepEqual(await first, { shutdown: false, item: 'x' });
    assert.deepEqual(await second, { shutdown: false, item: 'y' });
  });

  test('shutDown wakes every waiting get() and ignores later adds', async () => {
    const q = new Queue<string>();
    const waiters = [q.get(), q.get(), q.get()];
    q.shutDown();
    assert.deepEqual(await Promise.all(waiters), [{ shutdown: true }, { shutdown: true }, { shutdown: true }]);
    q.add('late');
    assert.equal(q.len(), 0);
    assert.deepEqual(await q.get(), { shutdown: true });
    assert.equal(q.shuttingDown(), true);
  });

  test('items queued before shutdown are still handed out, then shutdown is reported', async () => {
    const q = new Queue<string>();
    q.add('a');
    q.add('b');
    q.shutDown();
    assert.equal(await take(q), 'a');
    assert.equal(await take(q), 'b');
    assert.deepEqual(await q.get(), { shutdown: true });
  });

  test('shutDownWithDrain waits for the items being processed', async () => {
    const q = new Queue<string>();
    q.add('a');
    q.add('b');
    const a = await take(q);
    const b = await take(q);
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => {
      drained = true;
    });
    await settle();
    assert.equal(drained, false);
    q.done(a);
    await settle();
    assert.equal(drained, false, 'b is still in flight');
    q.done(b);
    await drain;
    assert.equal(drained, true);
  });

  test('shutDownWithDrain resolves at once when nothing is in flight, and shutDown ends a drain', async () => {
    await new Queue<string>().shutDownWithDrain();
    const q = new Queue<string>();
    q.add('a');
    await take(q);
    const drain = q.shutDownWithDrain();
    q.shutDown();
    await drain;
  });
});

describe('DelayingQueue', () => {
  test('adds items when their delay has passed, earliest first, with one timer', async () => {
    const clock = new FakeClock(1000);
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('late', 300);
    q.addAfter('early', 100);
    q.addAfter('middle', 200);
    q.addAfter('now', 0);
    assert.equal(q.len(), 1);
    assert.equal(clock.pendingTimers(), 1, 'one timer for the earliest item, not one per item');
    assert.equal(q.waitingLen(), 3);
    clock.step(99);
    assert.equal(q.len(), 1);
    clock.step(1);
    assert.equal(q.len(), 2);
    clock.step(500);
    assert.deepEqual([await take(q), await take(q), await take(q), await take(q)], ['now', 'early', 'middle', 'late']);
    assert.equal(clock.pendingTimers(), 0);
  });

  test('an item already waiting keeps the earlier ready time', () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('a', 100);
    q.addAfter('a', 500);
    assert.equal(q.waitingLen(), 1);
    clock.step(100);
    assert.equal(q.len(), 1);
    assert.equal(q.waitingLen(), 0);
    q.addAfter('b', 500);
    q.addAfter('b', 50);
    clock.step(50);
    assert.equal(q.len(), 2);
  });

  test('items ready at the same time keep their insertion order', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<number>({ clock });
    for (const n of [5, 3, 9, 1]) q.addAfter(n, 10);
    clock.step(10);
    assert.deepEqual([await take(q), await take(q), await take(q), await take(q)], [5, 3, 9, 1]);
  });

  test('a waiting get() is woken by a delayed add', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    const got = q.get();
    q.addAfter('x', 10);
    clock.step(10);
    assert.deepEqual(await got, { shutdown: false, item: 'x' });
  });

  test('shutdown cancels the timer and drops waiting items', () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('a', 10);
    q.shutDown();
    assert.equal(clock.pendingTimers(), 0);
    clock.step(100);
    assert.equal(q.len(), 0);
    q.addAfter('b', 10);
    assert.equal(clock.pendingTimers(), 0);
  });

  test('the real clock: a delayed item arrives and no timer outlives shutdown', async () => {
    const q = new DelayingQueue<string>();
    q.addAfter('soon', 5);
    q.addAfter('never', 3_600_000);
    assert.equal(await take(q), 'soon');
    q.done('soon');
    await q.shutDownWithDrain();
    assert.equal(q.waitingLen(), 0);
  });
});

describe('rate limiters', () => {
  test('per-item exponential backoff doubles from the base and stops at the cap', () => {
    const r = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    assert.deepEqual(
      Array.from({ length: 10 }, () => r.when('a')),
      [5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000],
    );
    assert.equal(r.numRequeues('a'), 10);
    assert.equal(r.when('b'), 5, 'items are tracked separately');
    r.forget('a');
    assert.equal(r.numRequeues('a'), 0);
    assert.equal(r.when('a'), 5);
  });

  test('the cap holds for any number of failures', () => {
    const r = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    let last = 0;
    for (let i = 0; i < 2000; i++) last = r.when('x');
    assert.equal(last, 1_000_000);
  });

  test('the token bucket starts full, then spaces reservations by 1/qps, and refills with time', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(10, 3, clock);
    assert.deepEqual([bucket.reserve(), bucket.reserve(), bucket.reserve()], [0, 0, 0]);
    assert.deepEqual([bucket.reserve(), bucket.reserve()], [100, 200]);
    clock.step(1000);
    assert.ok(Math.abs(bucket.tokens() - 3) < 1e-9, 'refilled to the burst, never beyond');
    clock.step(60_000);
    assert.ok(Math.abs(bucket.tokens() - 3) < 1e-9);
    assert.throws(() => new TokenBucket(0, 1, clock), RangeError);
  });

  test('the bucket limiter tracks no item', () => {
    const r = new BucketRateLimiter<string>({ qps: 1, burst: 1, clock: new FakeClock() });
    assert.equal(r.when('a'), 0);
    assert.equal(r.when('b'), 1000);
    assert.equal(r.numRequeues('a'), 0);
  });

  test('the default controller limiter: per-item backoff until the overall burst of 100 is spent', () => {
    const clock = new FakeClock();
    const r = defaultControllerRateLimiter<string>({ clock });
    assert.equal(r.when('a'), 5);
    assert.equal(r.when('a'), 10);
    for (let i = 0; i < 98; i++) assert.equal(r.when(`item-${i}`), 5);
    // The bucket is empty: fresh items now wait for a token at 10 per second.
    assert.equal(r.when('fresh-1'), 100);
    assert.equal(r.when('fresh-2'), 200);
    assert.equal(r.numRequeues('a'), 2);
    r.forget('a');
    assert.equal(r.numRequeues('a'), 0);
  });

  test('max-of takes the longest delay and the largest requeue count', () => {
    const a = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    const b = new ItemExponentialFailureRateLimiter<string>(10, 20);
    const r = new MaxOfRateLimiter(a, b);
    assert.deepEqual([r.when('k'), r.when('k'), r.when('k'), r.when('k'), r.when('k'), r.when('k')], [10, 20, 20, 20, 20, 32]);
    assert.equal(r.numRequeues('k'), 6);
  });
});

describe('RateLimitingQueue', () => {
  test('addRateLimited delays by the limiter; forget resets the backoff', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(10, 1000) });
    q.addRateLimited('a');
    assert.equal(q.len(), 0);
    assert.equal(q.numRequeues('a'), 1);
    clock.step(10);
    assert.equal(await take(q), 'a');
    q.done('a');
    q.addRateLimited('a');
    clock.step(19);
    assert.equal(q.len(), 0);
    clock.step(1);
    assert.equal(q.len(), 1);
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
  });

  test('defaults to the controller rate limiter on its clock', () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    q.addRateLimited('a');
    clock.step(4);
    assert.equal(q.len(), 0);
    clock.step(1);
    assert.equal(q.len(), 1);
    q.shutDown();
  });

  test('after shutdown, addRateLimited neither queues nor counts', () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    q.shutDown();
    q.addRateLimited('a');
    assert.equal(q.numRequeues('a'), 0);
    assert.equal(clock.pendingTimers(), 0);
  });
});
