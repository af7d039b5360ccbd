// WatchQueue's contracts behind issue 12: initial events are pulled from their source before
// anything pushed and never count against the capacity; a slow consumer either pauses the
// producer (flowControl) or ends the watch, never with live events after a partial initial state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WatchEvent } from '../../runtime/storage/interfaces.js';
import type { Status } from '../../runtime/apimachinery/object.js';
import { WatchQueue } from '../../runtime/storage/watchQueue.js';

type Obj = { metadata: { name: string } };
const added = (name: string): WatchEvent<Obj> => ({ type: 'ADDED', object: { metadata: { name } } });
const names = (evs: Array<WatchEvent<Obj> | undefined>): string[] => evs.map((e) => (e === undefined ? '<end>' : e.type === 'ERROR' ? 'ERROR' : e.object.metadata.name));

async function drain(q: WatchQueue<Obj>): Promise<string[]> {
  const out: Array<WatchEvent<Obj> | undefined> = [];
  for (let ev = await q.receive(); ev !== undefined; ev = await q.receive()) out.push(ev);
  return names(out);
}

function* snapshot(n: number): Generator<WatchEvent<Obj>, void> {
  for (let i = 0; i < n; i++) yield added(`init-${i}`);
}

test('initial events come first, all of them, whatever the capacity', async () => {
  const q = new WatchQueue<Obj>({ capacity: 2 });
  q.sendInitial(snapshot(5));
  q.push(added('live-0'));
  q.push(added('live-1'));
  const got: Array<WatchEvent<Obj> | undefined> = [];
  for (let i = 0; i < 7; i++) got.push(await q.receive());
  assert.deepEqual(names(got), ['init-0', 'init-1', 'init-2', 'init-3', 'init-4', 'live-0', 'live-1']);
  assert.equal(q.stopped, false);
});

test('an async source is read as the consumer receives', async () => {
  let pulled = 0;
  const source = (async function* () {
    for (let i = 0; i < 3; i++) {
      pulled++;
      yield added(`page-${i}`);
    }
  })();
  const q = new WatchQueue<Obj>();
  q.sendInitial(source);
  await new Promise((r) => setImmediate(r));
  assert.equal(pulled, 0);
  assert.deepEqual(names([await q.receive()]), ['page-0']);
  assert.equal(pulled, 1);
});

test('overflow while initial events are pending ends the watch without the live events', async () => {
  let overflowed = false;
  const q = new WatchQueue<Obj>({ capacity: 2, onOverflow: () => (overflowed = true) });
  q.sendInitial(snapshot(5));
  assert.deepEqual(names([await q.receive()]), ['init-0']);
  for (let i = 0; i < 3; i++) q.push(added(`live-${i}`));
  assert.ok(overflowed);
  assert.deepEqual(await drain(q), []);
});

test('overflow after the initial events ends the watch after what is buffered', async () => {
  const q = new WatchQueue<Obj>({ capacity: 2, onOverflow: () => undefined });
  q.sendInitial(snapshot(1));
  assert.deepEqual(names([await q.receive()]), ['init-0']);
  const next = q.receive(); // exhausts the source, then waits for a live event
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 4; i++) q.push(added(`live-${i}`));
  assert.equal(q.stopped, true);
  assert.deepEqual(names([await next]), ['live-0']);
  assert.deepEqual(await drain(q), ['live-1', 'live-2', 'live-3']);
});

test('flowControl pauses above capacity and resumes at half, never ending the watch', async () => {
  const calls: string[] = [];
  const q = new WatchQueue<Obj>({ capacity: 4, flowControl: { pause: () => calls.push('pause'), resume: () => calls.push('resume') } });
  for (let i = 0; i < 6; i++) q.push(added(`live-${i}`));
  assert.deepEqual(calls, ['pause']);
  assert.equal(q.stopped, false);
  for (let i = 0; i < 3; i++) await q.receive();
  assert.deepEqual(calls, ['pause']);
  await q.receive();
  assert.deepEqual(calls, ['pause', 'resume']);
  q.end();
  assert.deepEqual(await drain(q), ['live-4', 'live-5']);
});

test('an ERROR from the initial source ends the watch; nothing pushed meanwhile follows it', async () => {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old', reason: 'Expired', code: 410 };
  const q = new WatchQueue<Obj>();
  q.sendInitial([added('init-0'), { type: 'ERROR', object: status } as WatchEvent<Obj>][Symbol.iterator]());
  q.push(added('live-0'));
  assert.deepEqual(await drain(q), ['init-0', 'ERROR']);
});

test('a source that throws ends the watch with its Status', async () => {
  const q = new WatchQueue<Obj>();
  q.sendInitial(
    (async function* () {
      yield added('init-0');
      throw new Error('boom');
    })(),
  );
  const first = await q.receive();
  const second = await q.receive();
  assert.deepEqual(names([first]), ['init-0']);
  assert.equal(second?.type, 'ERROR');
  assert.equal((second?.object as Status).code, 500);
  assert.equal(await q.receive(), undefined);
});

test('a receive aborted during a pull leaves the event to the next receive', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const q = new WatchQueue<Obj>();
  q.sendInitial(
    (async function* () {
      await gate;
      yield added('init-0');
    })(),
  );
  const ac = new AbortController();
  const aborted = q.receive({ signal: ac.signal });
  ac.abort(new Error('timeout'));
  await assert.rejects(aborted, /timeout/);
  release();
  assert.deepEqual(names([await q.receive()]), ['init-0']);
});

test('stopping during the initial events closes the source', async () => {
  let closed = false;
  const q = new WatchQueue<Obj>();
  q.sendInitial(
    (function* () {
      try {
        for (let i = 0; ; i++) yield added(`init-${i}`);
      } finally {
        closed = true;
      }
    })(),
  );
  await q.receive();
  q.stop();
  assert.equal(closed, true);
  assert.equal(await q.receive(), undefined);
});
