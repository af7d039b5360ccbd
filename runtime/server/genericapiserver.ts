import { setMaxListeners } from 'node:events';
import type { CompletedConfig } from './config.js';
import type { DelegationTarget, HealthCheckSets, PostStartHook, PostStartHookEntry, PreShutdownHook } from './delegation.js';
import { installHealthEndpoint, pingCheck, shutdownCheck, type HealthChecker } from './healthz.js';
import type { Handler } from '../apimachinery/request/http.js';
import { PathRecorderMux } from './mux.js';
import { installVersionEndpoint } from './version.js';

/**
 * One server of the delegation chain (k8s.io/apiserver GenericAPIServer): its own mux, whose
 * unmatched paths go to the delegate; health, version and metrics endpoints; health checks and
 * lifecycle hooks. Built by CompletedConfig.new(). Only the head of the chain is served
 * (serving.ts): its filter chain runs once per request, and it answers health checks and runs
 * hooks for every server behind it.
 */
export class GenericAPIServer implements DelegationTarget {
  readonly mux: PathRecorderMux;
  /** The server behind this one. */
  readonly delegationTarget: DelegationTarget;
  /** Where requests this server does not own go. */
  readonly delegate: Handler;
  /** This server's requests without filters: mux first, anything unmatched to the delegate. */
  readonly handler: Handler;
  /** handler inside the configured filter chain: what serving runs when this server is the head. */
  readonly handlerChain: Handler;

  private readonly checks: { healthz: HealthChecker[]; livez: HealthChecker[]; readyz: HealthChecker[] } = { healthz: [], livez: [], readyz: [] };
  private readonly ownPostStartHooks = new Map<string, PostStartHookEntry>();
  private readonly ownPreShutdownHooks = new Map<string, PreShutdownHook>();
  private readonly shutdownInitiated = new AbortController();

  /** @internal use CompletedConfig.new(). */
  constructor(
    readonly config: CompletedConfig,
    readonly name: string,
    delegationTarget: DelegationTarget,
  ) {
    this.delegationTarget = delegationTarget;
    this.delegate = delegationTarget.handler;
    this.mux = new PathRecorderMux(name, this.delegate);
    this.handler = this.mux.serve;
    this.handlerChain = config.buildHandlerChain(this.handler, config);
    // Like Go's context of a server's lifetime, this signal is shared by everything the hooks and
    // controllers start (the bootstrap policy's concurrent reconciles alone pass it to dozens of
    // requests): many listeners are its purpose, not a leak to warn of.
    setMaxListeners(0, this.shutdownInitiated.signal);
    this.checks.readyz.push(shutdownCheck(this.shutdownInitiated.signal));
    this.installDefaultEndpoints();
  }

  get metrics(): CompletedConfig['metrics'] {
    return this.config.metrics;
  }

  /** Aborted once shutdown begins (the readyz `shutdown` check fails from then on). */
  get shutdownSignal(): AbortSignal {
    return this.shutdownInitiated.signal;
  }

  /** Adds checks to /healthz, /livez and /readyz. Names must be unique per endpoint. */
  addHealthChecks(...checks: HealthChecker[]): void {
    for (const list of [this.checks.healthz, this.checks.livez, this.checks.readyz]) addChecks(list, checks, this.name);
  }

  /** Adds checks to /readyz only (a storage check belongs here). */
  addReadyzChecks(...checks: HealthChecker[]): void {
    addChecks(this.checks.readyz, checks, this.name);
  }

  /** Adds checks to /livez only. */
  addLivezChecks(...checks: HealthChecker[]): void {
    addChecks(this.checks.livez, checks, this.name);
  }

  /**
   * Registers a hook run after the head server starts listening; until it resolves the checks
   * `poststarthook/<name>` fail. Throws on a duplicate name.
   */
  addPostStartHook(name: string, hook: PostStartHook): void {
    if (this.ownPostStartHooks.has(name)) throw new Error(`${this.name}: unable to add post-start hook ${JSON.stringify(name)} because it was already registered`);
    const entry: PostStartHookEntry = { hook, state: 'pending' };
    this.ownPostStartHooks.set(name, entry);
    this.addHealthChecks({
      name: `poststarthook/${name}`,
      check: () => (entry.state === 'done' ? Promise.resolve() : Promise.reject(new Error(entry.state === 'failed' ? 'failed' : 'not finished'))),
    });
  }

  /** Registers a hook run when shutdown begins, before requests stop being accepted. Throws on a duplicate name. */
  addPreShutdownHook(name: string, hook: PreShutdownHook): void {
    if (this.ownPreShutdownHooks.has(name)) throw new Error(`${this.name}: unable to add pre-shutdown hook ${JSON.stringify(name)} because it was already registered`);
    this.ownPreShutdownHooks.set(name, hook);
  }

  /** This server's checks, then its delegates' (a name already present is not repeated). */
  healthChecks(): HealthCheckSets {
    const behind = this.delegationTarget.healthChecks();
    const merge = (own: readonly HealthChecker[], more: readonly HealthChecker[]): HealthChecker[] => {
      const names = new Set(own.map((c) => c.name));
      return [pingCheck, ...own, ...more.filter((c) => !names.has(c.name) && c.name !== pingCheck.name)];
    };
    return { healthz: merge(this.checks.healthz, behind.healthz), livez: merge(this.checks.livez, behind.livez), readyz: merge(this.checks.readyz, behind.readyz) };
  }

  /** Every hook of this server and the servers behind it. */
  postStartHooks(): ReadonlyMap<string, PostStartHookEntry> {
    return mergeHooks(this.ownPostStartHooks, this.delegationTarget.postStartHooks(), 'post-start');
  }

  preShutdownHooks(): ReadonlyMap<string, PreShutdownHook> {
    return mergeHooks(this.ownPreShutdownHooks, this.delegationTarget.preShutdownHooks(), 'pre-shutdown');
  }

  /** The paths this server and those behind it list (served at `/`). */
  listedPaths(): string[] {
    return [...new Set([...this.mux.listedPaths(), ...this.delegationTarget.listedPaths()])].sort();
  }

  /**
   * Runs every post-start hook of the chain concurrently (call on the head once it listens).
   * Resolves when all are done; rejects with the first failure, after logging each one.
   */
  async runPostStartHooks(): Promise<void> {
    const ctx = { signal: this.shutdownInitiated.signal };
    const runs = [...this.postStartHooks()].map(async ([name, entry]) => {
      if (entry.state !== 'pending') return;
      entry.state = 'running';
      try {
        await entry.hook(ctx);
        entry.state = 'done';
      } catch (err) {
        entry.state = 'failed';
        this.config.logger.error(`post-start hook ${JSON.stringify(name)} failed`, { server: this.name, err });
        throw err;
      }
    });
    await Promise.all(runs);
  }

  /** Marks the start of shutdown: readyz fails and post-start hooks see their signal abort. Idempotent. */
  initiateShutdown(): void {
    this.shutdownInitiated.abort(new Error('apiserver is shutting down'));
  }

  /** Runs every pre-shutdown hook of the chain concurrently; failures are logged, never thrown. */
  async runPreShutdownHooks(): Promise<void> {
    await Promise.all(
      [...this.preShutdownHooks()].map(async ([name, hook]) => {
        try {
          await hook();
        } catch (err) {
          this.config.logger.error(`pre-shutdown hook ${JSON.stringify(name)} failed`, { server: this.name, err });
        }
      }),
    );
  }

  private installDefaultEndpoints(): void {
    const { logger, metrics, version } = this.config;
    installHealthEndpoint(this.mux, 'healthz', () => this.healthChecks().healthz, logger);
    installHealthEndpoint(this.mux, 'livez', () => this.healthChecks().livez, logger);
    installHealthEndpoint(this.mux, 'readyz', () => this.healthChecks().readyz, logger);
    installVersionEndpoint(this.mux, version);
    this.mux.handle('/metrics', metrics.handler());
    this.mux.handle('/', async (_req, res) => res.writeJSON(200, { paths: this.listedPaths() }), { listed: false });
  }
}

function addChecks(list: HealthChecker[], checks: readonly HealthChecker[], server: string): void {
  for (const c of checks) {
    if (c.name === pingCheck.name || list.some((x) => x.name === c.name)) throw new Error(`${server}: health check ${JSON.stringify(c.name)} is already registered`);
    list.push(c);
  }
}

function mergeHooks<T>(own: ReadonlyMap<string, T>, behind: ReadonlyMap<string, T>, kind: string): Map<string, T> {
  const merged = new Map(own);
  for (const [name, hook] of behind) {
    if (merged.has(name) && merged.get(name) !== hook) throw new Error(`duplicate ${kind} hook ${JSON.stringify(name)} in the delegation chain`);
    merged.set(name, hook);
  }
  return merged;
}
