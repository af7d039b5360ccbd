import { sliceStringToBool } from '../conversion/querybool.js';
import { parseSelector } from '../fields/index.js';
import { parse as parseLabelSelector } from '../labels/index.js';
import type { RequestInfo } from './types.js';

/**
 * RequestInfoFactory (k8s.io/apiserver/pkg/endpoints/request): what a path and method mean to
 * the authorizer, the filters and the metrics, before any server has looked at the request.
 *
 * Resource paths:
 *   /api/{version}/{resource}[/{name}[/{subresource}...]]
 *   /apis/{group}/{version}/namespaces/{namespace}/{resource}[/{name}[/{subresource}...]]
 *   /api/{version}/namespaces[/{name}[/status|/finalize]]   (a namespace object itself)
 *   /api/{version}/watch/... and /api/{version}/proxy/...   (verb from the path, legacy)
 * Everything else (/, /api, /apis, /apis/{group}, /api/{version}, /apis/{g}/{v}, /healthz…)
 * is a non-resource request whose verb is the lower-cased method.
 */

const API_PREFIXES: ReadonlySet<string> = new Set(['api', 'apis']);
const GROUPLESS_API_PREFIXES: ReadonlySet<string> = new Set(['api']);
/** Path segments that carry the verb (`/api/v1/watch/pods`). */
const SPECIAL_VERBS: ReadonlySet<string> = new Set(['proxy', 'watch']);
/** Special verbs after which the third part is not a subresource. */
const SPECIAL_VERBS_NO_SUBRESOURCES: ReadonlySet<string> = new Set(['proxy']);
/** Subresources of a namespace: `namespaces/x/status` is the namespace x, not a resource `status` in x. */
const NAMESPACE_SUBRESOURCES: ReadonlySet<string> = new Set(['status', 'finalize']);
/** path.NameMayNotBe / NameMayNotContain: names that cannot be a path segment. */
const NAME_MAY_NOT_BE: ReadonlySet<string> = new Set(['.', '..']);
const NAME_MAY_NOT_CONTAIN = ['/', '%'] as const;

const METHOD_VERBS: Readonly<Record<string, string>> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * Resolves a request's RequestInfo. Never throws: a path it cannot interpret (`/api/v1/watch`)
 * yields the information known so far, as kube's factory does alongside its error.
 *
 * As kube, a list or watch whose fieldSelector pins `metadata.name` reports that name (so the
 * authorizer can grant access to one object); `verb` stays `list`/`watch`, so handlers must
 * dispatch on `verb`, never on `name` being set.
 */
export function resolveRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const upperMethod = method.toUpperCase();
  const nonResource: RequestInfo = { ...EMPTY, path, verb: method.toLowerCase() };
  let parts = splitPath(path);
  if (parts.length < 3 || !API_PREFIXES.has(parts[0]!)) return nonResource;
  const apiPrefix = parts[0]!;
  parts = parts.slice(1);
  let apiGroup = '';
  if (!GROUPLESS_API_PREFIXES.has(apiPrefix)) {
    if (parts.length < 3) return nonResource;
    apiGroup = parts[0]!;
    parts = parts.slice(1);
  }
  const apiVersion = parts[0]!;
  parts = parts.slice(1);

  let verb: string;
  if (SPECIAL_VERBS.has(parts[0]!)) {
    verb = parts[0]!;
    if (parts.length < 2) {
      return { ...EMPTY, isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion };
    }
    parts = parts.slice(1);
  } else {
    verb = METHOD_VERBS[upperMethod] ?? '';
  }

  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1]!;
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
  }

  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource = parts.length >= 3 && !SPECIAL_VERBS_NO_SUBRESOURCES.has(verb) ? parts[2]! : '';

  if (name === '' && verb === 'get') {
    const list = decodeListOptions(query);
    verb = list.watch ? 'watch' : 'list';
    if (list.nameFromFieldSelector !== undefined) name = list.nameFromFieldSelector;
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  return { isResourceRequest: true, path, verb, apiPrefix, apiGroup, apiVersion, namespace, resource, subresource, name, parts };
}

const EMPTY: RequestInfo = Object.freeze({
  isResourceRequest: false,
  path: '',
  verb: '',
  apiPrefix: '',
  apiGroup: '',
  apiVersion: '',
  namespace: '',
  resource: '',
  subresource: '',
  name: '',
  parts: [],
});

/** The segments of the path as Go's url.URL.Path holds it, which kube's factory splits: percent-escapes decoded first. */
function splitPath(path: string): string[] {
  const trimmed = unescapePath(path).replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

/**
 * url.PathUnescape: each run of `%XX` escapes becomes its bytes read as UTF-8 (bytes that are
 * not UTF-8 become U+FFFD, as Go's JSON encoder writes them); `%2F` is then a `/` like any
 * other, as in kube. A `%` not followed by two hex digits stays as sent (a name holding it is
 * refused as a path segment).
 */
function unescapePath(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
}

/**
 * The part of ListOptions decoding RequestInfo depends on. As kube, any option that fails to
 * decode discards the field-selector name and keeps only `watch`.
 */
function decodeListOptions(query: URLSearchParams): { watch: boolean; nameFromFieldSelector?: string } {
  const watch = sliceStringToBool(query.getAll('watch')) ?? false;
  try {
    for (const key of ['limit', 'timeoutSeconds'] as const) {
      const v = query.get(key);
      if (v !== null && !/^[+-]?\d+$/.test(v)) return { watch };
    }
    const labelSelector = query.get('labelSelector');
    if (labelSelector !== null) parseLabelSelector(labelSelector);
    const fieldSelector = query.get('fieldSelector');
    if (fieldSelector === null) return { watch };
    const name = parseSelector(fieldSelector).requiresExactMatch('metadata.name');
    if (name === undefined || !isValidPathSegmentName(name)) return { watch };
    return { watch, nameFromFieldSelector: name };
  } catch {
    return { watch };
  }
}

/** Convert_Slice_string_To_bool: only absence, `0` and `false` (any case) are false. */
function isValidPathSegmentName(name: string): boolean {
  return !NAME_MAY_NOT_BE.has(name) && NAME_MAY_NOT_CONTAIN.every((s) => !name.includes(s));
}
