import type { ConfigMap } from '../../../apis/core/v1/configmap.js';
import { CoreV1Client } from '../../../generated/clientset/core/v1/index.js';
import { isAlreadyExists, isInvalid, isNotFound, isRequestEntityTooLargeError, RateLimitingQueue, runController } from '../../client/index.js';
import type { RESTClient, SharedIndexInformerImpl } from '../../client/index.js';
import {
  AUTHENTICATION_CONFIGMAP_NAME as NAME,
  AUTHENTICATION_CONFIGMAP_NAMESPACE as NAMESPACE,
  authenticationInfoFor,
  combinedAuthenticationInfo,
  configMapDataFor,
  type ClusterAuthenticationInfo,
} from './info.js';
import { newSingleConfigMapInformer } from './informer.js';

export interface ClusterAuthenticationTrustControllerOptions {
  /** The control plane's loopback client (kube runs this controller inside kube-apiserver, as itself). */
  readonly rest: RESTClient;
  /**
   * What this server requires aggregated servers to trust: its client CA, front-proxy CA and
   * request headers. A function is read at each sync: CAs reloaded from their files are then
   * published once the controller is told (enqueue, a dynamiccertificates Listener).
   */
  readonly content: ClusterAuthenticationInfo | (() => ClusterAuthenticationInfo);
  /** How often the ConfigMap is checked besides its events; kube's one minute. */
  readonly resyncMs?: number;
  /** Expiry of published certificates is judged by this clock (ms); default Date.now. */
  readonly now?: () => number;
  /** Sync errors before the retry; default a line on stderr (utilruntime.HandleError). */
  readonly onError?: (err: unknown) => void;
}

const KEY = `${NAMESPACE}/${NAME}`;
const RESYNC_MS = 60_000;

/**
 * kube's cluster_authentication_trust_controller: keeps kube-system/extension-apiserver-authentication
 * holding this server's client CA, front-proxy CA, allowed names and request headers, merged with
 * what the ConfigMap already holds (other API servers', a CA being rotated out). It follows the
 * ConfigMap through its own informer, so a changed or deleted ConfigMap is written back at once,
 * and checks it every minute besides; kube-system is created if it is missing. A ConfigMap that
 * grew too large is deleted so the next sync writes it afresh.
 */
export class ClusterAuthenticationTrustController {
  private readonly client: CoreV1Client;
  private readonly informer: SharedIndexInformerImpl<ConfigMap>;
  private readonly queue = new RateLimitingQueue<string>();
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: ClusterAuthenticationTrustControllerOptions) {
    this.client = new CoreV1Client(o.rest);
    this.informer = newSingleConfigMapInformer(o.rest, NAMESPACE, NAME);
    const enqueue = (): void => this.enqueue();
    this.informer.addEventHandler({ onAdd: enqueue, onUpdate: enqueue, onDelete: enqueue });
  }

  /** Starts the informer, the worker and the minute's check (the first check at once). */
  start(): void {
    if (this.running !== undefined) return;
    const signal = this.stopping.signal;
    const informerDone = this.informer.run(signal);
    this.running = (async () => {
      if (await this.informer.whenSynced(signal)) {
        this.enqueue();
        this.timer = setInterval(() => this.enqueue(), this.o.resyncMs ?? RESYNC_MS);
        this.timer.unref();
        const report =
          this.o.onError ?? ((err: unknown) => process.stderr.write(`cluster_authentication_trust_controller: ${KEY} failed with : ${err instanceof Error ? err.message : String(err)}\n`));
        await runController({ queue: this.queue, signal, reconcile: () => this.syncConfigMap(), onError: (_key, err) => report(err) });
      }
      await informerDone;
    })();
  }

  /** Stops the worker (a sync in progress finishes), the timer and the informer. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    this.queue.shutDown();
    await this.running;
  }

  /** Asks for a sync (kube's Enqueue: when the CAs this server requires changed). */
  enqueue(): void {
    this.queue.add(KEY);
  }

  /** syncConfigMap: the cached ConfigMap merged with the required content, written when that changes it. */
  async syncConfigMap(): Promise<void> {
    const original = this.informer.getIndexer().getByKey(KEY);
    const existing = authenticationInfoFor(original?.data);
    const content = typeof this.o.content === 'function' ? this.o.content() : this.o.content;
    const data = configMapDataFor(combinedAuthenticationInfo(existing, content, (this.o.now ?? Date.now)()));
    if (original !== undefined && sameData(original.data ?? {}, data)) return;
    await this.createNamespaceIfNeeded();
    const required: ConfigMap = { ...structuredClone(original ?? { metadata: { name: NAME, namespace: NAMESPACE } }), data } as ConfigMap;
    await this.writeConfigMap(required, original !== undefined);
  }

  private async createNamespaceIfNeeded(): Promise<void> {
    try {
      await this.client.namespaces().get(NAMESPACE);
      return;
    } catch {
      // kube creates it on any failure to read it; a create that finds it is fine.
    }
    try {
      await this.client.namespaces().create({ metadata: { name: NAMESPACE } });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }

  /** writeConfigMap: update (create when it is gone); one too large is deleted and the error returned, so the retry recreates it. */
  private async writeConfigMap(required: ConfigMap, exists: boolean): Promise<void> {
    const configMaps = this.client.configmaps(NAMESPACE);
    let err: unknown;
    try {
      if (exists) await configMaps.update(required);
      else await configMaps.create(stripForCreate(required));
      return;
    } catch (e) {
      err = e;
    }
    if (isNotFound(err)) {
      await configMaps.create(stripForCreate(required));
      return;
    }
    if (isRequestEntityTooLargeError(err) || (isInvalid(err) && String((err as Error).message).includes('Too long'))) {
      await configMaps.delete(NAME);
    }
    throw err;
  }
}

function stripForCreate(cm: ConfigMap): ConfigMap {
  const { resourceVersion: _rv, uid: _uid, ...metadata } = cm.metadata ?? {};
  return { ...cm, metadata };
}

function sameData(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
