import { RateLimitingQueue, runController } from '../../client/index.js';
import { deletedCRD, onErrorOf, type CachedCRD, type CRDControllerDeps } from './deps.js';

/**
 * The loop the discovery and OpenAPI controllers share: keyed by group/version, fed by every CRD
 * event (the old object's versions too, so a version a CRD dropped is published again without
 * it), a first pass over the synced cache, then the work queue until the signal aborts.
 */
export class GroupVersionController {
  private readonly queue = new RateLimitingQueue<string>();

  constructor(
    private readonly deps: CRDControllerDeps,
    private readonly name: string,
    /** Publishes (or removes) what `group`/`version` is as the informer's cache now has it. */
    private readonly sync: (group: string, version: string) => void,
  ) {
    const enqueue = (crd: CachedCRD): void => {
      for (const v of crd.spec.versions) this.queue.add(`${crd.spec.group}/${v.name}`);
    };
    deps.informer.informer().addEventHandler({
      onAdd: enqueue,
      onUpdate: (old, crd) => {
        enqueue(crd);
        enqueue(old);
      },
      onDelete: (crd) => enqueue(deletedCRD(crd)),
    });
  }

  /** Publishes every group version the synced informer knows, calls `synced`, then reconciles changes until `signal` aborts. */
  run(signal: AbortSignal, synced?: () => void): Promise<void> {
    const onError = onErrorOf(this.deps, this.name);
    for (const crd of this.deps.informer.lister().list()) {
      for (const v of crd.spec.versions) {
        const key = `${crd.spec.group}/${v.name}`;
        try {
          this.reconcile(key);
        } catch (err) {
          // Retried by the loop below, with the queue's backoff.
          onError(key, err);
          this.queue.addRateLimited(key);
        }
      }
    }
    synced?.();
    return runController({ queue: this.queue, signal, reconcile: (key) => this.reconcile(key), onError });
  }

  private reconcile(key: string): void {
    const slash = key.indexOf('/');
    this.sync(key.slice(0, slash), key.slice(slash + 1));
  }
}
