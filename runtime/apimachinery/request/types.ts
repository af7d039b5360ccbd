/**
 * What the filters learn about a request before any server handles it
 * (k8s.io/apiserver/pkg/endpoints/request): its RequestInfo and the user.
 */

/**
 * RequestInfo as k8s.io/apiserver's RequestInfoFactory derives it from the path and method.
 * For non-resource requests (`/healthz`, `/api`, `/openapi/v3`) only `path` and `verb`
 * (the lower-cased HTTP method) are meaningful.
 */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  /** The URL path, undecoded. */
  readonly path: string;
  /**
   * get, list, watch, create, update, patch, delete, deletecollection for resource requests
   * (`watch` from `?watch=true` or the legacy `/watch/` prefix); the lower-cased method otherwise.
   */
  readonly verb: string;
  /** `api` or `apis`. */
  readonly apiPrefix: string;
  /** '' for the core group. */
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The path segments after the group/version (and after `namespaces/<ns>` when namespaced). */
  readonly parts: readonly string[];
}

/** The authenticated user (k8s.io/apiserver/pkg/authentication/user.Info). */
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}
