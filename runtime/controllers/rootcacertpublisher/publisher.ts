import type { ConfigMap } from '../../../apis/core/v1/configmap.js';
import type { Namespace } from '../../../apis/core/v1/types.js';
import type { CoreV1Client } from '../../../generated/clientset/core/v1/index.js';
import { newConfigMapInformer, type ConfigMapInformer } from '../../../generated/informers/core/v1/configmap.js';
import { newNamespaceInformer, type NamespaceInformer } from '../../../generated/informers/core/v1/namespace.js';
import { deepCopy, DeletedFinalStateUnknown, isNotFound, isStatusError, ListerNotFoundError, newSharedInformerFactoryCore, runController, waitForCacheSync } from '../../client/index.js';
import type { DeepReadonly, RESTClient, SharedInformerFactoryCore } from '../../client/index.js';
import { coreV1Clients } from '../core-clients.js';
import { QueueWorker } from '../worker.js';

/** The ConfigMap published in every namespace (RootCACertConfigMapName). */
export const ROOT_CA_CERT_CONFIG_MAP_NAME = 'kube-root-ca.crt';
/** The key of the CA bundle in its data. */
export const ROOT_CA_CERT_KEY = 'ca.crt';
/** kube's DescriptionAnnotation and Description, word for word. */
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCACertPublisherOptions {
  /** Where the controller's writes go: its own identity (system:serviceaccount:kube-system:root-ca-cert-publisher). */
  readonly rest: RESTClient;
  /**
   * A shared informer factory to take the Namespace informer from (its owner starts and stops
   * it), and the client its informers list and watch through; absent: the controller runs its own
   * over `rest`. The ConfigMap informer is always the controller's own (see the class).
   */
  readonly informers?: { readonly factory: SharedInformerFactoryCore; readonly rest: RESTClient };
  /** The CA bundle (PEM) that verifies the API server's serving certificate. */
  readonly rootCA: string;
  /** Sync errors before the retry; default a line on stderr (utilruntime.HandleError). */
  readonly onError?: (namespace: string, err: unknown) => void;
}

/**
 * kube's root-ca-cert-publisher (pkg/controller/certificates/rootcacertpublisher/publisher.go):
 * every namespace holds the ConfigMap kube-root-ca.crt whose `ca.crt` is the CA bundle, with
 * kube's description annotation. A namespace is synced when it is added, when it is updated
 * while Active, and when its kube-root-ca.crt is updated or deleted: a deleted one is created
 * again, edited data is put back, one already right is not written. Creating into a namespace
 * that is gone or terminating is not an error (nothing to retry).
 *
 * The ConfigMap informer lists and watches only kube-root-ca.crt (field selector
 * metadata.name=kube-root-ca.crt), so the controller does not cache every ConfigMap of the cluster
 * (up to 1 MiB each) to read one name per namespace; kube 1.32 takes the unfiltered shared
 * informer and ignores other names in its handlers, which this one does too. A filter is the
 * factory's, so this informer comes from a factory of its own, started and stopped with the
 * controller.
 */
export class RootCACertPublisher {
  private readonly client: CoreV1Client;
  private readonly namespaces: NamespaceInformer;
  private readonly configMaps: ConfigMapInformer;
  private readonly configMapFactory: SharedInformerFactoryCore;
  private readonly worker: QueueWorker<string>;

  constructor(private readonly o: RootCACertPublisherOptions) {
    const { client, listWatch: clientset } = coreV1Clients(o);
    this.client = client;
    this.worker = new QueueWorker(o.informers?.factory);
    this.configMapFactory = newSharedInformerFactoryCore({ tweakListOptions: (opts) => ({ ...opts, fieldSelector: `metadata.name=${ROOT_CA_CERT_CONFIG_MAP_NAME}` }) });
    this.configMaps = newConfigMapInformer(this.configMapFactory, clientset);
    this.namespaces = newNamespaceInformer(this.worker.factory, clientset);
    this.configMaps.informer().addEventHandler({ onUpdate: (_old, cm) => this.configMapUpdated(cm), onDelete: (obj) => this.configMapDeleted(obj) });
    this.namespaces.informer().addEventHandler({ onAdd: (ns) => this.namespaceAdded(ns), onUpdate: (_old, ns) => this.namespaceUpdated(ns) });
  }

  /** Starts the ConfigMap informer, the Namespace informer when it is the controller's own, and the worker. */
  start(): void {
    this.configMapFactory.start();
    this.worker.start((signal) => this.run(signal));
  }

  /** Stops the worker (a sync in progress finishes) and the controller's own informers. */
  async stop(): Promise<void> {
    await this.worker.stop();
    await this.configMapFactory.shutdown();
  }

  /** The informer of kube-root-ca.crt ConfigMaps the controller reads. */
  configMapInformer(): ConfigMapInformer {
    return this.configMaps;
  }

  // The informer handlers, by kube's names (its tests call them directly, as ours do).

  /** A kube-root-ca.crt was deleted: its namespace gets it again. */
  configMapDeleted(obj: DeepReadonly<ConfigMap> | DeletedFinalStateUnknown<ConfigMap>): void {
    const cm = obj instanceof DeletedFinalStateUnknown ? obj.obj : obj;
    if (cm.metadata?.name === ROOT_CA_CERT_CONFIG_MAP_NAME) this.enqueue(cm.metadata.namespace);
  }

  /** A kube-root-ca.crt changed: its data and annotation are checked again. */
  configMapUpdated(cm: DeepReadonly<ConfigMap>): void {
    if (cm.metadata?.name === ROOT_CA_CERT_CONFIG_MAP_NAME) this.enqueue(cm.metadata.namespace);
  }

  /** Every new namespace is synced, whatever its phase (a terminating one refuses the create). */
  namespaceAdded(ns: DeepReadonly<Namespace>): void {
    this.enqueue(ns.metadata?.name);
  }

  /** An updated namespace is synced only while Active. */
  namespaceUpdated(ns: DeepReadonly<Namespace>): void {
    if (ns.status?.phase === 'Active') this.enqueue(ns.metadata?.name);
  }

  /**
   * One step of the worker (kube's processNextWorkItem, the step runController repeats): syncs the
   * next queued namespace, forgetting it on success and requeueing it rate-limited on error.
   * Resolves false once the queue has shut down.
   */
  async processNextWorkItem(): Promise<boolean> {
    const next = await this.worker.queue.get();
    if (next.shutdown) return false;
    try {
      await this.syncNamespace(next.item);
      this.worker.queue.forget(next.item);
    } catch (err) {
      this.onError(next.item, err);
      this.worker.queue.addRateLimited(next.item);
    } finally {
      this.worker.queue.done(next.item);
    }
    return true;
  }

  /** Namespaces waiting to be synced. */
  queueLength(): number {
    return this.worker.queue.len();
  }

  private enqueue(namespace: string | undefined): void {
    if (namespace !== undefined && namespace !== '') this.worker.queue.add(namespace);
  }

  private async run(signal: AbortSignal): Promise<void> {
    // kube waits for the ConfigMap informer only: a sync reads nothing else.
    if (!(await waitForCacheSync(signal, [() => this.configMaps.informer().hasSynced()]))) return;
    await runController({ queue: this.worker.queue, signal, reconcile: (ns) => this.syncNamespace(ns), onError: (ns, err) => this.onError(ns, err) });
  }

  private onError(namespace: string, err: unknown): void {
    if (this.o.onError !== undefined) this.o.onError(namespace, err);
    else process.stderr.write(`root-ca-cert-publisher: syncing ${JSON.stringify(namespace)} failed: ${err instanceof Error ? err.message : String(err)}\n`);
  }

  /**
   * syncNamespace: creates kube-root-ca.crt in the namespace when the cache has none, or updates
   * it when its data is not exactly `{ca.crt: <bundle>}` or the description annotation is empty,
   * writing kube's description then. A different non-empty description alone is no reason to
   * write (TestConfigMapUpdateNoHotLoop), so a writer of another text never fights this one.
   */
  async syncNamespace(namespace: string): Promise<void> {
    const cm = this.cachedConfigMap(namespace);
    if (cm === undefined) {
      try {
        await this.client.configmaps(namespace).create({
          metadata: { name: ROOT_CA_CERT_CONFIG_MAP_NAME, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data: { [ROOT_CA_CERT_KEY]: this.o.rootCA },
        });
      } catch (err) {
        // the namespace is gone or terminating: nothing to retry
        if (isNotFound(err) || namespaceTerminating(err)) return;
        throw err;
      }
      return;
    }
    if (this.upToDate(cm)) return;
    const updated = deepCopy(cm);
    updated.data = { [ROOT_CA_CERT_KEY]: this.o.rootCA };
    (updated.metadata ??= {}).annotations ??= {};
    updated.metadata.annotations[DESCRIPTION_ANNOTATION] = DESCRIPTION;
    await this.client.configmaps(namespace).update(updated as ConfigMap);
  }

  /** reflect.DeepEqual(cm.Data, {ca.crt: rootCA}) && len(annotation) > 0. */
  private upToDate(cm: DeepReadonly<ConfigMap>): boolean {
    const data = cm.data;
    if (data === undefined || Object.keys(data).length !== 1 || !Object.hasOwn(data, ROOT_CA_CERT_KEY) || data[ROOT_CA_CERT_KEY] !== this.o.rootCA) return false;
    const annotations = cm.metadata?.annotations;
    return annotations !== undefined && Object.hasOwn(annotations, DESCRIPTION_ANNOTATION) && (annotations[DESCRIPTION_ANNOTATION] ?? '') !== '';
  }

  private cachedConfigMap(namespace: string): DeepReadonly<ConfigMap> | undefined {
    try {
      return this.configMaps.lister().namespace(namespace).get(ROOT_CA_CERT_CONFIG_MAP_NAME);
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
