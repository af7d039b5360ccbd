// kube-apiserver 1.32's recorded responses (test/fixtures/kube-1.32, provenance in its README):
// the serialized object of every kind the Kubernetes clients cover and the discovery documents,
// read as the replay server and the tests need them. The files are never rewritten: a test that
// compares an answer with a recording compares it with what kube wrote.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/kube-1.32/', import.meta.url));

export type JSONObject = { [key: string]: unknown };

/** One resource as kube-apiserver's discovery lists it (a subresource is not one). */
export interface RecordedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
  readonly subresources: readonly string[];
}

/** A recorded object: the bytes kube's JSON serializer wrote, and its resource. */
export interface RecordedObject {
  readonly file: string;
  readonly text: string;
  readonly object: JSONObject;
  readonly resource: RecordedResource;
}

/** The recorded discovery documents, as served: `/apis` aggregated (v2), `/api` and `/api/v1` legacy. */
export interface RecordedDiscovery {
  readonly aggregated: string;
  readonly apiVersions: string;
  readonly coreV1: string;
}

export function recordedDiscovery(): RecordedDiscovery {
  const read = (name: string) => readFileSync(join(FIXTURES, 'discovery', name), 'utf8');
  return { aggregated: read('aggregated_v2.json'), apiVersions: read('api.json'), coreV1: read('api__v1.json') };
}

interface AggregatedResource {
  resource: string;
  responseKind: { kind: string };
  scope: 'Namespaced' | 'Cluster';
  verbs: string[];
  subresources?: { subresource: string }[];
}
interface AggregatedList {
  items: { metadata: { name: string }; versions: { version: string; resources: AggregatedResource[] }[] }[];
}
interface LegacyList {
  resources: { name: string; kind: string; namespaced: boolean; verbs: string[] }[];
}

/** Every resource the recorded server serves: the groups of `/apis` and the core group of `/api/v1`. */
export function servedResources(discovery: RecordedDiscovery = recordedDiscovery()): RecordedResource[] {
  const out: RecordedResource[] = [];
  const core = JSON.parse(discovery.coreV1) as LegacyList;
  for (const r of core.resources) {
    if (r.name.includes('/')) continue;
    const subresources = core.resources.filter((s) => s.name.startsWith(`${r.name}/`)).map((s) => s.name.slice(r.name.length + 1));
    out.push({ group: '', version: 'v1', resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs, subresources });
  }
  const apis = JSON.parse(discovery.aggregated) as AggregatedList;
  for (const g of apis.items) {
    for (const v of g.versions) {
      for (const r of v.resources) {
        const subresources = (r.subresources ?? []).map((s) => s.subresource);
        out.push({ group: g.metadata.name, version: v.version, resource: r.resource, kind: r.responseKind.kind, namespaced: r.scope === 'Namespaced', verbs: r.verbs, subresources });
      }
    }
  }
  return out;
}

/** `apps.v1.Deployment.json` → apps, v1, Deployment; `core.v1.Pod.json` → the core group. */
export function gvkOfFile(file: string): { group: string; version: string; kind: string } {
  const parts = file.replace(/\.json$/, '').split('.');
  const kind = parts.pop()!;
  const version = parts.pop()!;
  const group = parts.join('.');
  return { group: group === 'core' ? '' : group, version, kind };
}

/** The recorded objects of every served kind (not Scale, Status or WatchEvent, which no resource serves as itself). */
export function recordedObjects(resources: readonly RecordedResource[] = servedResources()): RecordedObject[] {
  const dir = join(FIXTURES, 'objects');
  const out: RecordedObject[] = [];
  for (const file of readdirSync(dir).sort()) {
    const { group, version, kind } = gvkOfFile(file);
    const resource = resources.find((r) => r.group === group && r.version === version && r.kind === kind);
    if (resource === undefined) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    out.push({ file, text, object: JSON.parse(text) as JSONObject, resource });
  }
  return out;
}

/** A recorded object other than a served kind's (autoscaling.v1.Scale, core.v1.Status, core.v1.WatchEvent). */
export function recordedFile(name: string): JSONObject {
  return JSON.parse(readFileSync(join(FIXTURES, 'objects', name), 'utf8')) as JSONObject;
}

/** The group resource as kube writes it in messages: `deployments.apps`, `pods` for the core group. */
export function groupResource(r: Pick<RecordedResource, 'group' | 'resource'>): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}

export function groupVersion(r: Pick<RecordedResource, 'group' | 'version'>): string {
  return r.group === '' ? r.version : `${r.group}/${r.version}`;
}
