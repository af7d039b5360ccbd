import { newPathNotFound } from '../../apimachinery/errors/index.js';
import type { GroupVersionResource } from './resources.js';

/** What an API path names, as kube-apiserver's RequestInfo resolver reads it. */
export interface Route {
  readonly resource: GroupVersionResource;
  /** '' for cluster-scoped paths and lists across namespaces. */
  readonly namespace: string;
  /** '' for a collection. */
  readonly name: string;
  /** '', 'status', 'scale'… */
  readonly subresource: string;
  /** Whether the path had a `namespaces/<ns>/` segment for a resource other than namespaces itself. */
  readonly namespaceInPath: boolean;
}

/** Subresources of the namespaces resource itself: `/api/v1/namespaces/<name>/status`. */
const NAMESPACE_SUBRESOURCES: ReadonlySet<string> = new Set(['status', 'finalize']);

/** Parses `/api/v1/…` and `/apis/<group>/<version>/…`; 404 for anything else. */
export function parseRoute(path: string): Route {
  const segments =
    path
      .split('?')[0]
      ?.split('/')
      .filter((s) => s !== '')
      .map(decode) ?? [];
  let group = '';
  let version: string | undefined;
  let rest: string[];
  if (segments[0] === 'api') {
    version = segments[1];
    rest = segments.slice(2);
  } else if (segments[0] === 'apis') {
    group = segments[1] ?? '';
    version = segments[2];
    rest = segments.slice(3);
  } else {
    throw newPathNotFound();
  }
  if (version === undefined || group === undefined || rest.length === 0) throw newPathNotFound();
  let namespace = '';
  let namespaceInPath = false;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1] as string;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] as string)) {
      rest = rest.slice(2);
      namespaceInPath = true;
    }
  }
  if (rest.length > 3) throw newPathNotFound();
  const [resource = '', name = '', subresource = ''] = rest;
  return {
    resource: { group, version, resource },
    // The namespaces resource names itself in the path: its objects are cluster-scoped.
    namespace: namespaceInPath ? namespace : '',
    name,
    subresource,
    namespaceInPath,
  };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw newPathNotFound();
  }
}
