// Paths and selectors as kube-apiserver reads them: `/api/v1/…` and `/apis/<group>/<version>/…`,
// `namespaces/<ns>/<resource>[/<name>[/<subresource>]]` (RequestInfo's rule, with `status` and
// `finalize` as the namespace's own subresources), and label and field selectors on metadata.
import type { JSONObject, RecordedResource } from './recorded.js';
import { metaOf } from './replay-store.js';
import { badRequest, type StatusAnswer } from './replay-status.js';

export interface Route {
  readonly resource: RecordedResource;
  /** Empty for cluster-scoped resources and lists across namespaces. */
  readonly namespace: string;
  readonly name?: string;
  readonly subresource?: string;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** The resource a path names, or undefined when no served resource is there. */
export function routeOf(path: string, resources: readonly RecordedResource[]): Route | undefined {
  const parts = path.split('/').slice(1).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) [group, version, rest] = ['', parts[1]!, parts.slice(2)];
  else if (parts[0] === 'apis' && parts.length >= 4) [group, version, rest] = [parts[1]!, parts[2]!, parts.slice(3)];
  else return undefined;
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
    else namespace = '';
  }
  const [plural, name, subresource, ...extra] = rest;
  if (extra.length > 0 || plural === undefined) return undefined;
  const resource = resources.find((r) => r.group === group && r.version === version && r.resource === plural);
  if (resource === undefined) return undefined;
  if (subresource !== undefined && !resource.subresources.includes(subresource)) return undefined;
  if (resource.namespaced && namespace === '' && name !== undefined) return undefined;
  return { resource, namespace: resource.namespaced ? namespace : '', ...(name === undefined ? {} : { name }), ...(subresource === undefined ? {} : { subresource }) };
}

interface Requirement {
  readonly key: string;
  readonly op: '=' | '!=' | 'exists' | '!exists';
  readonly value: string;
}

/**
 * Label requirements `k=v`, `k==v`, `k!=v`, `k`, `!k`, comma-separated (set-based ones are not
 * replayed); `!=` and `!k` match objects without the key, as kube's.
 */
function parseLabels(selector: string): Requirement[] {
  return selector
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t) => {
      const ne = t.indexOf('!=');
      if (ne > 0) return { key: t.slice(0, ne), op: '!=', value: t.slice(ne + 2) };
      const eq = t.indexOf('=');
      if (eq > 0) return { key: t.slice(0, eq), op: '=', value: t.slice(t[eq + 1] === '=' ? eq + 2 : eq + 1) };
      if (t.startsWith('!')) return { key: t.slice(1), op: '!exists', value: '' };
      return { key: t, op: 'exists', value: '' };
    });
}

function matches(values: ReadonlyMap<string, string>, reqs: readonly Requirement[]): boolean {
  return reqs.every((r) => {
    const v = values.get(r.key);
    if (r.op === 'exists') return v !== undefined;
    if (r.op === '!exists') return v === undefined;
    if (r.op === '=') return v === r.value;
    return v !== r.value;
  });
}

function stringMap(v: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof v === 'object' && v !== null) for (const [k, s] of Object.entries(v)) if (typeof s === 'string') out.set(k, s);
  return out;
}

/** The objects a list or watch selects; a field other than metadata.name or metadata.namespace is a 400, as for kinds without selectable fields. */
export function selects(objects: readonly JSONObject[], labelSelector: string, fieldSelector: string): JSONObject[] | StatusAnswer {
  const labels = parseLabels(labelSelector);
  const fields = parseLabels(fieldSelector);
  for (const f of fields) if (f.key !== 'metadata.name' && f.key !== 'metadata.namespace') return badRequest(`field label not supported: ${f.key}`);
  return objects.filter((o) => {
    const meta = metaOf(o);
    const fieldValues = new Map([
      ['metadata.name', typeof meta['name'] === 'string' ? meta['name'] : ''],
      ['metadata.namespace', typeof meta['namespace'] === 'string' ? meta['namespace'] : ''],
    ]);
    return matches(stringMap(meta['labels']), labels) && matches(fieldValues, fields);
  });
}
