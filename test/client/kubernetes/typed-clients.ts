// The generated typed client of a recorded resource, reached as a program reaches it:
// `new Kubernetes(rest).appsV1().deployments(ns)`. The accessor names are client-go's
// (`AppsV1()`, `RbacV1()`, `CoreV1()`), so a resource that had no typed client, or one under
// another name, fails the lookup instead of being skipped.
import { after, before } from 'node:test';
import { Kubernetes } from '../../../generated/kubernetes/index.js';
import type { ObjectMeta } from '../../../apis/meta/v1/index.js';
import type { ApplyConfigurationBase, Creater, Deleter, Getter, Lister, Patcher, RESTClient, Updater, Watcher } from '../../../runtime/client/index.js';
import { restClientForConfig, type RESTConfig } from '../../../runtime/client/rest/index.js';
import type { RecordedResource } from './recorded.js';
import { ReplayServer } from './replay-server.js';

/** What the tests read of an object; its types are checked by tsc over generated/kubernetes. */
export interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}
export interface ApplyObj extends ApplyConfigurationBase {
  readonly [field: string]: unknown;
}
export type TypedClient = Creater<Obj> & Getter<Obj> & Lister<Obj> & Updater<Obj> & Patcher<Obj, ApplyObj> & Deleter & Watcher<Obj>;

/** client-go's group-version accessor: the group's first label and the version (`rbac.authorization.k8s.io` v1 → `rbacV1`). */
export function accessorOf(r: Pick<RecordedResource, 'group' | 'version'>): string {
  const label = r.group === '' ? 'core' : r.group.split('.')[0]!;
  return `${label}${r.version[0]!.toUpperCase()}${r.version.slice(1)}`;
}

/** The typed client of `r` in `namespace` (ignored for cluster-scoped resources). */
export function typedClient(clientset: Kubernetes, r: RecordedResource, namespace: string): TypedClient {
  const groupVersion = (clientset as unknown as Record<string, (() => Record<string, (ns?: string) => TypedClient>) | undefined>)[accessorOf(r)];
  if (typeof groupVersion !== 'function') throw new Error(`Kubernetes has no ${accessorOf(r)}()`);
  const gv = groupVersion.call(clientset);
  const resource = gv[r.resource];
  if (typeof resource !== 'function') throw new Error(`${accessorOf(r)}() has no ${r.resource}()`);
  return r.namespaced ? resource.call(gv, namespace) : resource.call(gv);
}

export function newKubernetes(rest: RESTClient): Kubernetes {
  return new Kubernetes(rest);
}

/** The collection path client-go's typed clients request: `/apis/<group>/<version>[/namespaces/<ns>]/<resource>`. */
export function clientGoPath(r: RecordedResource, namespace: string, name?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const collection = r.namespaced && namespace !== '' ? `${base}/namespaces/${namespace}/${r.resource}` : `${base}/${r.resource}`;
  return name === undefined ? collection : `${collection}/${name}`;
}

/** A replay server started before the file's tests and closed after them, and a clientset on it. */
export function replayKubernetes(config: Omit<RESTConfig, 'host'> = {}): { readonly server: ReplayServer; readonly k8s: Kubernetes } {
  let server: ReplayServer | undefined;
  let k8s: Kubernetes | undefined;
  before(async () => {
    server = await ReplayServer.start();
    k8s = newKubernetes(restClientForConfig({ ...config, host: server.url }));
  });
  after(() => server?.close());
  return {
    get server() {
      if (server === undefined) throw new Error('the replay server starts in before()');
      return server;
    },
    get k8s() {
      if (k8s === undefined) throw new Error('the replay server starts in before()');
      return k8s;
    },
  };
}
