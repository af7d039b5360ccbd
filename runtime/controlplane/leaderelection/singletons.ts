import { setMaxListeners } from 'node:events';
import type { ElectedTerm } from './elected.js';

/** One term of a set of controllers: fresh ones, running until `signal` aborts; resolves once they have stopped. */
export type SingletonTerm = (signal: AbortSignal) => Promise<void>;

/** The Lease under which kube-apiserver's own singleton controllers run (see SingletonControllers). */
export const APISERVER_SINGLETONS_LEASE = 'kube-apiserver-singleton-controllers';

/**
 * The controllers of the API servers that write shared objects and so must run in one replica at
 * a time: the CRD establishing and finalizer controllers and the aggregator's availability,
 * autoregistration and CRD registration controllers. The servers hand them over as terms while
 * the chain is assembled; startTerm runs every term at once (one term of leadership of the Lease
 * kube-system/kube-apiserver-singleton-controllers).
 *
 * kube runs these in every kube-apiserver: its replicas share the same built-in groups, and its
 * writes are idempotent enough that the fight is harmless. Issue 17 asks for them to run once;
 * kube has no Lease for them, so the name is ours, in kube-system beside the API servers'
 * identity leases. What stays in every replica: discovery, OpenAPI, the CRD handler and the
 * APIService registration into the local aggregator's handlers.
 */
export class SingletonControllers {
  readonly #terms = new Map<string, SingletonTerm>();

  /** Registers a set; only before the first term starts. */
  add(name: string, term: SingletonTerm): void {
    if (this.#terms.has(name)) throw new Error(`singleton controllers ${JSON.stringify(name)} are already registered`);
    this.#terms.set(name, term);
  }

  /** Starts every set for one term; stop() aborts them and waits until all have stopped. */
  startTerm(onError: (name: string, err: unknown) => void): ElectedTerm {
    const term = new AbortController();
    // Every worker, request and wait of every set listens on it: many listeners, no leak.
    setMaxListeners(0, term.signal);
    const runs = [...this.#terms].map(([name, run]) => run(term.signal).catch((err: unknown) => onError(name, err)));
    return {
      stop: async () => {
        term.abort();
        await Promise.all(runs);
      },
    };
  }
}
