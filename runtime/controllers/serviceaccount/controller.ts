import type { Namespace } from '../../../apis/core/v1/types.js';
import type { ServiceAccount } from '../../../apis/core/v1/serviceaccount.js';
import type { CoreV1Client } from '../../../generated/clientset/core/v1/index.js';
import { newNamespaceInformer, type NamespaceInformer } from '../../../generated/informers/core/v1/namespace.js';
import { newServiceAccountInformer, type ServiceAccountInformer } from '../../../generated/informers/core/v1/serviceaccount.js';
import { DeletedFinalStateUnknown, isAlreadyExists, isStatusError, ListerNotFoundError, runController, waitForCacheSync } from '../../client/index.js';
import { aggregateMessage } from '../../apimachinery/errors/aggregate.js';
import type { DeepReadonly, RESTClient, SharedInformerFactoryCore } from '../../client/index.js';
import { coreV1Clients } from '../core-clients.js';
import { QueueWorker } from '../worker.js';

/** kube's default: every namespace gets a `default` service account (DefaultServiceAccountsControllerOptions). */
export const DEFAULT_SERVICE_ACCOUNTS: readonly string[] = ['default'];

/** The identity kube-controller-manager runs this controller as. */
export const SERVICE_ACCOUNT_CONTROLLER_USER = 'system:serviceaccount:kube-system:service-account-controller';

export interface ServiceAccountsControllerOptions {
  /** Where the controller's writes go: its own identity (SERVICE_ACCOUNT_CONTROLLER_USER). */
  readonly rest: RESTClient;
  /**
   * A shared informer factory to take the Namespace and ServiceAccount informers from (its owner
   * starts and stops it); absent: the controller runs its own over `rest`.
   */
  readonly informers?: { readonly factory: SharedInformerFactoryCore; readonly rest: RESTClient };
  /** The service accounts to ensure in every active namespace. Default DEFAULT_SERVICE_ACCOUNTS. */
  readonly serviceAccounts?: readonly string[];
  /** Sync errors before the retry; default a line on stderr (utilruntime.HandleError). */
  readonly onError?: (namespace: string, err: unknown) => void;
}

/**
 * kube's ServiceAccountsController (pkg/controller/serviceaccount/serviceaccounts_controller.go):
 * every Active namespace has the service accounts to ensure (`default`). A namespace is synced
 * when it is added or updated and when one of its service accounts is deleted, so a deleted
 * `default` comes back. Namespaces that are not Active (Terminating) get nothing; a create that
 * the server refuses because the namespace began terminating in the meantime is not an error.
 */
export class ServiceAccountsController {
  private readonly client: CoreV1Client;
  private readonly namespaces: NamespaceInformer;
  private readonly serviceAccounts: ServiceAccountInformer;
  private readonly worker: QueueWorker<string>;

  constructor(private readonly o: ServiceAccountsControllerOptions) {
    const { client, listWatch: clientset } = coreV1Clients(o);
    this.client = client;
    this.worker = new QueueWorker(o.informers?.factory);
    const factory = this.worker.factory;
    this.namespaces = newNamespaceInformer(factory, clientset);
    this.serviceAccounts = newServiceAccountInformer(factory, clientset);
    const enqueueNamespace = (ns: DeepReadonly<Namespace>): void => this.enqueue(ns.metadata?.name);
    this.namespaces.informer().addEventHandler({ onAdd: enqueueNamespace, onUpdate: (_old, ns) => enqueueNamespace(ns) });
    this.serviceAccounts.informer().addEventHandler({
      onDelete: (obj) => {
        const sa: DeepReadonly<ServiceAccount> = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
        this.enqueue(sa.metadata?.namespace);
      },
    });
  }

  /** Starts the informers (when they are the controller's own) and the worker. */
  start(): void {
    this.worker.start((signal) => this.run(signal));
  }

  /** Stops the worker (a sync in progress finishes) and the controller's own informers. */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  private enqueue(namespace: string | undefined): void {
    if (namespace !== undefined && namespace !== '') this.worker.queue.add(namespace);
  }

  private async run(signal: AbortSignal): Promise<void> {
    const synced = [() => this.namespaces.informer().hasSynced(), () => this.serviceAccounts.informer().hasSynced()];
    if (!(await waitForCacheSync(signal, synced))) return;
    const onError = this.o.onError ?? ((ns: string, err: unknown) => process.stderr.write(`serviceaccount controller: syncing namespace ${ns}: ${err instanceof Error ? err.message : String(err)}\n`));
    await runController({ queue: this.worker.queue, signal, reconcile: (ns) => this.syncNamespace(ns), onError });
  }

  /** syncNamespace: creates each service account to ensure that the namespace lacks, if it is Active. */
  async syncNamespace(name: string): Promise<void> {
    const ns = this.cached(() => this.namespaces.lister().get(name));
    if (ns === undefined || ns.status?.phase !== 'Active') return;
    const failures: unknown[] = [];
    for (const saName of this.o.serviceAccounts ?? DEFAULT_SERVICE_ACCOUNTS) {
      if (this.cached(() => this.serviceAccounts.lister().namespace(name).get(saName)) !== undefined) continue;
      try {
        await this.client.serviceaccounts(name).create({ metadata: { name: saName, namespace: name } });
      } catch (err) {
        if (!isAlreadyExists(err) && !namespaceTerminating(err)) failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, aggregateMessage(failures));
  }

  private cached<T>(get: () => T): T | undefined {
    try {
      return get();
    } catch (err) {
      if (err instanceof ListerNotFoundError) return undefined;
      throw err;
    }
  }
}

/** apierrors.HasStatusCause(err, NamespaceTerminatingCause): NamespaceLifecycle refused the write. */
function namespaceTerminating(err: unknown): boolean {
  return isStatusError(err) && (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}
