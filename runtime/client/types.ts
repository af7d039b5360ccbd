import type { DeleteOptions, List, Status } from '../../apis/meta/v1/types.js';

/**
 * The contracts between generated clients, listers and informers and the
 * client runtime (client-go's role). Generated code depends only on these
 * names, so the runtime can evolve behind them.
 */

/** Identifies a resource for paths, discovery and errors. */
export interface ResourceDescriptor {
  readonly group: string;
  readonly version: string;
  /** Plural resource name, as in URLs. */
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

export interface ListOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  readonly limit?: number;
  readonly continue?: string;
  readonly timeoutSeconds?: number;
  readonly allowWatchBookmarks?: boolean;
  readonly sendInitialEvents?: boolean;
  readonly signal?: AbortSignal;
}

export interface GetOptions {
  readonly resourceVersion?: string;
  readonly signal?: AbortSignal;
}

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface CreateOptions {
  readonly dryRun?: boolean;
  readonly fieldManager?: string;
  readonly fieldValidation?: FieldValidation;
  readonly signal?: AbortSignal;
}

export type UpdateOptions = CreateOptions;

export interface PatchOptions extends CreateOptions {
  /** Re-acquires conflicting fields; only for server-side apply. */
  readonly force?: boolean;
}

export interface ApplyOptions {
  /** Server-side apply requires a field manager. */
  readonly fieldManager: string;
  readonly force?: boolean;
  readonly dryRun?: boolean;
  readonly signal?: AbortSignal;
}

export type PatchType = 'application/json-patch+json' | 'application/merge-patch+json' | 'application/strategic-merge-patch+json' | 'application/apply-patch+yaml';

export type { DeleteOptions, List, Status };

/** A partial object for server-side apply: name (and namespace) required, everything else optional. */
export type ApplyConfiguration<T> = DeepPartial<T> & {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string } & Record<string, unknown>;
};

/** What every apply configuration has: the object's identity (generated ones are typed per kind). */
export interface ApplyConfigurationBase {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}

export type DeepPartial<T> = T extends readonly (infer E)[] ? readonly DeepPartial<E>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/** What listers and informer handlers hand out: cached objects are shared and frozen. */
export type DeepReadonly<T> = T extends readonly (infer E)[] ? readonly DeepReadonly<E>[] : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** One watch event, decoded by the same code path as list items. */
export type WatchEvent<T> =
  { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T } | { readonly type: 'BOOKMARK'; readonly object: T } | { readonly type: 'ERROR'; readonly object: Status };

/** A watch stream: iterate it for events; `stop()` ends the iteration and the request. */
export interface Watch<T> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
}

/** One HTTP request as the REST client sends it. */
export interface RESTRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path: `/apis/example.com/v1/namespaces/ns/widgets/x`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  /** Content-Type of the body; JSON when absent. */
  readonly contentType?: string;
  /** The Accept header; `application/json` when absent. Answers are decoded only as JSON (media type parameters allowed: aggregated discovery's `application/json;g=…`). */
  readonly accept?: string;
  readonly signal?: AbortSignal;
}

/**
 * The transport every typed client runs on: HTTP to an API server, or an
 * in-process loopback. Non-2xx answers reject with an error carrying the
 * Status.
 */
export interface RESTClient {
  request<R>(req: RESTRequest): Promise<R>;
  watch<T>(req: Omit<RESTRequest, 'method' | 'body' | 'contentType'>): Promise<Watch<T>>;
}
