// The pure parts of the CRD controllers: condition bookkeeping, the mutation cache, the names a
// built-in group reserves, and the OpenAPI document of a CRD group version.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { apiGroups } from '../../generated/index.js';
import { crdGroupVersionOpenAPI, groupReservedNames } from '../../runtime/apiextensions/controllers/index.js';
import { removeCondition, setCondition } from '../../runtime/apiextensions/controllers/conditions.js';
import { MutationCache } from '../../runtime/apiextensions/controllers/mutation-cache.js';
import { dig, newCRD } from './controllers-helpers.js';

const T0 = new Date('2024-05-01T10:00:00.123Z');
const T1 = new Date('2024-05-01T11:00:00Z');

function established(crd: CustomResourceDefinition): CustomResourceDefinition {
  return { ...crd, status: { conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }] } };
}

describe('conditions', () => {
  test('setCondition adds, and moves lastTransitionTime only when the status changes', () => {
    const crd = newCRD('g.io', 'things', 'Thing');
    setCondition(crd, { type: 'NamesAccepted', status: 'False', reason: 'KindConflict', message: 'a' }, T0);
    assert.deepEqual(crd.status?.conditions, [{ type: 'NamesAccepted', status: 'False', reason: 'KindConflict', message: 'a', lastTransitionTime: '2024-05-01T10:00:00Z' }]);
    setCondition(crd, { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: 'b' }, T1);
    assert.deepEqual(crd.status?.conditions?.[0], { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: 'b', lastTransitionTime: '2024-05-01T10:00:00Z' });
    setCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' }, T1);
    assert.equal(crd.status?.conditions?.[0]?.lastTransitionTime, '2024-05-01T11:00:00Z');
    setCondition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'm' }, T1);
    assert.deepEqual(
      crd.status?.conditions?.map((c) => c.type),
      ['NamesAccepted', 'Established'],
    );
    removeCondition(crd, 'NamesAccepted');
    assert.deepEqual(
      crd.status?.conditions?.map((c) => c.type),
      ['Established'],
    );
  });
});

describe('MutationCache', () => {
  test('a write stands in for the informer copy until the informer catches up or it expires', () => {
    let now = 0;
    const cache = new MutationCache(() => now, 1000);
    const at = (rv: string, plural: string): CustomResourceDefinition => ({
      ...newCRD('g.io', 'things', 'Thing'),
      metadata: { name: 'things.g.io', resourceVersion: rv },
      status: { acceptedNames: { plural, kind: 'Thing' } },
    });
    cache.mutation(at('12', 'written'));
    assert.equal(cache.newest(at('10', 'stale')).status?.acceptedNames?.plural, 'written');
    assert.equal(cache.newest(at('12', 'caught-up')).status?.acceptedNames?.plural, 'caught-up');
    assert.equal(cache.newest(at('10', 'stale')).status?.acceptedNames?.plural, 'stale', 'dropped once caught up');
    cache.mutation(at('20', 'written'));
    now = 1000;
    assert.equal(cache.newest(at('15', 'stale')).status?.acceptedNames?.plural, 'stale', 'expired');
  });
});

describe('groupReservedNames', () => {
  test('plurals, singulars, short names, kinds and list kinds of each built-in group', () => {
    const reserved = groupReservedNames(apiGroups);
    const wardle = reserved('wardle.example.com');
    assert.ok(wardle);
    for (const n of ['flunders', 'flunder', 'fl', 'fischers']) assert.ok(wardle.resources.has(n), n);
    for (const k of ['Flunder', 'FlunderList', 'Fischer', 'FischerList']) assert.ok(wardle.kinds.has(k), k);
    assert.equal(reserved('stable.example.com'), undefined);
  });
});

describe('crdGroupVersionOpenAPI', () => {
  const g = 'stable.example.com';

  test('one document for the CRDs of a group version, independent of their order', () => {
    const a = established(newCRD(g, 'crontabs', 'CronTab', { names: { listKind: 'CronTabList' } }));
    const b = established(newCRD(g, 'clusterjobs', 'ClusterJob', { scope: 'Cluster', names: { listKind: 'ClusterJobList' } }));
    const doc = crdGroupVersionOpenAPI(g, 'v1', [a, b]);
    assert.ok(doc);
    assert.equal(JSON.stringify(crdGroupVersionOpenAPI(g, 'v1', [b, a])), JSON.stringify(doc));
    const schemas = doc.components.schemas as Record<string, Record<string, unknown>>;
    for (const name of ['com.example.stable.v1.CronTab', 'com.example.stable.v1.CronTabList', 'com.example.stable.v1.ClusterJob', 'com.example.stable.v1.ClusterJobList']) {
      assert.ok(schemas[name], name);
    }
    assert.deepEqual(schemas['com.example.stable.v1.CronTabList']?.['x-kubernetes-group-version-kind'], [{ group: g, kind: 'CronTabList', version: 'v1' }]);
    assert.ok(doc.paths['/apis/stable.example.com/v1/crontabs'], 'list across namespaces');
    assert.ok(doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status']);
    assert.ok(doc.paths['/apis/stable.example.com/v1/clusterjobs/{name}']);
    const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']?.patch;
    assert.deepEqual(Object.keys(patch?.requestBody?.content ?? {}).sort(), ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json']);
    assert.ok(patch?.parameters?.some((p) => p.name === 'fieldValidation'));
    assert.ok(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'] && schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta']);
  });

  test('kind schemas: TypeMeta and ObjectMeta added, int-or-string unfolded, embedded resources completed', () => {
    const crd = established(
      newCRD(g, 'crontabs', 'CronTab', {
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      port: { 'x-kubernetes-int-or-string': true },
                      template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, required: ['spec'] },
                    },
                  },
                },
              },
            },
          },
        ],
      }),
    );
    const schema = crdGroupVersionOpenAPI(g, 'v1', [crd])!.components.schemas['com.example.stable.v1.CronTab'];
    assert.deepEqual(Object.keys(dig(schema, 'properties') as object).sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
    assert.deepEqual(dig(schema, 'properties', 'spec', 'properties', 'port', 'anyOf'), [{ type: 'integer' }, { type: 'string' }]);
    const template = dig(schema, 'properties', 'spec', 'properties', 'template');
    assert.deepEqual(Object.keys(dig(template, 'properties') as object).sort(), ['apiVersion', 'kind', 'metadata']);
    assert.deepEqual(dig(template, 'required'), ['spec', 'kind', 'apiVersion']);
    assert.deepEqual(crd.spec.versions[0]?.schema?.openAPIV3Schema?.properties?.['spec']?.properties?.['port'], { 'x-kubernetes-int-or-string': true }, 'the CRD is not mutated');
  });

  test('a CRD flagged NonStructuralSchema is an open object; versions not served or absent give no document', () => {
    const crd = established(newCRD(g, 'crontabs', 'CronTab'));
    crd.status!.conditions!.push({ type: 'NonStructuralSchema', status: 'True', reason: 'Violations', message: 'x' });
    const doc = crdGroupVersionOpenAPI(g, 'v1', [crd]);
    const schema = doc?.components.schemas['com.example.stable.v1.CronTab'] as Record<string, unknown>;
    assert.deepEqual(schema, { type: 'object', 'x-kubernetes-group-version-kind': [{ group: g, kind: 'CronTab', version: 'v1' }] });
    const unserved = established(newCRD(g, 'crontabs', 'CronTab'));
    unserved.spec.versions[0]!.served = false;
    assert.equal(crdGroupVersionOpenAPI(g, 'v1', [unserved]), undefined);
    assert.equal(crdGroupVersionOpenAPI(g, 'v2', [established(newCRD(g, 'crontabs', 'CronTab'))]), undefined);
    assert.equal(crdGroupVersionOpenAPI('other.io', 'v1', [established(newCRD(g, 'crontabs', 'CronTab'))]), undefined);
  });
});
