import { ApiextensionsV1Client } from '../../../generated/clientset/apiextensions/v1/index.js';
import { type CustomResourceDefinitionInformer, newCustomResourceDefinitionInformer } from '../../../generated/informers/apiextensions/v1/customresourcedefinition.js';
import { newSharedInformerFactoryCore, type ReflectorTuning, type RESTClient, type SharedInformerFactoryCore } from '../../client/index.js';
import type { DiscoveryRegistry } from '../../server/discovery/index.js';
import type { CRDSource } from '../source.js';
import type { CRDControllerDeps } from './deps.js';
import { DiscoveryController } from './discovery.js';
import { EstablishingController } from './establishing.js';
import { FinalizerController } from './finalizer.js';
import { restInstances } from './instances.js';
import { NamingController, type ReservedNames } from './naming.js';
import { NonStructuralSchemaController } from './nonstructural.js';
import { OpenAPIController, type OpenAPIRegistry } from './openapi.js';
import { informerCRDSource } from './source.js';

export interface APIExtensionsControllersOptions {
  /** The client every controller reads and writes through: the loopback client in the control plane. */
  readonly rest: RESTClient;
  /** The discovery manager's `crd` source. */
  readonly discovery: DiscoveryRegistry;
  readonly openapi: OpenAPIRegistry;
  /** The built-in names of a group, which no CRD may take. */
  readonly reservedNames?: (group: string) => ReservedNames | undefined;
  /** Group versions whose OpenAPI document a CRD never replaces. */
  readonly isBuiltinGroupVersion?: (group: string, version: string) => boolean;
  readonly now?: () => Date;
  readonly onError?: (key: string, err: unknown) => void;
  /** The CRD informer's reflector knobs (logger, backoff). */
  readonly tuning?: ReflectorTuning;
  /** The finalizer's wait for deleted instances. */
  readonly finalizerPollIntervalMs?: number;
  readonly finalizerPollTimeoutMs?: number;
  /**
   * Where the controllers that must run in one replica at a time are handed (the control plane's
   * leader election): establishing and finalizer. Without it they run here with the others.
   */
  readonly singletons?: SingletonControllers;
}

/** The part of the control plane's leader election these controllers hand their singletons to: a term runs fresh controllers until its signal aborts. */
export interface SingletonControllers {
  add(name: string, term: (signal: AbortSignal) => Promise<void>): void;
}

/**
 * The apiextensions server's controllers over one shared CRD informer (apiextensions-apiserver's
 * post-start hooks): naming, establishing, non-structural schema, finalizer, discovery and
 * OpenAPI, and the CRDSource the CRD handler serves from, so handler and controllers see the
 * same cache. Given `singletons`, establishing and finalizer (which write CRDs, and would be
 * repeated by every replica sharing the storage) run there instead, one replica at a time. Lifecycle: startInformers(), then start() (controllers begin once the informer
 * has synced), synced() for readiness, stop() before storage closes.
 */
export class APIExtensionsControllers {
  readonly client: ApiextensionsV1Client;
  readonly informers: SharedInformerFactoryCore;
  /** What the CRD handler serves from. */
  readonly source: CRDSource;
  private readonly crdInformer: CustomResourceDefinitionInformer;
  private readonly naming: NamingController;
  /** Run here only without `singletons`. */
  private readonly establishing: EstablishingController | undefined;
  private readonly finalizer: FinalizerController | undefined;
  private readonly nonStructural: NonStructuralSchemaController;
  private readonly discovery: DiscoveryController;
  private readonly openapi: OpenAPIController;
  private readonly stopping = new AbortController();
  private running: Promise<unknown> | undefined;
  private readonly published: Promise<void>;
  private markPublished!: () => void;
  private readonly onError: (key: string, err: unknown) => void;

  constructor(o: APIExtensionsControllersOptions) {
    this.onError = o.onError ?? ((key, err) => process.stderr.write(`${key}: ${err instanceof Error ? err.message : String(err)}\n`));
    this.client = new ApiextensionsV1Client(o.rest);
    this.informers = newSharedInformerFactoryCore(o.tuning !== undefined ? { tuning: o.tuning } : {});
    const client = this.client;
    this.crdInformer = newCustomResourceDefinitionInformer(this.informers, { apiextensionsV1: () => client });
    this.source = informerCRDSource(this.crdInformer);
    const deps: CRDControllerDeps = {
      informer: this.crdInformer,
      crds: this.client.customresourcedefinitions(),
      ...(o.now !== undefined ? { now: o.now } : {}),
      ...(o.onError !== undefined ? { onError: o.onError } : {}),
    };
    this.naming = new NamingController({ ...deps, ...(o.reservedNames !== undefined ? { reservedNames: o.reservedNames } : {}) });
    this.nonStructural = new NonStructuralSchemaController(deps);
    // One term's establishing and finalizer controllers, over `informer` (fresh controllers each
    // term: their queues do not restart).
    const singletons = (informer: CustomResourceDefinitionInformer): { establishing: EstablishingController; finalizer: FinalizerController } => ({
      establishing: new EstablishingController({ ...deps, informer }),
      finalizer: new FinalizerController({
        ...deps,
        informer,
        instances: (crd) => restInstances(o.rest, crd),
        ...(o.finalizerPollIntervalMs !== undefined ? { pollIntervalMs: o.finalizerPollIntervalMs } : {}),
        ...(o.finalizerPollTimeoutMs !== undefined ? { pollTimeoutMs: o.finalizerPollTimeoutMs } : {}),
      }),
    });
    if (o.singletons === undefined) {
      ({ establishing: this.establishing, finalizer: this.finalizer } = singletons(this.crdInformer));
    } else {
      this.establishing = undefined;
      this.finalizer = undefined;
      // Under an election a term has its own CRD informer, started and stopped with it.
      o.singletons.add('apiextensions', async (signal) => {
        const factory = newSharedInformerFactoryCore(o.tuning !== undefined ? { tuning: o.tuning } : {});
        const c = singletons(newCustomResourceDefinitionInformer(factory, { apiextensionsV1: () => client }));
        factory.start();
        try {
          await factory.waitForCacheSync(signal);
          if (!signal.aborted) await Promise.all([c.establishing.run(signal), c.finalizer.run(signal)]);
        } finally {
          await factory.shutdown();
        }
      });
    }
    this.discovery = new DiscoveryController({ ...deps, discovery: o.discovery });
    this.openapi = new OpenAPIController({ ...deps, openapi: o.openapi, ...(o.isBuiltinGroupVersion !== undefined ? { isBuiltinGroupVersion: o.isBuiltinGroupVersion } : {}) });
    this.published = new Promise((resolve) => {
      this.markPublished = resolve;
    });
  }

  /** Starts the CRD informer (list and watch through the REST client). */
  startInformers(): void {
    this.informers.start();
  }

  /** Starts every controller once the informer has synced; returns at once. Idempotent. */
  start(): void {
    this.running ??= (async () => {
      const signal = this.stopping.signal;
      await this.informers.waitForCacheSync(signal);
      if (signal.aborted) return;
      let pending = 2;
      const onePublished = (): void => {
        if (--pending === 0) this.markPublished();
      };
      await Promise.all([
        this.naming.run(signal),
        this.establishing?.run(signal),
        this.nonStructural.run(signal),
        this.finalizer?.run(signal),
        this.discovery.run(signal, onePublished),
        this.openapi.run(signal, onePublished),
      ]);
    })().catch((err: unknown) => this.onError('apiextensions-controllers', err));
  }

  /**
   * Resolves once the informer has synced and discovery and OpenAPI describe every CRD it held
   * (kube's crd-informer-synced and discovery readiness); false when stopped first.
   */
  async synced(signal?: AbortSignal): Promise<boolean> {
    const stopped = new Promise<false>((resolve) => {
      const onAbort = (): void => resolve(false);
      for (const s of [this.stopping.signal, signal]) {
        if (s === undefined) continue;
        if (s.aborted) onAbort();
        else s.addEventListener('abort', onAbort, { once: true });
      }
    });
    return Promise.race([this.published.then(() => true), stopped]);
  }

  /** Stops the controllers (keys in progress finish) and the informer. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
    await this.informers.shutdown();
  }
}
