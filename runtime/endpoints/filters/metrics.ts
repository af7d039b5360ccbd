import type { APIRequest, Filter } from '../../apimachinery/request/http.js';
import type { RequestInfo } from '../../apimachinery/request/types.js';

/** The label set of apiserver_request_total / apiserver_request_duration_seconds (minus code). */
export interface RequestMetricLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

/** What the request-metrics filter reports to (APIServerMetrics in runtime/server implements it). */
export interface RequestMetricsRecorder {
  /** Called once per request when its response is finished or the connection is gone; code 0 if nothing was written. */
  observeRequest(labels: RequestMetricLabels, code: number, seconds: number): void;
}

export const APISERVER_COMPONENT = 'apiserver';

/**
 * Records every request when its response ends, with kube's labels (endpoints/metrics
 * MonitorRequest). kube records inside each route; recording here, just inside panic recovery,
 * also counts the answers the filters give themselves (401, 403, 429, 504) under the same
 * labels, and the duration includes the filters.
 */
export function withRequestMetrics(recorder: RequestMetricsRecorder): Filter {
  return (req, res, next) => {
    res.raw.once('close', () => {
      recorder.observeRequest(requestMetricLabels(req), res.raw.headersSent ? res.raw.statusCode : 0, (performance.now() - req.receivedAt) / 1000);
    });
    return next(req, res);
  };
}

export function requestMetricLabels(req: APIRequest): RequestMetricLabels {
  const info = req.info;
  const scope = cleanScope(info);
  return {
    verb: reportedVerb(req, scope),
    dry_run: cleanDryRun(req.query),
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    scope,
    component: info.isResourceRequest ? APISERVER_COMPONENT : '',
  };
}

/** CleanScope: resource (named or create), namespace, cluster, or '' for non-resource requests. */
export function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}

const VALID_REQUEST_METHODS: ReadonlySet<string> = new Set([
  'APPLY',
  'CONNECT',
  'CREATE',
  'DELETE',
  'DELETECOLLECTION',
  'GET',
  'LIST',
  'PATCH',
  'POST',
  'PROXY',
  'PUT',
  'UPDATE',
  'WATCH',
  'WATCHLIST',
]);
const CONNECT_SUBRESOURCES: ReadonlySet<string> = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

/**
 * cleanVerb(CanonicalVerb(method, scope)): GET/HEAD become LIST unless a single object is
 * addressed, watches (by query or legacy path) are WATCH, apply patches APPLY, connect
 * subresources CONNECT; other methods keep their name (POST, PUT, DELETE, PATCH) and anything
 * unknown is `other`.
 */
function reportedVerb(req: APIRequest, scope: string): string {
  const info = req.info;
  if (info.verb === 'watch') return 'WATCH';
  let verb = req.method;
  const watch = req.query.get('watch');
  if (verb === 'GET' && watch !== null && watch !== '0' && watch.toLowerCase() !== 'false') verb = 'WATCH';
  else if (verb === 'GET' || verb === 'HEAD') verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  if (verb === 'PATCH' && req.headers['content-type'] === 'application/apply-patch+yaml') verb = 'APPLY';
  if (info.isResourceRequest && CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  return VALID_REQUEST_METHODS.has(verb) ? verb : 'other';
}

/** cleanDryRun: '' when absent, `invalid` unless every value is All, else the sorted distinct values. */
function cleanDryRun(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}
