/**
 * Entry of the thread that makes a first start's PKI (pki-thread.ts): makes what is missing of
 * the plan it is given, answers the pairs by name (or the error as data), and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { makePKI, type KeyPairPEM, type PKIPlan } from './pki-make.js';

export interface PKIJob {
  readonly dir: string;
  readonly plan: PKIPlan;
}

export type PKIAnswer =
  | { readonly kind: 'made'; readonly pairs: Record<string, KeyPairPEM> }
  /** An Error's own fields: a thrown object crosses threads without its class. */
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly code?: string; readonly stack?: string };

const job = workerData as PKIJob;
makePKI(job.dir, job.plan).then(
  (pairs) => parentPort?.postMessage({ kind: 'made', pairs } satisfies PKIAnswer),
  (err: unknown) => parentPort?.postMessage(errorAnswer(err)),
);

function errorAnswer(err: unknown): PKIAnswer {
  if (!(err instanceof Error)) return { kind: 'error', name: 'Error', message: String(err) };
  const code = (err as NodeJS.ErrnoException).code;
  return { kind: 'error', name: err.name, message: err.message, ...(typeof code === 'string' ? { code } : {}), ...(err.stack !== undefined ? { stack: err.stack } : {}) };
}
