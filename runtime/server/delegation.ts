import type { HealthChecker } from './healthz.js';
import type { Handler } from '../apimachinery/request/http.js';
import { pageNotFound } from './mux.js';

/**
 * A hook run once the head server of the chain listens (kube's PostStartHookFunc). Its
 * readyz check `poststarthook/<name>` fails until it resolves; a rejection is logged and leaves
 * the check failing. `signal` aborts when shutdown begins: long-lived hooks stop then.
 */
export type PostStartHook = (ctx: PostStartHookContext) => Promise<void>;

export interface PostStartHookContext {
  readonly signal: AbortSignal;
}

/** Run when shutdown begins, while the server still serves (kube's PreShutdownHookFunc). */
export type PreShutdownHook = () => Promise<void>;

/** A registered post-start hook and its progress, shared by the registering server and the head that runs it. */
export interface PostStartHookEntry {
  readonly hook: PostStartHook;
  state: 'pending' | 'running' | 'done' | 'failed';
}

/** The health checks of each endpoint. */
export interface HealthCheckSets {
  readonly healthz: readonly HealthChecker[];
  readonly livez: readonly HealthChecker[];
  readonly readyz: readonly HealthChecker[];
}

/**
 * What a server hands on to the server in front of it (kube's DelegationTarget): its handler
 * without the filter chain, and what the head of the chain must serve and run on its behalf:
 * health checks, hooks, listed paths.
 */
export interface DelegationTarget {
  /** Serves what this server owns and passes the rest on to its own delegate (kube's UnprotectedHandler). */
  readonly handler: Handler;
  healthChecks(): HealthCheckSets;
  postStartHooks(): ReadonlyMap<string, PostStartHookEntry>;
  preShutdownHooks(): ReadonlyMap<string, PreShutdownHook>;
  listedPaths(): string[];
}

/**
 * The end of every delegation chain (kube's notfoundhandler once every path is installed): Go's
 * plain-text `404 page not found`, which client-go reads as `the server could not find the
 * requested resource`.
 */
export function notFoundHandler(): Handler {
  return pageNotFound;
}

/** A delegate that owns nothing: everything is 404 (kube's NewEmptyDelegate). */
export function emptyDelegate(): DelegationTarget {
  return handlerDelegate(notFoundHandler());
}

/** A bare handler as a delegate with no checks, hooks or listed paths. */
export function handlerDelegate(handler: Handler): DelegationTarget {
  return {
    handler,
    healthChecks: () => ({ healthz: [], livez: [], readyz: [] }),
    postStartHooks: () => new Map(),
    preShutdownHooks: () => new Map(),
    listedPaths: () => [],
  };
}
