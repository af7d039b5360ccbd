import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FakeClock, ItemExponentialFailureRateLimiter, RateLimitingQueue, runController } from '../../runtime/client/workqueue/index.js';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Resolves once `cond` holds, polling between turns of the event loop (no wall-clock timing). */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !cond(); i++) await settle();
  assert.ok(cond(), 'condition never became true');
}

function activeTimeouts(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

describe('runController', () => {
  test('reconciles keys with N workers, never one key twice at once', async () => {
    const queue = new RateLimitingQueue<string>({ clock: new FakeClock() });
    const ac = new AbortController();
    const inFlight = new Set<string>();
    let maxConcurrent = 0;
    const done: string[] = [];
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const release = (key: string): void => {
      const open = gates.get(key);
      gates.delete(key);
      open?.();
    };
    const run = runController({
      queue,
      workers: 3,
      signal: ac.signal,
      reconcile: async (key) => {
        assert.ok(!inFlight.has(key), `${key} reconciled twice at once`);
        inFlight.add(key);
        started.push(key);
        maxConcurrent = Math.max(maxConcurrent, inFlight.size);
        await new Promise<void>((resolve) => gates.set(key, resolve));
        inFlight.delete(key);
        done.push(key);
      },
    });
    for (const k of ['a', 'b', 'c', 'd']) queue.add(k);
    await until(() => started.length === 3);
    assert.deepEqual(started, ['a', 'b', 'c'], 'three workers, FIFO');
    queue.add('a'); // while a is in progress: queued again once it is done
    queue.add('a');
    for (const k of ['a', 'b', 'c']) release(k);
    await until(() => started.length === 5);
    assert.deepEqual(started.slice(3).sort(), ['a', 'd']);
    release('a');
    release('d');
    await until(() => done.length === 5);
    assert.deepEqual(done.sort(), ['a', 'a', 'b', 'c', 'd']);
    assert.equal(maxConcurrent, 3);
    ac.abort();
    await run;
    assert.equal(queue.shuttingDown(), true);
  });

  test('retries a failing key with growing rate-limited delays, then forgets it on success', async () => {
    const clock = new FakeClock();
    const queue = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(5, 1000) });
    const ac = new AbortController();
    const attempts: number[] = [];
    const errors: string[] = [];
    const run = runController({
      queue,
      signal: ac.signal,
      onError: (key, err) => errors.push(`${key}: ${(err as Error).message}`),
      reconcile: (key) => {
        attempts.push(clock.now());
        if (attempts.length <= 3) throw new Error(`attempt ${attempts.length} of ${key} failed`);
      },
    });
    queue.add('k');
    await until(() => attempts.length === 1);
    await until(() => queue.waitingLen() === 1);
    assert.equal(queue.numRequeues('k'), 1);
    clock.step(4);
    await settle();
    assert.equal(attempts.length, 1, 'not before the 5 ms backoff');
    clock.step(1);
    await until(() => attempts.length === 2);
    await until(() => queue.waitingLen() === 1);
    clock.step(10);
    await until(() => attempts.length === 3);
    await until(() => queue.waitingLen() === 1);
    clock.step(20);
    await until(() => attempts.length === 4);
    assert.deepEqual(attempts, [0, 5, 15, 35]);
    await until(() => queue.numRequeues('k') === 0);
    assert.deepEqual(errors, ['k: attempt 1 of k failed', 'k: attempt 2 of k failed', 'k: attempt 3 of k failed']);
    ac.abort();
    await run;
    assert.equal(clock.pendingTimers(), 0);
  });

  test('maxRetries drops a key that keeps failing', async () => {
    const clock = new FakeClock();
    const queue = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(1, 1) });
    const ac = new AbortController();
    let attempts = 0;
    const run = runController({
      queue,
      signal: ac.signal,
      maxRetries: 2,
      onError: () => {},
      reconcile: () => {
        attempts++;
        throw new Error('no');
      },
    });
    queue.add('k');
    for (let i = 0; i < 5; i++) {
      await settle();
      clock.step(1);
    }
    await until(() => attempts === 3);
    assert.equal(queue.numRequeues('k'), 0);
    assert.equal(queue.len() + queue.waitingLen(), 0);
    ac.abort();
    await run;
  });

  test('requeue results: requeueAfterMs forgets and delays, requeue is rate-limited', async () => {
    const clock = new FakeClock();
    const queue = new RateLimitingQueue<string>({ clock, rateLimiter: new ItemExponentialFailureRateLimiter(5, 1000) });
    const ac = new AbortController();
    const seen: [string, number][] = [];
    const run = runController({
      queue,
      signal: ac.signal,
      reconcile: (key) => {
        seen.push([key, clock.now()]);
        if (key === 'periodic' && seen.filter(([k]) => k === key).length === 1) return { requeueAfterMs: 1000 };
        if (key === 'again' && seen.filter(([k]) => k === key).length === 1) return { requeue: true };
        return undefined;
      },
    });
    queue.add('periodic');
    queue.add('again');
    await until(() => seen.length === 2);
    await until(() => queue.waitingLen() === 2);
    assert.equal(queue.numRequeues('periodic'), 0);
    assert.equal(queue.numRequeues('again'), 1);
    clock.step(5);
    await until(() => seen.length === 3);
    clock.step(995);
    await until(() => seen.length === 4);
    assert.deepEqual(seen, [
      ['periodic', 0],
      ['again', 0],
      ['again', 5],
      ['periodic', 1000],
    ]);
    ac.abort();
    await run;
  });

  test('stops on abort: the key in progress finishes, queued keys are not started, the queue is shut down', async () => {
    const queue = new RateLimitingQueue<string>({ clock: new FakeClock() });
    const ac = new AbortController();
    const started: string[] = [];
    let release = (): void => {};
    let finished = false;
    const run = runController({
      queue,
      signal: ac.signal,
      reconcile: async (key, signal) => {
        started.push(key);
        assert.equal(signal, ac.signal);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        finished = true;
      },
    });
    queue.add('first');
    queue.add('second');
    await until(() => started.length === 1);
    ac.abort();
    let stopped = false;
    void run.then(() => {
      stopped = true;
    });
    await settle();
    assert.equal(stopped, false, 'waits for the key in progress');
    release();
    await run;
    assert.equal(finished, true);
    assert.deepEqual(started, ['first']);
    assert.equal(queue.shuttingDown(), true);
  });

  test('an already aborted signal returns at once', async () => {
    const queue = new RateLimitingQueue<string>();
    queue.add('x');
    let calls = 0;
    await runController({
      queue,
      signal: AbortSignal.abort(),
      reconcile: () => {
        calls++;
      },
    });
    assert.equal(calls, 0);
  });

  test('on the real clock, a key backing off for 1000 s leaves no timer behind after stop', async () => {
    const before = activeTimeouts();
    const queue = new RateLimitingQueue<string>({ rateLimiter: new ItemExponentialFailureRateLimiter(1_000_000, 1_000_000) });
    const ac = new AbortController();
    let attempts = 0;
    const run = runController({
      queue,
      signal: ac.signal,
      onError: () => {},
      reconcile: () => {
        attempts++;
        throw new Error('fails');
      },
    });
    queue.add('k');
    await until(() => attempts === 1 && queue.waitingLen() === 1);
    assert.equal(activeTimeouts(), before + 1);
    ac.abort();
    await run;
    assert.equal(activeTimeouts(), before);
  });
});
