// The CustomResourceDefinition kind is validated as 1.32 validates it, by apiextensions'
// ValidateCustomResourceDefinition alone: no OpenAPI schema check of the generated
// apiextensions.k8s.io/v1 types (required fields, minLength, declared rules) stands in front of it,
// and no "some validation rules were not checked" cause (customResourceStrategy's alone) follows.
// Bodies that leave out what the schema required are 422s, never 500s.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CRDS, startEnv, type Env, type Obj } from './env.js';

const crd = (plural: string, spec: Obj): Obj => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.probe.example.com` }, spec });
const version = { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } };

describe('CustomResourceDefinition validation is ValidateCustomResourceDefinition alone', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(() => env.close());

  const message = async (body: unknown): Promise<[number, unknown, unknown]> => {
    const r = await env.client.json('POST', CRDS, body);
    return [r.status, r.body['reason'], r.body['message']];
  };
  const invalid = (name: string, causes: string[]): [number, string, string] => [
    422,
    'Invalid',
    `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ${causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`}`,
  ];

  test('an unsupported scope: that error alone', async () => {
    const body = crd('bogusscopes', { group: 'probe.example.com', scope: 'Galaxy', names: { plural: 'bogusscopes', singular: 'bogusscope', kind: 'Kbogusscopes' }, versions: [version] });
    assert.deepEqual(await message(body), invalid('bogusscopes.probe.example.com', ['spec.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespaced"']));
  });

  test('a missing group: the name check too', async () => {
    const body = crd('nogroups', { scope: 'Cluster', names: { plural: 'nogroups', singular: 'nogroup', kind: 'Knogroups' }, versions: [version] });
    assert.deepEqual(
      await message(body),
      invalid('nogroups.probe.example.com', ['metadata.name: Invalid value: "nogroups.probe.example.com": must be spec.names.plural+"."+spec.group', 'spec.group: Required value']),
    );
  });

  test('a missing kind: listKind (defaulted from it) is required too', async () => {
    const body = crd('nokinds', { group: 'probe.example.com', scope: 'Cluster', names: { plural: 'nokinds', singular: 'nokind' }, versions: [version] });
    assert.deepEqual(await message(body), invalid('nokinds.probe.example.com', ['spec.names.kind: Required value', 'spec.names.listKind: Required value']));
  });

  test('bodies without what the schema required are 422s, not 500s', async () => {
    for (const body of [
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'x.probe.example.com' } },
      { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'y.probe.example.com' }, spec: null },
      crd('a', {}),
      crd('b', { names: {} }),
      crd('c', { group: 'probe.example.com', names: { plural: 'c', kind: 'C' }, versions: [{}] }),
      crd('d', { group: 'probe.example.com', names: { plural: 'd', kind: 'D' }, versions: [{ name: 'v1', storage: true, schema: {} }] }),
      crd('e', { group: 'probe.example.com', scope: 'Cluster', names: { plural: 'e', kind: 'E' }, versions: [{ ...version, subresources: { scale: {} } }] }),
      crd('f', { group: 'probe.example.com', scope: 'Cluster', names: { plural: 'f', kind: 'F' }, versions: [{ ...version, additionalPrinterColumns: [{}] }] }),
      crd('g', { group: 'probe.example.com', scope: 'Cluster', names: { plural: 'g', kind: 'G' }, versions: [version], conversion: { strategy: 'Webhook' } }),
    ]) {
      const [status, reason] = await message(body);
      assert.deepEqual([status, reason], [422, 'Invalid'], JSON.stringify(body));
    }
  });
});
