// Shared pieces of the custom-resource serving tests: the control plane in process, CronTab
// CRD builders, establishing a CRD through its status endpoint, bounded waits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiGroups } from '../../generated/index.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';
import { readCredentials } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

/** The control plane on SQLite in this process, with an admin HTTPS client. */
export interface Env {
  readonly plane: ControlPlane;
  readonly client: HttpsClient;
  close(): Promise<void>;
}

export async function startEnv(): Promise<Env> {
  const dataDir = mkdtempSync(join(tmpdir(), 'apiextensions-'));
  const plane = await startControlPlane({ dataDir, securePort: 0, bindAddress: '127.0.0.1', storageBackend: 'sqlite', groups: apiGroups });
  const client = new HttpsClient(readCredentials(plane.kubeconfigPath));
  return {
    plane,
    client,
    async close() {
      client.close();
      await plane.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
export const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

export type Obj = Record<string, unknown>;

/** The CronTab CRD of the Kubernetes documentation, with status and scale subresources, printer columns and a selectable field. */
export function cronTabCRD(o: { versions?: Obj[]; conversion?: Obj; group?: string; plural?: string; kind?: string; scope?: string } = {}): Obj {
  const group = o.group ?? 'stable.example.com';
  const plural = o.plural ?? 'crontabs';
  const kind = o.kind ?? 'CronTab';
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: o.scope ?? 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, shortNames: plural === 'crontabs' ? ['ct'] : [], categories: ['all'] },
      versions: o.versions ?? [cronTabVersion('v1', { storage: true })],
      ...(o.conversion !== undefined ? { conversion: o.conversion } : {}),
    },
  };
}

export function cronTabSchema(extraSpec: Obj = {}): Obj {
  return {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
          image: { type: 'string' },
          replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
          ...extraSpec,
        },
      },
      status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
    },
  };
}

export function cronTabVersion(name: string, o: { storage?: boolean; served?: boolean; schema?: Obj; extra?: Obj } = {}): Obj {
  return {
    name,
    served: o.served ?? true,
    storage: o.storage ?? false,
    schema: { openAPIV3Schema: o.schema ?? cronTabSchema() },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } },
    additionalPrinterColumns: [
      { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    selectableFields: [{ jsonPath: '.spec.image' }],
    ...(o.extra ?? {}),
  };
}

export function cronTab(name: string, spec: Obj = { cronSpec: '* * * * */5', image: 'my-cron-image' }, apiVersion = 'stable.example.com/v1', metadata: Obj = {}): Obj {
  return { apiVersion, kind: 'CronTab', metadata: { name, ...metadata }, spec };
}

/**
 * Creates a CRD and makes it served: marks its names accepted and the CRD established through
 * the status endpoint unless a controller already did, then waits until `probe` answers 200.
 */
export async function createEstablishedCRD(client: HttpsClient, crd: Obj, probe: string): Promise<Obj> {
  const created = await client.json('POST', CRDS, crd);
  if (created.status !== 201) throw new Error(`create CRD: ${created.status} ${JSON.stringify(created.body)}`);
  const name = (crd['metadata'] as { name: string }).name;
  await establish(client, name);
  await waitServed(client, probe);
  return (await client.json('GET', `${CRDS}/${name}`)).body;
}

export async function waitServed(client: HttpsClient, probe: string): Promise<void> {
  await eventually(async () => {
    const r = await client.request({ path: probe });
    if (r.status !== 200) throw new Error(`${probe}: ${r.status} ${r.text.slice(0, 300)}`);
  });
}

/** Sets NamesAccepted and Established (what the naming and establishing controllers do) unless already established. */
export async function establish(client: HttpsClient, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const crd = (await client.json('GET', `${CRDS}/${name}`)).body as { spec: { names: Obj }; status?: { conditions?: Array<{ type: string; status: string }> } };
    const conditions = crd.status?.conditions ?? [];
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const status = {
      ...(crd.status ?? {}),
      acceptedNames: crd.spec.names,
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: now },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: now },
      ],
    };
    const r = await client.json('PUT', `${CRDS}/${name}/status`, { ...crd, status });
    if (r.status === 200) return;
    if (r.status !== 409 || attempt > 20) throw new Error(`establish ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** Retries `check` until it passes (20 s at most). */
export async function eventually(check: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
