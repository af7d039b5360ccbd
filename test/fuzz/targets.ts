// What the fuzz sends its requests to: a built-in cluster-scoped kind (Namespace), two built-in
// namespaced kinds (Service, Flunder), a custom resource whose CRD the suite creates (with a
// schemaless subtree, a map of strings, and the status and scale subresources), and discovery.
// Each target knows its paths, a valid object, a valid change, and what its decoder accepts, so
// that a generator can tell a bad input from a valid one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { until } from '../integration/assertions.js';
import { repoRoot } from '../integration/harness.js';
import type { HttpsClient } from '../integration/https.js';

export type Obj = Record<string, unknown>;

/** Every verb of a resource; `patch` comes in four types. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPE: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface Target {
  /** Short name used in failure reports and in the model's keys. */
  readonly id: 'namespace' | 'service' | 'flunder' | 'crontab';
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Decodes `application/vnd.kubernetes.protobuf` bodies (built-in kinds with field numbers). */
  readonly protobuf: boolean;
  /** Accepts strategic merge patches (built-in kinds; custom resources answer 415). */
  readonly strategic: boolean;
  /** Serves deletecollection (kube's Namespace and Service do not: 405). */
  readonly deleteCollection: boolean;
  /** Subresources served on an object. */
  readonly subresources: readonly ('status' | 'scale')[];
  /** Path of a subtree kept as sent (`x-kubernetes-preserve-unknown-fields`), if any. */
  readonly schemaless?: readonly string[];
  /** Path of a map of strings in the spec (keys are data, not label keys), if any. */
  readonly stringMap?: readonly string[];
  /** A path under the spec the schema does not know (pruned, or refused under Strict). */
  readonly unknownSpecField: readonly string[];
  /** The collection path (in `ns` for namespaced kinds). */
  collection(ns: string): string;
  /** A valid new object. */
  manifest(name: string, ns: string): Obj;
}

const flunderGV = 'wardle.example.com/v1beta1';
export const CR_GROUP = 'fuzz.example.com';
const crGV = `${CR_GROUP}/v1`;

const prefix = (apiVersion: string): string => (apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);

export const namespaceTarget: Target = {
  id: 'namespace',
  apiVersion: 'v1',
  kind: 'Namespace',
  namespaced: false,
  protobuf: true,
  strategic: true,
  deleteCollection: false,
  subresources: ['status'],
  unknownSpecField: ['spec', 'bogus'],
  collection: () => '/api/v1/namespaces',
  manifest: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { fuzz: 'yes' } } }),
};

export const serviceTarget: Target = {
  id: 'service',
  apiVersion: 'v1',
  kind: 'Service',
  namespaced: true,
  protobuf: true,
  strategic: true,
  deleteCollection: false,
  subresources: ['status'],
  unknownSpecField: ['spec', 'bogus'],
  collection: (ns) => `/api/v1/namespaces/${ns}/services`,
  manifest: (name) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: { fuzz: 'yes' } },
    spec: { selector: { app: name.slice(0, 60) }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
  }),
};

export const flunderTarget: Target = {
  id: 'flunder',
  apiVersion: flunderGV,
  kind: 'Flunder',
  namespaced: true,
  protobuf: false,
  strategic: true,
  deleteCollection: true,
  subresources: ['status'],
  unknownSpecField: ['spec', 'bogus'],
  collection: (ns) => `/apis/${flunderGV}/namespaces/${ns}/flunders`,
  manifest: (name) => ({ apiVersion: flunderGV, kind: 'Flunder', metadata: { name, labels: { fuzz: 'yes' } }, spec: { flunderReference: 'x' } }),
};

export const crTarget: Target = {
  id: 'crontab',
  apiVersion: crGV,
  kind: 'CronTab',
  namespaced: true,
  protobuf: false,
  strategic: false,
  deleteCollection: true,
  subresources: ['status', 'scale'],
  schemaless: ['spec', 'free'],
  stringMap: ['spec', 'tags'],
  unknownSpecField: ['spec', 'bogus'],
  collection: (ns) => `/apis/${crGV}/namespaces/${ns}/crontabs`,
  manifest: (name) => ({ apiVersion: crGV, kind: 'CronTab', metadata: { name, labels: { fuzz: 'yes' } }, spec: { cronSpec: '* * * * */5', image: 'img', replicas: 1 } }),
};

export const targets: readonly Target[] = [namespaceTarget, serviceTarget, flunderTarget, crTarget];

/** The path of one object, or of one of its subresources. */
export function itemPath(t: Target, ns: string, name: string, subresource?: string): string {
  return `${t.collection(ns)}/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}`;
}

/** The collection over all namespaces (the whole kind). */
export function allPath(t: Target): string {
  const plural = t.collection('x').split('/').pop() as string;
  return `${prefix(t.apiVersion)}/${plural}`;
}

/**
 * Creates the CRD of the custom resource target: the CronTab manifest of apis/crds (status and
 * scale subresources) in the fuzz's own group, with a schemaless subtree and a map of strings
 * added to its spec; waits until its controllers have made it served.
 */
export async function installCRD(client: HttpsClient, ns: string): Promise<void> {
  type CRD = { metadata: { name: string }; spec: { group: string; versions: Array<{ schema: { openAPIV3Schema: { properties: { spec: { properties: Obj } } } } }> } };
  const crd = parse(readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8')) as CRD;
  crd.metadata.name = `crontabs.${CR_GROUP}`;
  crd.spec.group = CR_GROUP;
  for (const v of crd.spec.versions) {
    Object.assign(v.schema.openAPIV3Schema.properties.spec.properties, {
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      tags: { type: 'object', additionalProperties: { type: 'string' } },
    });
  }
  const created = await client.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (created.status !== 201) throw new Error(`create CRD: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  await until(`${crd.metadata.name} served`, async () => ((await client.request({ path: crTarget.collection(ns) })).status === 200 ? true : undefined), 60_000);
}
