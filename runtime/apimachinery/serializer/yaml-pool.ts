import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { newInternalError, StatusError } from '../errors/index.js';
import type { DecodedBody, DecodeOptions } from './decode.js';
import type { YAMLAnswer, YAMLJob } from './yaml-worker.js';

/**
 * YAML bodies larger than this are decoded on a worker thread: the YAML library needs seconds
 * for a body of a few MiB, which on the event loop would stall every other request. Smaller
 * bodies decode in well under a millisecond per KiB, cheaper than a round trip to a thread.
 */
export const YAML_OFF_THREAD_BYTES = 64 * 1024;

/** At most this many decoding threads (a body each); more large bodies wait for one. */
const MAX_WORKERS = 2;

/**
 * The worker's entry beside this module: `yaml-worker.mjs` next to the bundle `npm start` runs
 * (hack/start.mjs builds it; this module is then in one of the bundle's chunks, a directory below),
 * or the source `yaml-worker.ts` (when running from source through tsx), or a compiled `yaml-worker.js`.
 */
function workerEntry(): URL {
  for (const name of ['./yaml-worker.mjs', '../yaml-worker.mjs', './yaml-worker.ts', './yaml-worker.js']) {
    const url = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new Error(`no YAML decoding worker beside ${import.meta.url}`);
}

const idle: Worker[] = [];
const waiting: Array<(w: Worker) => void> = [];
let live = 0;

function spawn(): Worker {
  live++;
  const entry = workerEntry();
  // A TypeScript entry (running from source under tsx): the worker registers tsx's loader
  // itself first, as loader hooks of the main thread do not reach worker threads.
  const w = entry.pathname.endsWith('.ts')
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true })
    : new Worker(entry);
  w.unref(); // idle decoders never keep the process alive
  w.once('exit', () => {
    const i = idle.indexOf(w);
    if (i >= 0) idle.splice(i, 1);
  });
  return w;
}

/** An idle worker, a new one below MAX_WORKERS, or the next one released. */
function acquire(signal: AbortSignal | undefined): Promise<Worker> {
  const w = idle.pop() ?? (live < MAX_WORKERS ? spawn() : undefined);
  if (w !== undefined) return Promise.resolve(w);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      const i = waiting.indexOf(take);
      if (i >= 0) waiting.splice(i, 1);
      reject(signal?.reason);
    };
    const take = (worker: Worker): void => {
      signal?.removeEventListener('abort', onAbort);
      resolve(worker);
    };
    waiting.push(take);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function release(w: Worker): void {
  const next = waiting.shift();
  if (next !== undefined) next(w);
  else idle.push(w);
}

/** A worker that was terminated or failed: its place goes to a new one when someone waits. */
function discard(w: Worker): void {
  live--;
  void w.terminate();
  if (waiting.length > 0) release(spawn());
}

/**
 * decodeYAMLBody on a worker thread, with the same limits and the same answers (the decoded
 * value and duplicate fields, or the decoder's StatusError). When `signal` aborts (the request
 * timed out or its client went away) the worker is terminated mid-decode and the promise
 * rejects with the signal's reason; the pool starts another worker when one is needed.
 */
export async function decodeYAMLBodyOffThread(bytes: Uint8Array, opts: DecodeOptions, signal?: AbortSignal): Promise<DecodedBody> {
  signal?.throwIfAborted();
  const worker = await acquire(signal);
  if (signal?.aborted === true) {
    release(worker);
    throw signal.reason;
  }
  return new Promise<DecodedBody>((resolve, reject) => {
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
    };
    const onMessage = (a: YAMLAnswer): void => {
      done();
      release(worker);
      // JSON.parse makes a `__proto__` key an own property, as the decoder did.
      if (a.kind === 'decoded') resolve({ value: JSON.parse(a.json) as unknown, duplicateFields: a.duplicateFields, yamlDuplicateKeys: a.yamlDuplicateKeys });
      else reject(a.kind === 'status' ? new StatusError(a.status) : newInternalError(new Error(a.message)));
    };
    const onError = (err: Error): void => {
      done();
      discard(worker);
      reject(newInternalError(err));
    };
    const onExit = (code: number): void => onError(new Error(`the YAML decoding worker exited with code ${code}`));
    const onAbort = (): void => {
      done();
      discard(worker);
      reject(signal?.reason);
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    const job: YAMLJob = {
      bytes,
      opts: {
        ...(opts.kind === undefined ? {} : { kind: opts.kind }),
        ...(opts.maxDepth === undefined ? {} : { maxDepth: opts.maxDepth }),
        ...(opts.maxAliasCount === undefined ? {} : { maxAliasCount: opts.maxAliasCount }),
      },
    };
    worker.postMessage(job);
  });
}
