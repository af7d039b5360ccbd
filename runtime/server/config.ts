import { anonymousAuthenticator } from '../authentication/anonymous.js';
import type { Authenticator } from '../authentication/authenticator.js';
import { alwaysAllowAuthorizer, type Authorizer } from '../authorization/authorizer.js';
import type { AuditSink } from '../endpoints/filters/audit.js';
import { consoleLogger, type Logger } from '../endpoints/filters/log.js';
import { defaultLongRunningRequestCheck, type LongRunningRequestCheck } from '../endpoints/filters/longrunning.js';
import { DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT, DEFAULT_MAX_REQUESTS_IN_FLIGHT, RequestsInFlight } from '../endpoints/filters/maxinflight.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../endpoints/filters/timeout.js';
import { RequestWaitGroup } from '../endpoints/filters/waitgroup.js';
import { emptyDelegate, handlerDelegate, type DelegationTarget } from './delegation.js';
import { GenericAPIServer } from './genericapiserver.js';
import { buildHandlerChain } from './handler-chain.js';
import type { Handler } from '../apimachinery/request/http.js';
import { LifecycleSignals } from './lifecycle.js';
import { APIServerMetrics } from './metrics.js';
import { defaultVersionInfo, type VersionInfo } from './version.js';

/** What a generic API server can be configured with; every field has a default (see complete()). */
export interface ConfigOptions {
  /**
   * Who sends each request; default: nobody is known, every request is system:anonymous (kube with
   * no authenticator configured and anonymous auth on). The control plane passes
   * newBuiltInAuthenticator (client certificates, request header, tokens).
   */
  authenticator?: Authenticator;
  /** May they; default AlwaysAllow. */
  authorizer?: Authorizer;
  /** Receives audit events; default none (no audit filter is installed). */
  auditSink?: AuditSink;
  /** Maximum time for a non-long-running request (ms); default 60 s. */
  requestTimeoutMs?: number;
  /** Read-only requests in flight; default 400, 0 for no limit. */
  maxRequestsInFlight?: number;
  /** Mutating requests in flight; default 200, 0 for no limit. */
  maxMutatingRequestsInFlight?: number;
  /** Which requests are long-running (exempt from timeout, limits and the drain); default kube-apiserver's. */
  longRunning?: LongRunningRequestCheck;
  /** Default: a new registry. Pass one instance to every server of a chain. */
  metrics?: APIServerMetrics;
  /** Overrides of the /version document. */
  version?: Partial<VersionInfo>;
  logger?: Logger;
  /** Wraps the server's handler in the filter chain; default buildHandlerChain (kube's BuildHandlerChainFunc). */
  buildHandlerChain?: (handler: Handler, config: CompletedConfig) => Handler;
  /**
   * --shutdown-delay-duration (ms): after shutdown begins, how long requests are still accepted
   * while /readyz fails, so load balancers stop sending traffic first. Default 0.
   */
  shutdownDelayDurationMs?: number;
  /**
   * --shutdown-send-retry-after: once the delay is over, keep listening until the requests in
   * flight are drained and answer new ones 429 with Retry-After (and Connection: close), instead
   * of closing the listener at once. Default false.
   */
  shutdownSendRetryAfter?: boolean;
  /**
   * --shutdown-watch-termination-grace-period (ms): how long shutdown waits for the watches it
   * ends to finish their streams. Default 0: they are ended and given only the closing grace of
   * the connections (a chunk terminator takes no longer).
   */
  shutdownWatchTerminationGracePeriodMs?: number;
  /** How long shutdown waits for non-long-running requests (kube's ShutdownTimeout); default the request timeout. */
  shutdownTimeoutMs?: number;
}

/** The configuration of a generic API server before defaults are applied. */
export class Config {
  constructor(readonly options: ConfigOptions = {}) {}

  /** Resolves every default; the only way to a CompletedConfig. */
  complete(): CompletedConfig {
    const o = this.options;
    const metrics = o.metrics ?? new APIServerMetrics({ logger: o.logger ?? consoleLogger });
    return new CompletedConfig(COMPLETE, {
      authenticator: o.authenticator ?? anonymousAuthenticator(),
      authorizer: o.authorizer ?? alwaysAllowAuthorizer,
      auditSink: o.auditSink,
      requestTimeoutMs: o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      maxRequestsInFlight: o.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT,
      maxMutatingRequestsInFlight: o.maxMutatingRequestsInFlight ?? DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT,
      longRunning: o.longRunning ?? defaultLongRunningRequestCheck,
      metrics,
      version: { ...defaultVersionInfo(), ...o.version },
      logger: o.logger ?? consoleLogger,
      buildHandlerChain: o.buildHandlerChain ?? buildHandlerChain,
      nonLongRunningRequestWaitGroup: new RequestWaitGroup(),
      requestsInFlight: new RequestsInFlight(metrics),
      shutdownDelayDurationMs: o.shutdownDelayDurationMs ?? 0,
      shutdownSendRetryAfter: o.shutdownSendRetryAfter ?? false,
      shutdownWatchTerminationGracePeriodMs: o.shutdownWatchTerminationGracePeriodMs ?? 0,
      shutdownTimeoutMs: o.shutdownTimeoutMs ?? o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      lifecycleSignals: new LifecycleSignals(),
    });
  }
}

const COMPLETE: unique symbol = Symbol('complete');

export interface CompletedFields {
  readonly authenticator: Authenticator;
  readonly authorizer: Authorizer;
  readonly auditSink: AuditSink | undefined;
  readonly requestTimeoutMs: number;
  readonly maxRequestsInFlight: number;
  readonly maxMutatingRequestsInFlight: number;
  readonly longRunning: LongRunningRequestCheck;
  readonly metrics: APIServerMetrics;
  readonly version: VersionInfo;
  readonly logger: Logger;
  readonly buildHandlerChain: (handler: Handler, config: CompletedConfig) => Handler;
  /** The in-flight requests of the chain built from this config; graceful shutdown waits on it. */
  readonly nonLongRunningRequestWaitGroup: RequestWaitGroup;
  /** The requests the server holds, counted from their parsing on (the max-in-flight filter's count). */
  readonly requestsInFlight: RequestsInFlight;
  readonly shutdownDelayDurationMs: number;
  readonly shutdownSendRetryAfter: boolean;
  readonly shutdownWatchTerminationGracePeriodMs: number;
  readonly shutdownTimeoutMs: number;
  /** The shutdown events of the chain built from this config: Serving signals them, filters read them. */
  readonly lifecycleSignals: LifecycleSignals;
}

export interface NewServerOptions {
  /** Names the server in logs and errors (`kube-apiserver`, `apiextensions-apiserver`…). */
  name: string;
  /** Where requests this server does not own go; default the 404 end of the chain. */
  delegate?: DelegationTarget | Handler;
}

/** A configuration with every default resolved; made only by Config.complete(). */
export class CompletedConfig implements CompletedFields {
  readonly authenticator!: Authenticator;
  readonly authorizer!: Authorizer;
  readonly auditSink!: AuditSink | undefined;
  readonly requestTimeoutMs!: number;
  readonly maxRequestsInFlight!: number;
  readonly maxMutatingRequestsInFlight!: number;
  readonly longRunning!: LongRunningRequestCheck;
  readonly metrics!: APIServerMetrics;
  readonly version!: VersionInfo;
  readonly logger!: Logger;
  readonly buildHandlerChain!: (handler: Handler, config: CompletedConfig) => Handler;
  readonly nonLongRunningRequestWaitGroup!: RequestWaitGroup;
  readonly requestsInFlight!: RequestsInFlight;
  readonly shutdownDelayDurationMs!: number;
  readonly shutdownSendRetryAfter!: boolean;
  readonly shutdownWatchTerminationGracePeriodMs!: number;
  readonly shutdownTimeoutMs!: number;
  readonly lifecycleSignals!: LifecycleSignals;

  /** @internal use Config.complete(). */
  constructor(token: typeof COMPLETE, fields: CompletedFields) {
    if (token !== COMPLETE) throw new Error('use Config.complete()');
    Object.assign(this, fields);
  }

  /** Builds the server (kube's CompletedConfig.New(name, delegationTarget)). */
  new(opts: NewServerOptions): GenericAPIServer {
    const delegate = opts.delegate === undefined ? emptyDelegate() : typeof opts.delegate === 'function' ? handlerDelegate(opts.delegate) : opts.delegate;
    return new GenericAPIServer(this, opts.name, delegate);
  }
}
