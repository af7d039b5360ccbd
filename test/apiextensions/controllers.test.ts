// The apiextensions controllers in the real control plane, started in this process on SQLite:
// naming conflicts and their resolution, establishing, discovery and OpenAPI documents that
// follow CRDs (with ETag and hash changes), the finalizer deleting custom resources before the
// CRD, readiness, and a restart that serves established CRDs before /readyz passes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { isMethodNotSupported, isNotFound, isStatusError } from '../../runtime/apimachinery/errors/index.js';
import { apiGroups } from '../../generated/index.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';
import { readCredentials } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { condition, dig, newCRD, until } from './controllers-helpers.js';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface AggregatedList {
  items: { metadata: { name: string }; versions: { version: string; resources: Record<string, unknown>[] }[] }[];
}

describe('apiextensions controllers (in-process control plane, SQLite)', () => {
  let dir: string;
  let cp: ControlPlane;
  let cs: Clientset;
  let https: HttpsClient;
  const crds = (): ReturnType<ReturnType<Clientset['apiextensionsV1']>['customresourcedefinitions']> => cs.apiextensionsV1().customresourcedefinitions();

  const established = (name: string): Promise<CustomResourceDefinition> =>
    until(`${name} established`, async () => {
      const crd = await crds().get(name);
      return condition(crd, 'Established')?.status === 'True' ? crd : undefined;
    });
  const gone = (name: string): Promise<true> =>
    until(`${name} deleted`, async () => {
      try {
        await crds().get(name);
        return undefined;
      } catch (err) {
        if (isNotFound(err)) return true;
        throw err;
      }
    });
  const namesAccepted = (name: string, status: 'True' | 'False'): Promise<CustomResourceDefinition> =>
    until(`${name} NamesAccepted=${status}`, async () => {
      const crd = await crds().get(name);
      return condition(crd, 'NamesAccepted')?.status === status ? crd : undefined;
    });
  const aggregated = async (): Promise<{ etag: string; list: AggregatedList }> => {
    const r = await https.request({ path: '/apis', headers: { Accept: AGGREGATED } });
    assert.equal(r.status, 200);
    return { etag: String(r.headers['etag']), list: JSON.parse(r.text) as AggregatedList };
  };
  const openapiRoot = async (): Promise<Record<string, { serverRelativeURL: string }>> =>
    (await cs.coreV1().rest.request<{ paths: Record<string, { serverRelativeURL: string }> }>({ method: 'GET', path: '/openapi/v3' })).paths;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crd-controllers-'));
    cp = await startControlPlane({ dataDir: dir, securePort: 0, bindAddress: '127.0.0.1', groups: apiGroups });
    cs = new Clientset(cp.loopback);
    https = new HttpsClient(readCredentials(cp.kubeconfigPath));
  });
  after(async () => {
    https?.close();
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a CRD gets its names accepted and becomes Established', async () => {
    await crds().create(newCRD('stable.example.com', 'crontabs', 'CronTab', { names: { shortNames: ['ct'], categories: ['all'] } }));
    const crd = await established('crontabs.stable.example.com');
    assert.deepEqual(crd.status?.acceptedNames, { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'], categories: ['all'] });
    const accepted = condition(crd, 'NamesAccepted');
    assert.deepEqual([accepted?.status, accepted?.reason, accepted?.message], ['True', 'NoConflicts', 'no conflicts found']);
    const est = condition(crd, 'Established');
    assert.deepEqual([est?.reason, est?.message], ['InitialNamesAccepted', 'the initial names have been accepted']);
    assert.match(est?.lastTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(crd.metadata?.finalizers, undefined, 'the cleanup finalizer is added on delete, not on create');
  });

  test("names taken by another CRD of the group stay unaccepted, with kube's reasons, until the holder goes", async () => {
    const g = 'conflicts.example.com';
    await crds().create(newCRD(g, 'widgets', 'Widget', { names: { shortNames: ['wd'], listKind: 'WidgetList' } }));
    await established(`widgets.${g}`);
    const cases: { crd: CustomResourceDefinition; reason: string; message: string }[] = [
      { crd: newCRD(g, 'gadgets', 'Widget', { names: { singular: 'gadget', listKind: 'GadgetList' } }), reason: 'KindConflict', message: '"Widget" is already in use' },
      { crd: newCRD(g, 'wd', 'Wheel'), reason: 'PluralConflict', message: '"wd" is already in use' },
      { crd: newCRD(g, 'sprockets', 'Sprocket', { names: { singular: 'widget' } }), reason: 'SingularConflict', message: '"widget" is already in use' },
      { crd: newCRD(g, 'cogs', 'Cog', { names: { shortNames: ['cg', 'widgets'] } }), reason: 'ShortNamesConflict', message: '"widgets" is already in use' },
      { crd: newCRD(g, 'things', 'Thing', { names: { listKind: 'WidgetList' } }), reason: 'ListKindConflict', message: '"WidgetList" is already in use' },
    ];
    for (const c of cases) await crds().create(c.crd);
    for (const c of cases) {
      const name = c.crd.metadata!.name!;
      const crd = await namesAccepted(name, 'False');
      const cond = condition(crd, 'NamesAccepted');
      assert.deepEqual([cond?.reason, cond?.message], [c.reason, c.message], name);
      const est = condition(crd, 'Established');
      assert.deepEqual([est?.status, est?.reason, est?.message], ['False', 'NotAccepted', 'not all names are accepted'], name);
    }
    // What did not conflict is accepted; the conflicting name is not.
    const gadgets = await crds().get(`gadgets.${g}`);
    assert.equal(gadgets.status?.acceptedNames?.plural, 'gadgets');
    assert.equal(gadgets.status?.acceptedNames?.kind, '');
    const disco = await cs.coreV1().rest.request<{ resources: { name: string }[] }>({ method: 'GET', path: `/apis/${g}/v1` });
    assert.deepEqual(topLevel(disco.resources), ['widgets'], 'only established CRDs are in discovery');

    // A never-established CRD is finalized at once.
    await crds().delete(`cogs.${g}`);
    await gone(`cogs.${g}`);

    // The holder goes: its names are free, and the waiting CRDs take them.
    await crds().delete(`widgets.${g}`);
    await gone(`widgets.${g}`);
    for (const c of cases.filter((x) => x.reason !== 'ShortNamesConflict')) {
      const crd = await established(c.crd.metadata!.name!);
      assert.equal(condition(crd, 'NamesAccepted')?.reason, 'NoConflicts');
    }
    // Every CRD that waited is served now.
    const after = await cs.coreV1().rest.request<{ resources: { name: string }[] }>({ method: 'GET', path: `/apis/${g}/v1` });
    assert.deepEqual(topLevel(after.resources).sort(), ['gadgets', 'sprockets', 'things', 'wd']);
  });

  test('a CRD may not take the names of a built-in resource of its group', async () => {
    await crds().create(newCRD('wardle.example.com', 'gizmos', 'Flunder', { names: { listKind: 'GizmoList' } }));
    const kind = condition(await namesAccepted('gizmos.wardle.example.com', 'False'), 'NamesAccepted');
    assert.deepEqual([kind?.reason, kind?.message], ['KindConflict', '"Flunder" is already in use']);
    await crds().create(newCRD('wardle.example.com', 'fl', 'Fling'));
    const plural = condition(await namesAccepted('fl.wardle.example.com', 'False'), 'NamesAccepted');
    assert.deepEqual([plural?.reason, plural?.message], ['PluralConflict', '"fl" is already in use']);
    await crds().delete('gizmos.wardle.example.com');
    await crds().delete('fl.wardle.example.com');
    await gone('gizmos.wardle.example.com');
  });

  test('discovery: the group appears once established and disappears with the CRD, changing the ETag each time', async () => {
    const g = 'disco.example.com';
    const before = await aggregated();
    assert.ok(!before.list.items.some((i) => i.metadata.name === g));
    await crds().create(newCRD(g, 'crontabs', 'CronTab', { names: { shortNames: ['dct'], categories: ['all'] } }));
    await established(`crontabs.${g}`);
    const withCRD = await aggregated();
    assert.notEqual(withCRD.etag, before.etag);
    const group = withCRD.list.items.find((i) => i.metadata.name === g);
    assert.ok(group, 'the group is listed');
    assert.deepEqual(
      group.versions.map((v) => v.version),
      ['v1'],
    );
    assert.deepEqual(group.versions[0]?.resources, [
      {
        resource: 'crontabs',
        responseKind: { group: g, version: 'v1', kind: 'CronTab' },
        scope: 'Namespaced',
        singularResource: 'crontab',
        verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
        shortNames: ['dct'],
        categories: ['all'],
        subresources: [
          { subresource: 'status', responseKind: { group: g, version: 'v1', kind: 'CronTab' }, verbs: ['get', 'patch', 'update'] },
          { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
        ],
      },
    ]);
    const legacy = await cs.coreV1().rest.request<{ resources: Record<string, unknown>[] }>({ method: 'GET', path: `/apis/${g}/v1` });
    assert.equal(legacy.resources[0]?.['storageVersionHash'], storageVersionHashOf(g, 'v1', 'CronTab'));
    // A conditional request with the old ETag is answered with the new document.
    const refreshed = await https.request({ path: '/apis', headers: { Accept: AGGREGATED, 'If-None-Match': before.etag } });
    assert.equal(refreshed.status, 200);
    const unchanged = await https.request({ path: '/apis', headers: { Accept: AGGREGATED, 'If-None-Match': withCRD.etag } });
    assert.equal(unchanged.status, 304);

    await crds().delete(`crontabs.${g}`);
    await gone(`crontabs.${g}`);
    const afterDelete = await until('the group gone from discovery', async () => {
      const a = await aggregated();
      return a.list.items.some((i) => i.metadata.name === g) ? undefined : a;
    });
    assert.notEqual(afterDelete.etag, withCRD.etag);
    const legacyGone = await https.request({ path: `/apis/${g}/v1`, headers: { Accept: 'application/json' } });
    assert.equal(legacyGone.status, 404);
  });

  test('OpenAPI: one document per group version merges its CRDs, for explain and server-side validation; removed with the last', async () => {
    const g = 'openapi.example.com';
    const key = `apis/${g}/v1`;
    assert.equal((await openapiRoot())[key], undefined);
    await crds().create(newCRD(g, 'crontabs', 'CronTab'));
    await crds().create(newCRD(g, 'clusterjobs', 'ClusterJob', { scope: 'Cluster' }));
    await established(`crontabs.${g}`);
    await established(`clusterjobs.${g}`);
    const doc = await until('both kinds in the document', async () => {
      const url = (await openapiRoot())[key]?.serverRelativeURL;
      if (url === undefined) return undefined;
      const d = await fetchDoc(url);
      return d.components.schemas[`com.example.openapi.v1.ClusterJob`] !== undefined && d.components.schemas[`com.example.openapi.v1.CronTab`] !== undefined ? d : undefined;
    });
    const crontab = doc.components.schemas['com.example.openapi.v1.CronTab'];
    assert.deepEqual(dig(crontab, 'x-kubernetes-group-version-kind'), [{ group: g, kind: 'CronTab', version: 'v1' }]);
    assert.equal(dig(crontab, 'properties', 'spec', 'properties', 'cronSpec', 'type'), 'string');
    assert.deepEqual(dig(crontab, 'properties', 'metadata', 'allOf'), [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
    assert.ok(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'], 'ObjectMeta is in the document');
    const patch = dig(doc.paths, `/apis/${g}/v1/namespaces/{namespace}/crontabs/{name}`, 'patch');
    assert.deepEqual(dig(patch, 'x-kubernetes-group-version-kind'), { group: g, kind: 'CronTab', version: 'v1' });
    assert.ok(
      (dig(patch, 'parameters') as { name: string }[]).some((p) => p.name === 'fieldValidation'),
      'fieldValidation is an operation parameter of PATCH',
    );
    assert.ok(!Object.keys(dig(patch, 'requestBody', 'content') as object).includes('application/strategic-merge-patch+json'));
    assert.ok(doc.paths[`/apis/${g}/v1/clusterjobs/{name}/scale`], 'cluster-scoped paths and subresources');
    const v2 = await cs.coreV1().rest.request<{ definitions: Record<string, unknown> }>({ method: 'GET', path: '/openapi/v2' });
    assert.ok(v2.definitions['com.example.openapi.v1.CronTab'], '/openapi/v2 carries the CRD too');

    await crds().delete(`clusterjobs.${g}`);
    const remaining = await until('ClusterJob gone from the document', async () => {
      const url = (await openapiRoot())[key]?.serverRelativeURL;
      if (url === undefined) return undefined;
      const d = await fetchDoc(url);
      return d.components.schemas['com.example.openapi.v1.ClusterJob'] === undefined ? d : undefined;
    });
    assert.ok(remaining.components.schemas['com.example.openapi.v1.CronTab']);
    await crds().delete(`crontabs.${g}`);
    await until('the group version gone from /openapi/v3', async () => ((await openapiRoot())[key] === undefined ? true : undefined));
    const v2After = await cs.coreV1().rest.request<{ definitions: Record<string, unknown> }>({ method: 'GET', path: '/openapi/v2' });
    assert.equal(v2After.definitions['com.example.openapi.v1.CronTab'], undefined);
  });

  test('finalizer: deleting a CRD deletes its custom resources in every namespace, waits for their finalizers, then the CRD', async () => {
    const g = 'finalize.example.com';
    const name = `crontabs.${g}`;
    await crds().create(newCRD(g, 'crontabs', 'CronTab'));
    await established(name);
    const rest = cs.coreV1().rest;
    const path = (ns: string): string => `/apis/${g}/v1/namespaces/${ns}/crontabs`;
    const ct = (n: string, finalizers?: string[]): Record<string, unknown> => ({
      apiVersion: `${g}/v1`,
      kind: 'CronTab',
      metadata: { name: n, ...(finalizers ? { finalizers } : {}) },
      spec: { cronSpec: '* * * * */5', image: 'img' },
    });
    await rest.request({ method: 'POST', path: path('default'), body: ct('a') });
    await rest.request({ method: 'POST', path: path('default'), body: ct('held', ['example.com/hold']) });
    await rest.request({ method: 'POST', path: path('kube-system'), body: ct('b') });

    await crds().delete(name);
    const terminating = await until('Terminating with the cleanup finalizer', async () => {
      const crd = await crds().get(name);
      return condition(crd, 'Terminating')?.status === 'True' && crd.metadata?.deletionTimestamp ? crd : undefined;
    });
    assert.deepEqual(terminating.metadata?.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    // The held instance keeps the CRD terminating: the rest are gone, creates are refused, discovery drops the write verbs.
    const list = await until('only the held instance left', async () => {
      const l = await rest.request<{ items: { metadata: { name: string; deletionTimestamp?: string } }[] }>({ method: 'GET', path: `/apis/${g}/v1/crontabs` });
      return l.items.length === 1 ? l : undefined;
    });
    assert.equal(list.items[0]?.metadata.name, 'held');
    assert.ok(list.items[0]?.metadata.deletionTimestamp);
    const refused = await rest.request({ method: 'POST', path: path('default'), body: ct('late') }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(isMethodNotSupported(refused), `a create while terminating is refused: ${String(refused)}`);
    const disco = await until('terminating verbs in discovery', async () => {
      const d = await rest.request<{ resources: { name: string; verbs: string[] }[] }>({ method: 'GET', path: `/apis/${g}/v1` });
      return d.resources[0]?.verbs.includes('create') === false ? d : undefined;
    });
    assert.deepEqual(disco.resources[0]?.verbs, ['delete', 'deletecollection', 'get', 'list', 'watch']);
    const inProgress = condition(await crds().get(name), 'Terminating');
    assert.deepEqual([inProgress?.reason, inProgress?.message], ['InstanceDeletionInProgress', 'CustomResource deletion is in progress']);

    await rest.request({ method: 'PATCH', path: `${path('default')}/held`, contentType: 'application/merge-patch+json', body: { metadata: { finalizers: null } } });
    await gone(name);

    // Created again, the CRD starts empty: the instances really went.
    await crds().create(newCRD(g, 'crontabs', 'CronTab'));
    await established(name);
    const fresh = await rest.request<{ items: unknown[] }>({ method: 'GET', path: `/apis/${g}/v1/crontabs` });
    assert.deepEqual(fresh.items, []);
    await crds().delete(name);
    await gone(name);
  });

  test('deleting a CRD twice is not an error: the second delete answers with the terminating CRD or NotFound', async () => {
    const g = 'twice.example.com';
    await crds().create(newCRD(g, 'crontabs', 'CronTab'));
    await established(`crontabs.${g}`);
    await crds().delete(`crontabs.${g}`);
    await crds()
      .delete(`crontabs.${g}`)
      .catch((e: unknown) => assert.ok(isStatusError(e) && isNotFound(e), String(e)));
    await gone(`crontabs.${g}`);
  });

  test('readiness waits for crd-informer-synced; after a restart established CRDs are served before /readyz passes', async () => {
    const readyz = await https.request({ path: '/readyz?verbose' });
    assert.equal(readyz.status, 200);
    assert.match(readyz.text, /\[\+\]poststarthook\/crd-informer-synced ok/);
    assert.match(readyz.text, /\[\+\]poststarthook\/start-apiextensions-controllers ok/);

    https.close();
    await cp.stop();
    cp = await startControlPlane({ dataDir: dir, securePort: 0, bindAddress: '127.0.0.1', groups: apiGroups });
    cs = new Clientset(cp.loopback);
    https = new HttpsClient(readCredentials(cp.kubeconfigPath));
    // No waiting: startControlPlane resolves once the post-start hooks (crd-informer-synced among them) are done.
    const disco = await cs.coreV1().rest.request<{ resources: { name: string }[] }>({ method: 'GET', path: '/apis/stable.example.com/v1' });
    assert.deepEqual(topLevel(disco.resources), ['crontabs']);
    assert.ok((await openapiRoot())['apis/stable.example.com/v1']);
  });

  async function fetchDoc(url: string): Promise<{ paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }> {
    const [path, query] = url.split('?');
    return cs.coreV1().rest.request({ method: 'GET', path: path!, query: Object.fromEntries(new URLSearchParams(query ?? '')) });
  }
});

/** Resource names of a legacy APIResourceList, subresources left out. */
function topLevel(resources: readonly { name: string }[]): string[] {
  return resources.map((r) => r.name).filter((n) => !n.includes('/'));
}

function storageVersionHashOf(group: string, version: string, kind: string): string {
  // base64 of the first 8 bytes of sha256("<group>/<version>/<Kind>"), kube's discovery hash.
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}
