import { setMaxListeners } from 'node:events';
import type { APIService } from '../../apis/apiregistration/v1/types.js';
import { ApiextensionsV1Client } from '../../generated/clientset/apiextensions/v1/index.js';
import { ApiregistrationV1Client } from '../../generated/clientset/apiregistration/v1/index.js';
import { CoreV1Client } from '../../generated/clientset/core/v1/index.js';
import { newCustomResourceDefinitionInformer } from '../../generated/informers/apiextensions/v1/customresourcedefinition.js';
import { type APIServiceInformer, newAPIServiceInformer } from '../../generated/informers/apiregistration/v1/apiservice.js';
import { newEndpointsInformer } from '../../generated/informers/core/v1/endpoints.js';
import { newServiceInformer } from '../../generated/informers/core/v1/service.js';
import { newSharedInformerFactoryCore, type ReflectorTuning, type RESTClient, type SharedInformerFactoryCore } from '../client/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';
import type { Handler } from '../apimachinery/request/http.js';
import { isAvailable } from './apiservice.js';
import { AutoRegisterController } from './controllers/autoregister.js';
import { LocalAvailableController } from './controllers/available-local.js';
import { RemoteAvailableController } from './controllers/available-remote.js';
import { CRDRegistrationController } from './controllers/crd-registration.js';
import { getCached } from './controllers/lookup.js';
import { APIServiceRegistrationController } from './controllers/registration.js';
import { apiServicesAvailableCheck } from './readiness.js';
import { APIServiceHandlerManager, type APIServiceRegistry } from './registry.js';
import { EndpointsServiceResolver } from './service-resolver.js';
import type { ProxyClientCertificate } from './transport.js';

export interface APIAggregatorOptions {
  /** The head of the chain (kube-aggregator): its mux gets the handlers, its lifecycle the controllers. */
  readonly server: GenericAPIServer;
  /** The control plane's loopback client: informers, registrations and status writes go through it. */
  readonly rest: RESTClient;
  /**
   * Where requests for local APIServices and groups go: this server's discovery documents, then
   * the servers behind it. Default: the server's delegate.
   */
  readonly localDelegate?: Handler;
  /** Presented to aggregated servers, which trust it through their request-header CA. */
  readonly proxyClientCertificate: ProxyClientCertificate;
  /** Local APIServices kept present for the group versions the chain serves itself (builtinAPIServices()). */
  readonly builtinAPIServices: readonly APIService[];
  /** Group versions the chain serves itself, which a CRD never registers. */
  readonly isBuiltinGroupVersion?: (group: string, version: string) => boolean;
  /** How often service-backed APIServices are checked again (kube: 30 s); failing ones sooner. */
  readonly availabilityCheckPeriodMs?: number;
  /** The availability check's limit per request (kube: 5 s). */
  readonly discoveryCheckTimeoutMs?: number;
  /** Dial and TLS handshake limit of proxied requests (default 5 s): a dead backend is a quick 503. */
  readonly connectTimeoutMs?: number;
  readonly onError?: (key: string, err: unknown) => void;
  /** The informers' reflector knobs. */
  readonly tuning?: ReflectorTuning;
  /**
   * Where the controllers that must run in one replica at a time are handed (the control plane's
   * leader election): availability, autoregistration and the CRD registration that feeds it.
   * Without it they run in this process from its post-start hooks.
   */
  readonly singletons?: SingletonControllers;
}

/** A set of controllers run elsewhere for one term: a fresh set each time, running until `signal` aborts. */
export type SingletonTerm = (signal: AbortSignal) => Promise<void>;

/** The part of the control plane's leader election the aggregator hands its singletons to. */
export interface SingletonControllers {
  add(name: string, term: SingletonTerm): void;
}

/** What every replica runs: the APIService informer, the handlers and the registration controller feeding them. */
interface Controllers {
  readonly apiServices: APIServiceInformer;
  readonly handlers: APIServiceHandlerManager;
  readonly registration: APIServiceRegistrationController;
}

/** What one replica runs at a time (one term's fresh instances): availability and autoregistration. */
interface Singletons {
  readonly local: LocalAvailableController;
  readonly remote: RemoteAvailableController;
  readonly autoregister: AutoRegisterController;
  readonly crdRegistration: CRDRegistrationController;
}

/** How often apiservice-wait-for-first-sync looks again (kube: 100 ms). */
const FIRST_SYNC_POLL_MS = 100;

/**
 * The aggregator's own part of the head server (kube-aggregator's APIAggregator and the
 * registration pieces kube-apiserver adds to it): APIService handling (proxy and group handlers
 * on the server's mux), the registration controller feeding it, the availability controllers,
 * and the autoregister and CRD registration controllers keeping local APIServices for built-in
 * group versions and CRDs. Everything runs over the loopback client and one informer factory.
 *
 * The availability, autoregister and CRD registration controllers write APIServices, which
 * replicas sharing storage would fight over: given `singletons`, they run there (in one replica
 * at a time); every replica runs the handling and the registration controller.
 *
 * Lifecycle, as post-start hooks of the server: `start-kube-aggregator-informers`,
 * `apiservice-registration-controller` (done once every APIService present at start is
 * handled), `apiservice-status-available-controller`, `kube-apiserver-autoregistration`,
 * `apiservice-wait-for-first-sync` (done once every available APIService has its handler);
 * /readyz adds `autoregister-completion` (every built-in APIService seen Available). The
 * controllers stop in the pre-shutdown hook `stop-kube-aggregator-controllers`; stop(), once
 * serving has stopped, also closes the connections to backends.
 */
export class APIAggregator {
  /** The built-in groups' clients the controllers use (not a project's clientset: the framework has none). */
  readonly clients: { apiregistrationV1(): ApiregistrationV1Client; coreV1(): CoreV1Client; apiextensionsV1(): ApiextensionsV1Client };
  readonly informers: SharedInformerFactoryCore;
  private readonly handlers: APIServiceHandlerManager;
  private readonly stopping = new AbortController();
  private readonly runs: Promise<unknown>[] = [];
  private readonly autoregistered: Promise<void>;
  /** The availability controller of the running term of singletons, which proxying tells of unreachable backends. */
  private remote: RemoteAvailableController | undefined;

  constructor(private readonly o: APIAggregatorOptions) {
    // Every worker's request and wait listens on it: many listeners, no leak.
    setMaxListeners(0, this.stopping.signal);
    const apiregistration = new ApiregistrationV1Client(o.rest);
    const core = new CoreV1Client(o.rest);
    const apiextensions = new ApiextensionsV1Client(o.rest);
    this.clients = { apiregistrationV1: () => apiregistration, coreV1: () => core, apiextensionsV1: () => apiextensions };
    this.informers = newSharedInformerFactoryCore(o.tuning !== undefined ? { tuning: o.tuning } : {});
    const c = this.controllers();
    this.handlers = c.handlers;
    const completion = apiServicesAvailableCheck(
      'autoregister-completion',
      o.builtinAPIServices.map((s) => s.metadata?.name ?? ''),
      c.apiServices,
    );
    this.autoregistered = completion.passed;
    o.server.addReadyzChecks(completion);
    this.installHooks(c);
  }

  /** The handling and the registration controller, over the factory's informers; nothing runs yet. */
  private controllers(): Controllers {
    const o = this.o;
    const apiServices = newAPIServiceInformer(this.informers, this.clients);
    const services = newServiceInformer(this.informers, this.clients);
    const endpoints = newEndpointsInformer(this.informers, this.clients);
    const handlers = new APIServiceHandlerManager({
      mux: o.server.mux,
      localDelegate: o.localDelegate ?? o.server.delegate,
      resolver: new EndpointsServiceResolver({
        service: (ns, name) => getCached(services.lister().namespace(ns), name),
        endpoints: (ns, name) => getCached(endpoints.lister().namespace(ns), name),
      }),
      proxyClientCertificate: o.proxyClientCertificate,
      ...(o.connectTimeoutMs !== undefined ? { connectTimeoutMs: o.connectTimeoutMs } : {}),
      // The availability controller of this process's term, if it leads; the leader's otherwise finds out on its own.
      onUnreachable: (name) => this.remote?.recheck(name),
    });
    return { apiServices, handlers, registration: new APIServiceRegistrationController({ informer: apiServices, handling: handlers, ...this.errors() }) };
  }

  /** One term's availability and autoregistration controllers, over `factory`'s informers; nothing runs yet. */
  private singletons(factory: SharedInformerFactoryCore): Singletons {
    const o = this.o;
    const apiServices = newAPIServiceInformer(factory, this.clients);
    const client = this.clients.apiregistrationV1().apiservices();
    const errors = this.errors();
    const remote = new RemoteAvailableController({
      apiServices,
      services: newServiceInformer(factory, this.clients),
      endpoints: newEndpointsInformer(factory, this.clients),
      client,
      proxyClientCertificate: o.proxyClientCertificate,
      ...errors,
      ...(o.connectTimeoutMs !== undefined ? { connectTimeoutMs: o.connectTimeoutMs } : {}),
      ...(o.availabilityCheckPeriodMs !== undefined ? { checkPeriodMs: o.availabilityCheckPeriodMs } : {}),
      ...(o.discoveryCheckTimeoutMs !== undefined ? { checkTimeoutMs: o.discoveryCheckTimeoutMs } : {}),
    });
    const autoregister = new AutoRegisterController({ informer: apiServices, client, ...errors });
    for (const svc of o.builtinAPIServices) autoregister.addAPIServiceToSync(svc);
    return {
      remote,
      autoregister,
      local: new LocalAvailableController({ informer: apiServices, client, ...errors }),
      crdRegistration: new CRDRegistrationController({
        informer: newCustomResourceDefinitionInformer(factory, this.clients),
        registration: autoregister,
        ...errors,
        ...(o.isBuiltinGroupVersion !== undefined ? { isBuiltinGroupVersion: o.isBuiltinGroupVersion } : {}),
      }),
    };
  }

  /**
   * Runs one term of the singletons until `signal` aborts. Under an election every term has its
   * own informers (controllers and queues do not restart); run in process, they share the
   * aggregator's, which its hooks start.
   *
   * The CRD registration controller goes with autoregistration: its only effect is the
   * APIServices autoregister writes, which every replica then serves through its own
   * registration controller.
   */
  private async runSingletons(signal: AbortSignal, c: Singletons, factory: SharedInformerFactoryCore): Promise<void> {
    this.remote = c.remote;
    if (factory !== this.informers) factory.start();
    try {
      await Promise.all([
        c.local.run(signal),
        c.remote.run(signal),
        c.crdRegistration.run(signal),
        // Only once the CRDs present at start are registered: autoregister would delete their APIServices otherwise.
        untilAborted(c.crdRegistration.waitForInitialSync(), signal).then(() => (signal.aborted ? undefined : c.autoregister.run(signal))),
      ]);
    } finally {
      if (this.remote === c.remote) this.remote = undefined;
      if (factory !== this.informers) await factory.shutdown();
    }
  }

  /** kube's post-start hooks of the aggregator and of kube-apiserver's autoregistration, and the pre-shutdown stop. */
  private installHooks(c: Controllers): void {
    const server = this.o.server;
    const signal = this.stopping.signal;
    const singletons = this.o.singletons;
    singletons?.add('kube-aggregator', (term) => {
      const factory = newSharedInformerFactoryCore(this.o.tuning !== undefined ? { tuning: this.o.tuning } : {});
      return this.runSingletons(term, this.singletons(factory), factory);
    });
    // Run here: built now, so that their informers are in the factory before it starts.
    const own = singletons === undefined ? this.singletons(this.informers) : undefined;
    server.addPostStartHook('start-kube-aggregator-informers', async () => this.informers.start());
    server.addPostStartHook('apiservice-registration-controller', async ({ signal: hookSignal }) => {
      this.background(c.registration.run(signal));
      await untilAborted(c.registration.initiated(), AbortSignal.any([signal, hookSignal]));
    });
    // Under an election the availability and autoregistration controllers run in the leader's
    // term instead; the hooks stay, as kube's readiness lists them.
    server.addPostStartHook('apiservice-status-available-controller', async () => {});
    server.addPostStartHook('kube-apiserver-autoregistration', async () => {
      if (own !== undefined) this.background(this.runSingletons(signal, own, this.informers));
    });
    server.addPostStartHook('apiservice-wait-for-first-sync', async ({ signal: hookSignal }) => {
      const stop = AbortSignal.any([signal, hookSignal]);
      await untilAborted(c.registration.initiated(), stop);
      while (
        !stop.aborted &&
        c.apiServices
          .lister()
          .list()
          .some((svc) => isAvailable(svc) && !c.handlers.has(svc.metadata?.name ?? ''))
      ) {
        await new Promise((resolve) => setTimeout(resolve, FIRST_SYNC_POLL_MS));
      }
    });
    // Requests still being drained keep their backend connections: those close in stop().
    server.addPreShutdownHook('stop-kube-aggregator-controllers', () => this.stopControllers());
  }

  private errors(): { onError?: (key: string, err: unknown) => void } {
    return this.o.onError !== undefined ? { onError: this.o.onError } : {};
  }

  /** The APIServices the aggregator handles and how to reach their servers (merged discovery and OpenAPI read it). */
  get registry(): APIServiceRegistry {
    return this.handlers;
  }

  /**
   * Resolves once every built-in APIService has been seen Available (the readyz check
   * autoregister-completion passes), or `signal` aborts first (then false).
   */
  async autoregistrationComplete(signal?: AbortSignal): Promise<boolean> {
    const stop = signal === undefined ? this.stopping.signal : AbortSignal.any([signal, this.stopping.signal]);
    return (
      (await untilAborted(
        this.autoregistered.then(() => true),
        stop,
      )) ?? false
    );
  }

  /** Stops the controllers and informers, then closes every backend connection (call once serving has stopped). Idempotent. */
  async stop(): Promise<void> {
    await this.stopControllers();
    this.handlers.close();
  }

  private async stopControllers(): Promise<void> {
    this.stopping.abort();
    await Promise.all(this.runs);
    await this.informers.shutdown();
  }

  private background(...runs: Promise<unknown>[]): void {
    for (const run of runs) this.runs.push(run.catch((err: unknown) => (this.o.onError ?? defaultOnError)('kube-aggregator', err)));
  }
}

/** Resolves with `p`, or when `signal` aborts (then undefined). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function defaultOnError(key: string, err: unknown): void {
  process.stderr.write(`${key}: ${err instanceof Error ? err.message : String(err)}\n`);
}
