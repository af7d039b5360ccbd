import type { BackendRequest, BackendResponse } from './backend-client.js';
import type { RegisteredAPIService } from './registry.js';

/**
 * What the merged discovery and OpenAPI need from the APIService registration, in the shape
 * of its APIServiceRegistry (registry.ts) so that one satisfies this as it is: the handled
 * APIServices with their availability, their changes, and a way to ask a service-backed one's
 * server over the proxy's own transport (front-proxy certificate, caBundle, service endpoints).
 */
export interface AggregatedAPIServices {
  list(): readonly AggregatedAPIService[];
  get(name: string): AggregatedAPIService | undefined;
  /** Calls `listener` synchronously on every change; returns the unsubscribe. */
  subscribe(listener: (event: { readonly type: string; readonly apiService: { readonly name: string } }) => void): () => void;
  /**
   * Sends a request to the server behind a service-backed APIService as the aggregator
   * (system:kube-aggregator); resolves with any answer, rejects when there is none.
   */
  requestBackend(name: string, r: BackendGet): Promise<BackendResponse>;
}

/** One APIService as the registration handles it (the fields of RegisteredAPIService the controllers read). */
export type AggregatedAPIService = Pick<RegisteredAPIService, 'name' | 'group' | 'version' | 'groupPriorityMinimum' | 'versionPriority' | 'local' | 'available' | 'service'>;

/** The GET the discovery and OpenAPI fetchers send (the user is the aggregator's). */
export type BackendGet = Pick<BackendRequest, 'path' | 'headers' | 'timeoutMs' | 'signal'>;

export type { BackendResponse };

/** GETs `path` (with these headers) from one backend; what the fetchers are written against. */
export type BackendGetter = (path: string, headers: Readonly<Record<string, string>>) => Promise<BackendResponse>;

/** A getter over the registration for APIService `name`, with a time limit per request. */
export function backendGetter(apiServices: AggregatedAPIServices, name: string, o: { readonly timeoutMs: number; readonly signal?: AbortSignal }): BackendGetter {
  return (path, headers) => apiServices.requestBackend(name, { path, headers, timeoutMs: o.timeoutMs, ...(o.signal !== undefined ? { signal: o.signal } : {}) });
}

/** The body as JSON, or an Error naming what was fetched. */
export function decodeJSON(res: BackendResponse, what: string): unknown {
  try {
    return JSON.parse(res.body.toString('utf8')) as unknown;
  } catch (err) {
    throw new Error(`${what}: invalid JSON: ${(err as Error).message}`, { cause: err });
  }
}

/** A header's value, undefined when absent or empty. */
export function headerValue(res: BackendResponse, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** An answer the caller cannot use, with the start of its body. */
export function unexpectedStatus(path: string, res: BackendResponse): Error {
  const text = res.body.toString('utf8').slice(0, 512).trim();
  return new Error(`GET ${path}: unexpected status ${res.status}${text !== '' ? `: ${text}` : ''}`);
}

/**
 * What the aggregator's discovery and OpenAPI controllers both do before their work loop:
 * queue the APIServices there are, every one that changes, and (kube polls backends) all of
 * them again every `resyncPeriodMs`, until `signal` aborts.
 */
export function followAPIServices(
  signal: AbortSignal,
  apiServices: AggregatedAPIServices,
  o: { readonly enqueue: (name: string) => void; readonly initially: (s: AggregatedAPIService) => boolean; readonly resync: () => void; readonly resyncPeriodMs: number },
): void {
  const unsubscribe = apiServices.subscribe((event) => o.enqueue(event.apiService.name));
  for (const s of apiServices.list()) if (o.initially(s)) o.enqueue(s.name);
  const timer = setInterval(o.resync, o.resyncPeriodMs);
  timer.unref();
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(timer);
      unsubscribe();
    },
    { once: true },
  );
}
