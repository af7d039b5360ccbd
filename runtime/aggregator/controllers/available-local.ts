import type { APIServiceInterface } from '../../../generated/clientset/apiregistration/v1/index.js';
import type { APIServiceInformer } from '../../../generated/informers/apiregistration/v1/apiservice.js';
import { RateLimitingQueue, runController, waitForCacheSync, type ReconcileResult } from '../../client/index.js';
import { isLocal, type CachedAPIService } from '../apiservice.js';
import { getCached, onErrorOf } from './lookup.js';
import { updateAvailableCondition, type AvailableVerdict } from './status.js';

export interface LocalAvailableControllerOptions {
  readonly informer: APIServiceInformer;
  readonly client: APIServiceInterface;
  readonly now?: () => Date;
  readonly onError?: (key: string, err: unknown) => void;
}

const LOCAL: AvailableVerdict = { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };

/** kube-aggregator's local availability controller: an APIService without a service is Available=True/Local. */
export class LocalAvailableController {
  private readonly queue = new RateLimitingQueue<string>();

  constructor(private readonly o: LocalAvailableControllerOptions) {
    const consider = (svc: CachedAPIService): void => {
      if (isLocal(svc)) this.queue.add(svc.metadata?.name ?? '');
    };
    o.informer.informer().addEventHandler({ onAdd: consider, onUpdate: (_old, svc) => consider(svc) });
  }

  /** Reconciles until `signal` aborts, once the informer has synced. */
  async run(signal: AbortSignal): Promise<void> {
    const informer = this.o.informer.informer();
    if (!(await waitForCacheSync(signal, [() => informer.hasSynced()]))) return;
    await runController({ queue: this.queue, signal, workers: 2, reconcile: (name, s) => this.sync(name, s), onError: onErrorOf(this.o.onError, 'LocalAvailableConditionController') });
  }

  private async sync(name: string, signal: AbortSignal): Promise<ReconcileResult | void> {
    const svc = getCached(this.o.informer.lister(), name);
    if (svc === undefined || !isLocal(svc)) return;
    if (!(await updateAvailableCondition(this.o.client, svc, LOCAL, this.o.now?.() ?? new Date(), signal))) return { requeue: true };
  }
}
