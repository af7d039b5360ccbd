import { isConflict, isNotFound } from '../../apimachinery/errors/index.js';
import { RateLimitingQueue, runController } from '../../client/index.js';
import { crdKey, ESTABLISHED, isConditionTrue, mutableCopy, NAMES_ACCEPTED, setCondition } from './conditions.js';
import { getCRD, onErrorOf, type CachedCRD, type CRDControllerDeps } from './deps.js';

/**
 * The establishing controller (apiextensions' establish.EstablishingController): sets
 * Established=True/InitialNamesAccepted on a CRD whose names are accepted. In kube the CRD
 * handler queues the CRD once it can serve it (after 5 s with several API servers); here the
 * handler serves from the same informer cache this controller watches, so a CRD with accepted
 * names is servable by the time it is reconciled, and it is queued at once. (kube's
 * InvalidCABundle check belongs to CRD validation here: a CRD with a bad caBundle is refused.)
 */
export class EstablishingController {
  private readonly queue = new RateLimitingQueue<string>();

  constructor(private readonly o: CRDControllerDeps) {
    const consider = (crd: CachedCRD): void => {
      if (needsEstablishing(crd)) this.queue.add(crdKey(crd));
    };
    o.informer.informer().addEventHandler({ onAdd: consider, onUpdate: (_old, crd) => consider(crd) });
  }

  /** Reconciles until `signal` aborts; the informer must have synced. */
  run(signal: AbortSignal): Promise<void> {
    return runController({ queue: this.queue, signal, reconcile: (key, s) => this.sync(key, s), onError: onErrorOf(this.o, 'EstablishingController') });
  }

  private async sync(name: string, signal: AbortSignal): Promise<void> {
    const crd = getCRD(this.o, name);
    if (crd === undefined || !needsEstablishing(crd)) return;
    const copy = mutableCopy(crd);
    setCondition(copy, { type: ESTABLISHED, status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }, this.o.now?.() ?? new Date());
    try {
      await this.o.crds.updateStatus(copy, { signal });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }
}

function needsEstablishing(crd: CachedCRD): boolean {
  return isConditionTrue(crd, NAMES_ACCEPTED) && !isConditionTrue(crd, ESTABLISHED);
}
