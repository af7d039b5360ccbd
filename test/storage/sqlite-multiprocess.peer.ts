// The test side of sqlite-multiprocess.child.ts: starts a child on a SQLite file, sends it
// commands, collects its watch streams and acknowledged writes, and checks a watch stream
// against the writes every process acknowledged.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Command, WireAck, WireEvent } from './sqlite-multiprocess.child.js';

const here = dirname(fileURLToPath(import.meta.url));

type Reply = { id: number; result?: unknown; error?: { name: string; message: string }; events?: WireEvent[]; watchError?: { name: string; message: string }; ack?: WireAck };
type Distribute<C> = C extends unknown ? Omit<C, 'id'> : never;
export type Request = Distribute<Command>;

/** One watch opened in a child: the events it delivered so far, and its error if it ended. */
export interface RemoteWatch {
  events: WireEvent[];
  error?: { name: string; message: string };
}

/** Polls `ready` every 20 ms until it holds; fails after `timeoutMs` with `what`. */
export async function until(ready: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export class Peer {
  private nextId = 1;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly watches = new Map<number, RemoteWatch>();
  private readonly acks = new Map<number, WireAck[]>();
  readonly exited: Promise<void>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((r) => child.once('exit', () => r()));
  }

  /** Starts a child on `db` and waits until its SqliteKV is open (not before `openAt`, epoch ms). */
  static async start(db: string, name: string, openAt?: number): Promise<Peer> {
    const args = [join(here, 'sqlite-multiprocess.child.ts'), db, name, ...(openAt === undefined ? [] : [String(openAt)])];
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: resolve(here, '../..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const peer = new Peer(name, child);
    const lines = createInterface({ input: child.stdout! });
    const ready = new Promise<void>((resolveReady, rejectReady) => {
      child.once('exit', (code, signal) => rejectReady(new Error(`${name} exited (${code ?? signal}) before it was ready`)));
      lines.on('line', (line) => {
        const msg = JSON.parse(line) as Reply | { ready: string };
        if ('ready' in msg) resolveReady();
        else peer.dispatch(msg);
      });
    });
    await ready;
    return peer;
  }

  /** Sends a command; resolves with its result, rejects with its error (name and message kept). */
  call<T = unknown>(req: Request): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((res, rej) => {
      this.calls.set(id, { resolve: res as (v: unknown) => void, reject: rej });
      this.child.stdin!.write(`${JSON.stringify({ ...req, id })}\n`);
    });
  }

  /** Opens a watch in the child; its events accumulate in the returned object. */
  async watch(key: string, rangeEnd: string, startRevision: number): Promise<RemoteWatch> {
    const id = this.nextId;
    const w: RemoteWatch = { events: [] };
    this.watches.set(id, w);
    await this.call({ cmd: 'watch', key, rangeEnd, startRevision });
    return w;
  }

  /** Runs a `write` command; resolves with every write it acknowledged. */
  async write(req: { prefix: string; keys: number; count: number; concurrency: number }): Promise<WireAck[]> {
    const id = this.nextId;
    const acks: WireAck[] = [];
    this.acks.set(id, acks);
    await this.call({ cmd: 'write', ...req });
    return acks;
  }

  /** Acknowledged writes of the `write` command started with the given request, so far (for kill -9). */
  startWrite(req: { prefix: string; keys: number; count: number; concurrency: number }): { acks: WireAck[]; done: Promise<unknown> } {
    const id = this.nextId;
    const acks: WireAck[] = [];
    this.acks.set(id, acks);
    return { acks, done: this.call({ cmd: 'write', ...req }) };
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  get signal(): NodeJS.Signals | null {
    return this.child.signalCode;
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await Promise.race([this.call({ cmd: 'close' }).catch(() => undefined), this.exited]);
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, 5000))]);
      if (this.child.exitCode === null) this.child.kill('SIGKILL');
    }
    await this.exited;
  }

  private dispatch(msg: Reply): void {
    if (msg.events) this.watches.get(msg.id)?.events.push(...msg.events);
    else if (msg.watchError) {
      const w = this.watches.get(msg.id);
      if (w) w.error = msg.watchError;
    } else if (msg.ack) this.acks.get(msg.id)?.push(msg.ack);
    else {
      const call = this.calls.get(msg.id);
      this.calls.delete(msg.id);
      if (msg.error) call?.reject(Object.assign(new Error(msg.error.message), { name: msg.error.name }));
      else call?.resolve(msg.result);
    }
  }
}

/**
 * Checks one watch stream against the writes acknowledged by every process under its range
 * from revision `from` on: the same revisions, each once, in increasing order, every event
 * matching its write, and every previous value the one the key held before (the writes before
 * `from` give the keys' values at the start; absent on a create).
 */
export function assertExactStream(events: readonly WireEvent[], acks: readonly WireAck[], who: string, from = 0): void {
  const sorted = [...acks].sort((a, b) => a.rev - b.rev);
  const want = sorted.filter((a) => a.rev >= from);
  assert.deepEqual(
    events.map((e) => e.rev),
    want.map((a) => a.rev),
    `${who}: the stream's revisions must be every acknowledged write's, once, in order`,
  );
  const held = new Map<string, { rev: number; value: string }>();
  const apply = (a: { type: string; key: string; rev: number; value?: string }): void => {
    if (a.type === 'PUT') held.set(a.key, { rev: a.rev, value: a.value ?? '' });
    else held.delete(a.key);
  };
  sorted.filter((a) => a.rev < from).forEach(apply);
  events.forEach((e, i) => {
    const a = want[i]!;
    assert.equal(e.type, a.type, `${who}: event ${e.rev} type`);
    assert.equal(e.key, a.key, `${who}: event ${e.rev} key`);
    if (a.type === 'PUT') assert.equal(e.value, a.value, `${who}: event ${e.rev} value`);
    assert.deepEqual(e.prev, held.get(e.key), `${who}: event ${e.rev} previous value`);
    apply(e);
  });
}

/**
 * Checks a stream that may hold writes nobody acknowledged (a process killed after its commit,
 * before its answer): consecutive revisions from `from`, each previous value the one the stream
 * itself last gave the key, and every acknowledged write in it with its value.
 */
export function assertGaplessStream(events: readonly WireEvent[], acks: readonly WireAck[], who: string, from: number): void {
  const held = new Map<string, { rev: number; value: string }>();
  events.forEach((e, i) => {
    assert.equal(e.rev, from + i, `${who}: revisions must be consecutive (no gap, no duplicate)`);
    assert.deepEqual(e.prev, held.get(e.key), `${who}: event ${e.rev} previous value`);
    if (e.type === 'PUT') held.set(e.key, { rev: e.rev, value: e.value ?? '' });
    else held.delete(e.key);
  });
  const byRev = new Map(events.map((e) => [e.rev, e]));
  for (const a of acks) {
    const e = byRev.get(a.rev);
    assert.ok(e, `${who}: acknowledged write ${a.key}@${a.rev} missing from the stream`);
    assert.equal(e.key, a.key);
    assert.equal(e.type, a.type);
    if (a.type === 'PUT') assert.equal(e.value, a.value);
  }
}
