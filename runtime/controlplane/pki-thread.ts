import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { pkiOf, pkiPlan, readPKI, type PKI } from './certs.js';
import type { KeyPairPEM } from './pki-make.js';
import type { PKIAnswer, PKIJob } from './pki-worker.js';

/**
 * ensurePKI with the making on a thread of its own: a first start signs its certificates (and
 * loads the x509 library, most of the cost) on another core while this thread loads and
 * assembles the control plane, and this thread's heap never holds the library. An existing PKI
 * is read here, with no thread started.
 */
export function ensurePKIOffThread(dataDir: string, opts: { hosts: readonly string[] }): Promise<PKI> {
  const dir = join(dataDir, 'pki');
  const plan = pkiPlan(opts.hosts);
  try {
    const existing = readPKI(dir, plan);
    if (existing !== undefined) return Promise.resolve(existing);
  } catch (err) {
    return Promise.reject(err);
  }
  return makeOnThread({ dir, plan }).then((pairs) => pkiOf(dir, pairs));
}

/** The pairs of job.plan, made by a thread running `entry` (a test names one of its own). */
export function makeOnThread(job: PKIJob, entry?: URL): Promise<Record<string, KeyPairPEM>> {
  // In the executor: no entry found, or a thread that cannot start, rejects like any failure.
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void): void => {
      if (settled) return;
      settled = true;
      f();
    };
    const w = spawn(job, entry ?? workerEntry());
    w.once('message', (answer: PKIAnswer) => settle(() => (answer.kind === 'made' ? resolve(answer.pairs) : reject(errorOf(answer)))));
    w.once('error', (err) => settle(() => reject(err)));
    // A thread that ends without answering (killed, out of memory) fails the start instead of hanging it.
    w.once('exit', (code) => settle(() => reject(new Error(`the thread making the PKI in ${job.dir} exited with code ${code} before it answered`))));
  });
}

function spawn(job: PKIJob, entry: URL): Worker {
  // A TypeScript entry (running from source under tsx): the thread registers tsx's loader
  // itself first, as loader hooks of the main thread do not reach worker threads.
  return entry.pathname.endsWith('.ts')
    ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, { eval: true, workerData: job })
    : new Worker(entry, { workerData: job });
}

/**
 * The thread's entry beside this module: `pki-worker.mjs` next to the bundle `npm start` runs
 * (hack/start.mjs builds it; this module may be in one of the bundle's chunks, a directory below),
 * the source `pki-worker.ts` (from source through tsx), or a compiled `pki-worker.js`.
 */
function workerEntry(): URL {
  for (const name of ['./pki-worker.mjs', '../pki-worker.mjs', './pki-worker.ts', './pki-worker.js']) {
    const url = new URL(name, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  throw new Error(`no PKI worker beside ${import.meta.url}`);
}

/** The thread's error, as this thread would have thrown it: same class name, message, code. */
function errorOf(answer: Extract<PKIAnswer, { kind: 'error' }>): Error {
  const err = new Error(answer.message);
  if (answer.name !== 'Error') err.name = answer.name;
  if (answer.code !== undefined) (err as NodeJS.ErrnoException).code = answer.code;
  if (answer.stack !== undefined) err.stack = answer.stack;
  return err;
}
