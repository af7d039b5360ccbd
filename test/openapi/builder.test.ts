import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { dig } from '../apiextensions/controllers-helpers.js';
import { buildGroupVersionOpenAPI, CUSTOM_RESOURCE_PATCH_TYPES, openAPIFromGroupDefinition, type OpenAPIV3Document, type Operation } from '../../runtime/server/openapi/index.js';

const group = (name: string): APIGroupDefinition => apiGroups.find((g) => g.name === name)!;
const wardleDocs = openAPIFromGroupDefinition(group('wardle.example.com'));
const wardleV1alpha1 = wardleDocs.find((d) => d.version === 'v1alpha1')!.document;
const coreV1 = openAPIFromGroupDefinition(group(''))[0]!.document;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface GVK {
  group: string;
  version: string;
  kind: string;
}

function operations(doc: OpenAPIV3Document): [string, string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, item]) => METHODS.flatMap((m) => (item[m] ? [[path, m, item[m]!] as [string, string, Operation]] : [])));
}

const sameGVK = (a: unknown, b: GVK): boolean => {
  const x = a as GVK | undefined;
  return x !== undefined && x.group === b.group && x.version === b.version && x.kind === b.kind;
};

/** cli-runtime query_param_verifier_v3: a patch op with this GVK carries an operation-level fieldValidation (checked for every such op: Go iterates a map). */
function supportsServerSideFieldValidation(doc: OpenAPIV3Document, gvk: GVK): boolean {
  const patches = operations(doc).filter(([, m, op]) => m === 'patch' && sameGVK(op['x-kubernetes-group-version-kind'], gvk));
  return patches.length > 0 && patches.every(([, , op]) => (op.parameters ?? []).some((p) => p.name === 'fieldValidation' && p.in === 'query'));
}

/** kubectl explain: the path's first op GVK, then a component whose GVK array contains it. */
function explainSchema(doc: OpenAPIV3Document, path: string): unknown {
  const item = doc.paths[path];
  assert.ok(item, `no path ${path}`);
  const op = METHODS.map((m) => item[m]).find((o) => o !== undefined)!;
  const gvk = op['x-kubernetes-group-version-kind'];
  const found = Object.values(doc.components.schemas).find((s) => {
    const gvks = dig(s, 'x-kubernetes-group-version-kind');
    return Array.isArray(gvks) && gvks.some((g: unknown) => sameGVK(g, gvk));
  });
  assert.ok(found, `GVK ${JSON.stringify(gvk)} not found in OpenAPI schema`);
  return found;
}

function deref(doc: OpenAPIV3Document, schema: unknown): unknown {
  const ref = dig(schema, '$ref') ?? dig(schema, 'allOf', '0', '$ref');
  if (ref === undefined) return schema;
  assert.equal(typeof ref, 'string');
  const target = doc.components.schemas[(ref as string).replace('#/components/schemas/', '')];
  assert.ok(target, `dangling ${String(ref)}`);
  return target;
}

function allRefsResolve(doc: OpenAPIV3Document): void {
  for (const m of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) assert.ok(doc.components.schemas[m[1]!], `dangling ${m[1]}`);
}

describe('buildGroupVersionOpenAPI (wardle v1alpha1)', () => {
  const flunder: GVK = { group: 'wardle.example.com', version: 'v1alpha1', kind: 'Flunder' };

  it('is an OpenAPI 3.0.0 document titled Kubernetes v1.32.0 with every route served', () => {
    assert.equal(wardleV1alpha1.openapi, '3.0.0');
    assert.deepEqual(wardleV1alpha1.info, { title: 'Kubernetes', version: 'v1.32.0' });
    const base = '/apis/wardle.example.com/v1alpha1';
    const routes = operations(wardleV1alpha1).map(([p, m, op]) => `${m} ${p.slice(base.length)} ${op.operationId} ${op['x-kubernetes-action']}`);
    assert.deepEqual(routes.sort(), [
      'delete /fischers deleteWardleExampleComV1alpha1CollectionFischer deletecollection',
      'delete /fischers/{name} deleteWardleExampleComV1alpha1Fischer delete',
      'delete /namespaces/{namespace}/flunders deleteWardleExampleComV1alpha1CollectionNamespacedFlunder deletecollection',
      'delete /namespaces/{namespace}/flunders/{name} deleteWardleExampleComV1alpha1NamespacedFlunder delete',
      'get /fischers listWardleExampleComV1alpha1Fischer list',
      'get /fischers/{name} readWardleExampleComV1alpha1Fischer get',
      'get /flunders listWardleExampleComV1alpha1FlunderForAllNamespaces list',
      'get /namespaces/{namespace}/flunders listWardleExampleComV1alpha1NamespacedFlunder list',
      'get /namespaces/{namespace}/flunders/{name} readWardleExampleComV1alpha1NamespacedFlunder get',
      'get /namespaces/{namespace}/flunders/{name}/status readWardleExampleComV1alpha1NamespacedFlunderStatus get',
      'patch /fischers/{name} patchWardleExampleComV1alpha1Fischer patch',
      'patch /namespaces/{namespace}/flunders/{name} patchWardleExampleComV1alpha1NamespacedFlunder patch',
      'patch /namespaces/{namespace}/flunders/{name}/status patchWardleExampleComV1alpha1NamespacedFlunderStatus patch',
      'post /fischers createWardleExampleComV1alpha1Fischer post',
      'post /namespaces/{namespace}/flunders createWardleExampleComV1alpha1NamespacedFlunder post',
      'put /fischers/{name} replaceWardleExampleComV1alpha1Fischer put',
      'put /namespaces/{namespace}/flunders/{name} replaceWardleExampleComV1alpha1NamespacedFlunder put',
      'put /namespaces/{namespace}/flunders/{name}/status replaceWardleExampleComV1alpha1NamespacedFlunderStatus put',
    ]);
    const ids = operations(wardleV1alpha1).map(([, , op]) => op.operationId);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('passes kubectl’s server-side field validation check', () => {
    assert.ok(supportsServerSideFieldValidation(wardleV1alpha1, flunder));
    assert.ok(supportsServerSideFieldValidation(wardleV1alpha1, { ...flunder, kind: 'Fischer' }));
    assert.ok(supportsServerSideFieldValidation(coreV1, { group: '', version: 'v1', kind: 'Namespace' }));
  });

  it('puts name/namespace at path level and the query parameters on each operation', () => {
    const item = wardleV1alpha1.paths['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}']!;
    assert.deepEqual(
      item.parameters!.map((p) => [p.name, p.in, p.required]),
      [
        ['name', 'path', true],
        ['namespace', 'path', true],
      ],
    );
    const names = (op: Operation | undefined): string[] => (op?.parameters ?? []).map((p) => p.name).sort();
    assert.deepEqual(names(item.patch), ['dryRun', 'fieldManager', 'fieldValidation', 'force', 'pretty']);
    assert.deepEqual(names(item.put), ['dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
    assert.deepEqual(names(item.get), ['pretty']);
    const collection = wardleV1alpha1.paths['/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders']!;
    assert.deepEqual(names(collection.post), ['dryRun', 'fieldManager', 'fieldValidation', 'pretty']);
    for (const p of ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch']) {
      assert.ok(names(collection.get).includes(p), p);
    }
    assert.deepEqual(item.patch!['x-kubernetes-group-version-kind'], { group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' });
  });

  it('offers strategic merge patch only when asked to', () => {
    const item = '/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}';
    assert.deepEqual(Object.keys(wardleV1alpha1.paths[item]!.patch!.requestBody!.content), [
      'application/apply-patch+yaml',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ]);
    const v = group('wardle.example.com').versions[1]!;
    const crdLike = openAPIFromGroupDefinition({ ...group('wardle.example.com'), versions: [v] }, { patchTypes: CUSTOM_RESOURCE_PATCH_TYPES })[0]!.document;
    assert.deepEqual(Object.keys(crdLike.paths[item]!.patch!.requestBody!.content), ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
  });

  it('lets kubectl explain find the kind and follow spec to its schema', () => {
    const schema = explainSchema(wardleV1alpha1, '/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}');
    assert.equal(dig(schema, 'type'), 'object');
    const spec = deref(wardleV1alpha1, dig(schema, 'properties', 'spec'));
    assert.ok(dig(spec, 'properties'), 'FlunderSpec has properties');
    const meta = deref(wardleV1alpha1, dig(schema, 'properties', 'metadata'));
    assert.ok(dig(meta, 'properties', 'annotations'));
    assert.ok(explainSchema(coreV1, '/api/v1/namespaces/{name}'));
  });

  it('tags kinds and list kinds with GVK arrays, carries the meta components and resolves every $ref', () => {
    const s = wardleV1alpha1.components.schemas;
    for (const [name, kind] of [
      ['com.example.wardle.v1alpha1.Flunder', 'Flunder'],
      ['com.example.wardle.v1alpha1.FlunderList', 'FlunderList'],
      ['com.example.wardle.v1alpha1.FischerList', 'FischerList'],
    ] as const) {
      assert.deepEqual(dig(s, name, 'x-kubernetes-group-version-kind'), [{ group: 'wardle.example.com', kind, version: 'v1alpha1' }]);
    }
    for (const name of ['Status', 'DeleteOptions', 'Patch', 'WatchEvent']) assert.ok(s[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`], name);
    assert.deepEqual(dig(s, 'io.k8s.apimachinery.pkg.apis.meta.v1.Status', 'x-kubernetes-group-version-kind'), [{ group: '', kind: 'Status', version: 'v1' }]);
    assert.equal(s['io.k8s.api.autoscaling.v1.Scale'], undefined, 'Scale only where a scale subresource exists');
    allRefsResolve(wardleV1alpha1);
    allRefsResolve(coreV1);
  });

  it('names core operations as kube-apiserver does', () => {
    const ids = new Set(operations(coreV1).map(([, , op]) => op.operationId));
    for (const id of ['readCoreV1Namespace', 'patchCoreV1NamespaceStatus', 'listCoreV1ServiceForAllNamespaces', 'listCoreV1NamespacedService', 'deleteCoreV1CollectionNamespacedEndpoints'])
      assert.ok(ids.has(id), id);
    assert.ok(!ids.has('deleteCoreV1CollectionNamespace'), 'namespaces do not serve deletecollection');
    const apiext = openAPIFromGroupDefinition(group('apiextensions.k8s.io'))[0]!.document;
    assert.ok(operations(apiext).some(([, , op]) => op.operationId === 'readApiextensionsV1CustomResourceDefinition'));
    assert.deepEqual(operations(apiext)[0]![2].tags, ['apiextensions_v1']);
  });

  it('builds a CRD-style document from caller schemas: synthesized list, GVK added, scale route, references from outside', () => {
    const coreSchemas = group('').versions[0]!.openapi.components.schemas;
    const meta = Object.fromEntries(Object.entries(coreSchemas).filter(([k]) => k.startsWith('io.k8s.apimachinery.')));
    const doc = buildGroupVersionOpenAPI({
      group: 'stable.example.com',
      version: 'v1',
      patchTypes: CUSTOM_RESOURCE_PATCH_TYPES,
      referenceSchemas: meta,
      schemas: {
        'com.example.stable.v1.CronTab': {
          type: 'object',
          properties: { metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }, spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } },
        },
      },
      resources: [
        {
          name: 'crontabs',
          kind: 'CronTab',
          listKind: 'CronTabList',
          namespaced: true,
          definition: 'com.example.stable.v1.CronTab',
          verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
          subresources: { status: true, scale: true },
        },
      ],
    });
    const s = doc.components.schemas;
    assert.deepEqual(dig(s, 'com.example.stable.v1.CronTab', 'x-kubernetes-group-version-kind'), [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    assert.deepEqual(dig(s, 'com.example.stable.v1.CronTabList', 'x-kubernetes-group-version-kind'), [{ group: 'stable.example.com', kind: 'CronTabList', version: 'v1' }]);
    assert.ok(s['io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'], 'transitive references copied');
    const scale = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale']!;
    assert.equal(scale.get!.operationId, 'readStableExampleComV1NamespacedCronTabScale');
    assert.deepEqual(scale.patch!['x-kubernetes-group-version-kind'], { group: 'autoscaling', kind: 'Scale', version: 'v1' });
    assert.deepEqual(dig(s, 'io.k8s.api.autoscaling.v1.Scale', 'x-kubernetes-group-version-kind'), [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }]);
    assert.ok(supportsServerSideFieldValidation(doc, { group: 'stable.example.com', version: 'v1', kind: 'CronTab' }));
    allRefsResolve(doc);
    assert.throws(
      () =>
        buildGroupVersionOpenAPI({
          group: 'x.io',
          version: 'v1',
          patchTypes: [],
          schemas: { 'io.x.v1.A': { $ref: '#/components/schemas/missing' } },
          resources: [{ name: 'as', kind: 'A', listKind: 'AList', namespaced: false, definition: 'io.x.v1.A', verbs: ['get'] }],
        }),
      /unresolved reference/,
    );
  });

  it('is deterministic', () => {
    const again = openAPIFromGroupDefinition(group('wardle.example.com')).find((d) => d.version === 'v1alpha1')!.document;
    assert.equal(JSON.stringify(again), JSON.stringify(wardleV1alpha1));
  });
});
