import type { Scope, Verb } from '../model/types.js';
import { pointer, type Problems } from './problems.js';

/** One REST resource of a group version, as the document's paths describe it. */
export interface ResourceInfo {
  /** The resource name (plural): `pods`, `deployments`. */
  readonly plural: string;
  readonly kind: string;
  readonly scope: Scope;
  /** Sorted, as the model keeps them. */
  readonly verbs: readonly Verb[];
  /** The definition the list operation answers with (`io.k8s.api.core.v1.PodList`); undefined without list. */
  readonly listDefinition: string | undefined;
  readonly status: boolean;
  readonly scale: boolean;
  /** Subresources the model has no place for (`eviction`, `exec`, `log`…): the typed client does not offer them. */
  readonly otherSubresources: readonly string[];
  /** JSON pointer of the first path of the resource, for problems. */
  readonly at: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** kube's `x-kubernetes-action` → the verb it serves (connect is a subresource's only). */
const VERB_OF: Readonly<Record<string, Verb>> = {
  get: 'get',
  list: 'list',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
  watch: 'watch',
  watchlist: 'watch',
};

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

interface Building {
  plural: string;
  kind: string | undefined;
  namespaced: boolean | undefined;
  verbs: Set<Verb>;
  listDefinition: string | undefined;
  status: boolean;
  scale: boolean;
  other: Set<string>;
  at: string;
}

/**
 * The resources of one group version from the document's paths: a path
 * `/apis/<group>/<version>[/watch][/namespaces/{namespace}]/<resource>[/{name}[/<subresource>]]`
 * names the resource, its scope (`{namespace}` in it) and, with each
 * operation's `x-kubernetes-action`, the verbs; the operations'
 * `x-kubernetes-group-version-kind` the kind. A resource whose paths
 * disagree (two kinds, both scopes) is a problem at the path.
 */
export function readResources(document: unknown, file: string, group: string, version: string, problems: Problems): ResourceInfo[] {
  const paths = isNode(document) && isNode(document['paths']) ? document['paths'] : {};
  const prefix = group === '' ? `/api/${version}/` : `/apis/${group}/${version}/`;
  const byName = new Map<string, Building>();
  for (const path of Object.keys(paths).sort()) {
    const at = pointer('paths', path);
    if (!path.startsWith(prefix)) {
      if (`${path}/` !== prefix) problems.add(file, at, `path outside ${prefix}`);
      continue;
    }
    const item = paths[path];
    if (!isNode(item) || path === prefix) continue;
    const segments = path.slice(prefix.length).split('/');
    if (segments[0] === 'watch') segments.shift();
    const namespaced = segments[0] === 'namespaces' && segments[1] === '{namespace}' && segments.length > 2;
    if (namespaced) segments.splice(0, 2);
    const [plural, name, subresource] = segments as [string, string | undefined, string | undefined];
    if (name !== undefined && name !== '{name}') {
      problems.add(file, at, `expected {name} after the resource ${plural}`);
      continue;
    }
    const r = byName.get(plural) ?? newResource(plural, at);
    byName.set(plural, r);
    for (const method of METHODS) {
      const op = item[method];
      if (!isNode(op)) continue;
      const opAt = `${at}${pointer(method)}`;
      const action = op['x-kubernetes-action'];
      const gvk = readGvk(op['x-kubernetes-group-version-kind']);
      if (typeof action !== 'string' || gvk === undefined) {
        problems.add(file, opAt, 'an operation without x-kubernetes-action and x-kubernetes-group-version-kind');
        continue;
      }
      if (subresource !== undefined) {
        subresourceOp(r, subresource, action, gvk, { group, version }, (m) => problems.add(file, opAt, m));
        continue;
      }
      const verb = VERB_OF[action];
      if (verb === undefined || gvk.group !== group || gvk.version !== version) {
        problems.add(file, opAt, `unexpected action ${action} of ${gvk.group}/${gvk.version} ${gvk.kind} on a resource of ${group}/${version}`);
        continue;
      }
      if (r.kind !== undefined && r.kind !== gvk.kind) problems.add(file, opAt, `resource ${plural} is of kind ${r.kind} and ${gvk.kind}`);
      if (r.namespaced !== undefined && r.namespaced !== namespaced && !(verb === 'list' || verb === 'watch')) {
        problems.add(file, opAt, `resource ${plural} is both namespaced and cluster-scoped`);
      }
      r.kind = gvk.kind;
      // The list and watch across all namespaces (`/pods`) do not decide the scope; a named path does.
      if (namespaced || name !== undefined || verb === 'create' || verb === 'deletecollection') r.namespaced = r.namespaced === true || namespaced;
      r.verbs.add(verb);
      if (action === 'list') r.listDefinition ??= listDefinition(op);
    }
  }
  const out: ResourceInfo[] = [];
  for (const r of byName.values()) {
    if (r.kind === undefined) continue; // only subresources of another group's resource
    if (r.verbs.has('list') && r.listDefinition === undefined) problems.add(file, r.at, `resource ${r.plural} lists without a response schema`);
    out.push({
      plural: r.plural,
      kind: r.kind,
      scope: r.namespaced === true ? 'Namespaced' : 'Cluster',
      verbs: [...r.verbs].sort(),
      listDefinition: r.listDefinition,
      status: r.status,
      scale: r.scale,
      otherSubresources: [...r.other].sort(),
      at: r.at,
    });
  }
  return out.sort((a, b) => (a.plural < b.plural ? -1 : 1));
}

function newResource(plural: string, at: string): Building {
  return { plural, kind: undefined, namespaced: undefined, verbs: new Set(), listDefinition: undefined, status: false, scale: false, other: new Set(), at };
}

/**
 * `status` (the kind itself through get/put/patch) and `scale` (autoscaling/v1 Scale) are what the
 * model and the typed clients have; every other subresource is recorded, not offered.
 */
function subresourceOp(r: Building, subresource: string, action: string, gvk: Gvk, own: { group: string; version: string }, problem: (m: string) => void): void {
  if (subresource === 'status') {
    if (gvk.group !== own.group || gvk.version !== own.version || (r.kind !== undefined && gvk.kind !== r.kind)) {
      problem(`the status subresource of ${r.plural} is of ${gvk.group}/${gvk.version} ${gvk.kind}, not of the resource's kind`);
    }
    r.status = true;
    return;
  }
  if (subresource === 'scale' && gvk.group === 'autoscaling' && gvk.version === 'v1' && gvk.kind === 'Scale' && action !== 'connect') {
    r.scale = true;
    return;
  }
  r.other.add(subresource);
}

function readGvk(value: unknown): Gvk | undefined {
  if (!isNode(value)) return undefined;
  const { group, version, kind } = value;
  return typeof group === 'string' && typeof version === 'string' && typeof kind === 'string' ? { group, version, kind } : undefined;
}

/** The definition a list operation answers with (its 200 response's JSON schema). */
function listDefinition(op: Node): string | undefined {
  const responses = op['responses'];
  const ok = isNode(responses) ? responses['200'] : undefined;
  const content = isNode(ok) ? ok['content'] : undefined;
  const json = isNode(content) ? content['application/json'] : undefined;
  const schema = isNode(json) ? json['schema'] : undefined;
  const ref = isNode(schema) ? schema['$ref'] : undefined;
  return typeof ref === 'string' && ref.startsWith('#/components/schemas/') ? ref.slice('#/components/schemas/'.length) : undefined;
}
