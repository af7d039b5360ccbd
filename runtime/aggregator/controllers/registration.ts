import type { APIServiceInformer } from '../../../generated/informers/apiregistration/v1/apiservice.js';
import { isDeletedFinalStateUnknown, RateLimitingQueue, runController, waitForCacheSync } from '../../client/index.js';
import type { CachedAPIService } from '../apiservice.js';
import { getCached, onErrorOf } from './lookup.js';

/** What the registration controller drives (the aggregator's AddAPIService/RemoveAPIService). */
export interface APIServiceHandling {
  addAPIService(svc: CachedAPIService): void;
  removeAPIService(name: string): void;
}

export interface APIServiceRegistrationControllerOptions {
  readonly informer: APIServiceInformer;
  readonly handling: APIServiceHandling;
  readonly onError?: (key: string, err: unknown) => void;
}

/**
 * kube-aggregator's APIServiceRegistrationController: every APIService the informer holds is
 * handed to the aggregator's handling, every change again, and a deleted one removed. One worker:
 * handlers are added and removed from one place at a time.
 */
export class APIServiceRegistrationController {
  private readonly queue = new RateLimitingQueue<string>();
  private readonly onError: (key: string, err: unknown) => void;
  private markInitiated!: () => void;
  private readonly initiatedPromise = new Promise<void>((resolve) => {
    this.markInitiated = resolve;
  });

  constructor(private readonly o: APIServiceRegistrationControllerOptions) {
    this.onError = onErrorOf(o.onError, 'APIServiceRegistrationController');
    const enqueue = (svc: CachedAPIService): void => this.queue.add(svc.metadata?.name ?? '');
    o.informer.informer().addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, svc) => enqueue(svc),
      onDelete: (svc) => enqueue(isDeletedFinalStateUnknown(svc) ? svc.obj : svc),
    });
  }

  /**
   * Waits for the informer, handles every APIService it holds (then initiated() resolves: the
   * aggregator knows every APIService present at start), and follows changes until `signal` aborts.
   */
  async run(signal: AbortSignal): Promise<void> {
    const informer = this.o.informer.informer();
    if (!(await waitForCacheSync(signal, [() => informer.hasSynced()]))) return;
    for (const svc of this.o.informer.lister().list()) this.sync(svc.metadata?.name ?? '');
    this.markInitiated();
    await runController({ queue: this.queue, signal, reconcile: (name) => this.sync(name), onError: this.onError });
  }

  /** Resolves once the APIServices present at start are handled. */
  initiated(): Promise<void> {
    return this.initiatedPromise;
  }

  private sync(name: string): void {
    const svc = getCached(this.o.informer.lister(), name);
    if (svc === undefined) this.o.handling.removeAPIService(name);
    else this.o.handling.addAPIService(svc);
  }
}
