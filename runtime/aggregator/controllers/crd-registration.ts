import type { CustomResourceDefinitionInformer } from '../../../generated/informers/apiextensions/v1/customresourcedefinition.js';
import type { CustomResourceDefinition } from '../../../apis/apiextensions/v1/types.js';
import { isDeletedFinalStateUnknown, RateLimitingQueue, runController, waitForCacheSync, type DeepReadonly } from '../../client/index.js';
import { apiServiceName } from '../apiservice.js';
import { CRD_API_SERVICE_PRIORITY, localAPIService } from '../priorities.js';
import type { AutoAPIServiceRegistration } from './autoregister.js';
import { onErrorOf } from './lookup.js';

export interface CRDRegistrationControllerOptions {
  readonly informer: CustomResourceDefinitionInformer;
  readonly registration: Pick<AutoAPIServiceRegistration, 'addAPIServiceToSync' | 'removeAPIServiceToSync'>;
  /** Group versions the servers serve themselves: a CRD claiming one never touches its APIService. */
  readonly isBuiltinGroupVersion?: (group: string, version: string) => boolean;
  readonly onError?: (key: string, err: unknown) => void;
}

type CachedCRD = DeepReadonly<CustomResourceDefinition>;

/**
 * The CRD registration controller (kube-apiserver's crdRegistrationController): every group
 * version some CRD serves gets a local APIService, kept by the autoregister controller
 * (continuously, priorities 1000/100); when no CRD serves it any more it is handed back, and
 * the autoregister controller deletes it. Keys are `<group>/<version>`.
 */
export class CRDRegistrationController {
  private readonly queue = new RateLimitingQueue<string>();
  private readonly onError: (key: string, err: unknown) => void;
  private initialSync!: () => void;
  private readonly initiallySynced = new Promise<void>((resolve) => {
    this.initialSync = resolve;
  });

  constructor(private readonly o: CRDRegistrationControllerOptions) {
    this.onError = onErrorOf(o.onError, 'crd-autoregister');
    const enqueue = (crd: CachedCRD): void => {
      for (const v of crd.spec.versions) this.queue.add(`${crd.spec.group}/${v.name}`);
    };
    o.informer.informer().addEventHandler({
      onAdd: enqueue,
      // The old object too: a version the new one dropped must lose its APIService.
      onUpdate: (old, crd) => {
        enqueue(old);
        enqueue(crd);
      },
      onDelete: (crd) => enqueue(isDeletedFinalStateUnknown(crd) ? crd.obj : crd),
    });
  }

  /**
   * Waits for the informer, registers every group version it holds (then waitForInitialSync()
   * resolves), and follows changes until `signal` aborts.
   */
  async run(signal: AbortSignal): Promise<void> {
    const informer = this.o.informer.informer();
    if (!(await waitForCacheSync(signal, [() => informer.hasSynced()]))) return;
    for (const crd of this.o.informer.lister().list()) {
      for (const v of crd.spec.versions) this.handleVersionUpdate(crd.spec.group, v.name);
    }
    this.initialSync();
    await runController({
      queue: this.queue,
      signal,
      reconcile: (key) => {
        const slash = key.indexOf('/');
        this.handleVersionUpdate(key.slice(0, slash), key.slice(slash + 1));
      },
      onError: this.onError,
    });
  }

  /** Resolves once the CRDs present at start have been handed to the autoregister controller. */
  waitForInitialSync(): Promise<void> {
    return this.initiallySynced;
  }

  private handleVersionUpdate(group: string, version: string): void {
    if (this.o.isBuiltinGroupVersion?.(group, version) === true) return;
    const name = apiServiceName(group, version);
    const served = this.o.informer
      .lister()
      .list()
      .some((crd) => crd.spec.group === group && crd.spec.versions.some((v) => v.name === version && v.served));
    if (served) this.o.registration.addAPIServiceToSync(localAPIService(group, version, CRD_API_SERVICE_PRIORITY));
    else this.o.registration.removeAPIServiceToSync(name);
  }
}
