// The CRDs of the differential probe (hack/compare-upstream.ts): a namespaced CronTab-like Widget
// (structural schema, defaults, an x-kubernetes-validations rule, a list-type=map list, status and
// scale subresources, printer columns) and a cluster-scoped Gizmo; and CRDs the CRD API must
// refuse, each sent to both servers.
import type { Case, Json } from './compare-client.js';

export const GROUP = 'probe.example.com';
export const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const widgetSchema: Json = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['image'],
      'x-kubernetes-validations': [{ rule: 'self.minReplicas <= self.replicas', message: 'minReplicas must not exceed replicas' }],
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string', maxLength: 64 },
        replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
        minReplicas: { type: 'integer', default: 0 },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        ratio: { type: 'number' },
        enabled: { type: 'boolean' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', format: 'int32' } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        extra: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
  },
};

export function widgetCRD(): { [k: string]: Json } {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: widgetSchema },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
}

export function gizmoCRD(): { [k: string]: Json } {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gizmos.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Cluster',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } } } } },
        },
      ],
    },
  };
}

type Mut = (crd: { [k: string]: Json }, v: { [k: string]: Json }) => void;

/** A Gizmo-like CRD of its own plural, changed by `mut` (crd and its first version). */
function badCRD(id: string, plural: string, mut: Mut): Case {
  const crd = gizmoCRD();
  const spec = crd['spec'] as { [k: string]: Json };
  crd['metadata'] = { name: `${plural}.${GROUP}` };
  spec['names'] = { plural, singular: plural.replace(/s$/, ''), kind: `K${plural.replace(/[^a-z]/g, '')}` };
  const v = (spec['versions'] as Json[])[0] as { [k: string]: Json };
  mut(crd, v);
  return { id: `crd-invalid ${id}`, method: 'POST', path: CRD_PATH, body: JSON.stringify(crd) };
}

const specOf = (crd: { [k: string]: Json }): { [k: string]: Json } => crd['spec'] as { [k: string]: Json };
const schemaOf = (v: { [k: string]: Json }): { [k: string]: Json } => (v['schema'] as { [k: string]: Json })['openAPIV3Schema'] as { [k: string]: Json };

export const crdInvalidCases: Case[] = [
  badCRD('non-structural (no type)', 'nostructs', (_, v) => void (v['schema'] = { openAPIV3Schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } } })),
  badCRD('no schema', 'noschemas', (_, v) => void delete v['schema']),
  badCRD('bad CEL syntax', 'badcels', (_, v) => void (schemaOf(v)['x-kubernetes-validations'] = [{ rule: 'self.spec.size >' }])),
  badCRD('CEL unknown field', 'celunknowns', (_, v) => void (schemaOf(v)['x-kubernetes-validations'] = [{ rule: 'self.spec.nosuch == 1' }])),
  badCRD('CEL type error', 'celtypes', (_, v) => void (schemaOf(v)['x-kubernetes-validations'] = [{ rule: 'self.spec.size == "x"' }])),
  badCRD('CEL empty rule', 'celempties', (_, v) => void (schemaOf(v)['x-kubernetes-validations'] = [{ rule: '' }])),
  badCRD('uppercase plural', 'Uppers', () => undefined),
  badCRD('name not plural.group', 'mismatches', (crd) => void (crd['metadata'] = { name: `other.${GROUP}` })),
  badCRD('no storage version', 'nostorages', (_, v) => void (v['storage'] = false)),
  badCRD('two storage versions', 'twostorages', (crd, v) => void (specOf(crd)['versions'] = [v, { ...v, name: 'v2' }])),
  badCRD('duplicate version', 'dupversions', (crd, v) => void (specOf(crd)['versions'] = [v, { ...v, storage: false }])),
  badCRD('bad version name', 'badversions', (_, v) => void (v['name'] = 'V1.0')),
  badCRD('no versions', 'noversions', (crd) => void (specOf(crd)['versions'] = [])),
  badCRD('bogus scope', 'bogusscopes', (crd) => void (specOf(crd)['scope'] = 'Galaxy')),
  badCRD('missing group', 'nogroups', (crd) => void delete specOf(crd)['group']),
  badCRD('group without dot', 'dotlesses', (crd) => void (specOf(crd)['group'] = 'probe')),
  badCRD('kind lowercase', 'lowkinds', (crd) => void ((specOf(crd)['names'] as { [k: string]: Json })['kind'] = 'lowkind')),
  badCRD('kind missing', 'nokinds', (crd) => void delete (specOf(crd)['names'] as { [k: string]: Json })['kind']),
  badCRD('list-type map without keys', 'mapnokeys', (_, v) => {
    const spec = (schemaOf(v)['properties'] as { [k: string]: { [k: string]: Json } })['spec']!;
    (spec['properties'] as { [k: string]: Json })['l'] = { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { k: { type: 'string' } } } };
  }),
  badCRD('default not matching type', 'baddefaults', (_, v) => {
    const spec = (schemaOf(v)['properties'] as { [k: string]: { [k: string]: Json } })['spec']!;
    (spec['properties'] as { [k: string]: Json })['size'] = { type: 'integer', default: 'x' };
  }),
  badCRD('printer column bad jsonPath', 'badcolumns', (_, v) => void (v['additionalPrinterColumns'] = [{ name: 'X', type: 'string', jsonPath: '.spec[' }])),
  badCRD('printer column bad type', 'badcoltypes', (_, v) => void (v['additionalPrinterColumns'] = [{ name: 'X', type: 'float', jsonPath: '.spec.size' }])),
  badCRD('scale without status path', 'badscales', (_, v) => void (v['subresources'] = { scale: { specReplicasPath: 'spec.size' } })),
  badCRD('preserveUnknownFields true', 'preserves', (crd) => void (specOf(crd)['preserveUnknownFields'] = true)),
  badCRD('webhook conversion without config', 'webhooks', (crd) => void (specOf(crd)['conversion'] = { strategy: 'Webhook' })),
  badCRD('metadata in schema with fields', 'metafields', (_, v) => {
    (schemaOf(v)['properties'] as { [k: string]: Json })['metadata'] = { type: 'object', properties: { labels: { type: 'object' } } };
  }),
  badCRD('additionalProperties with properties', 'addprops', (_, v) => {
    (schemaOf(v)['properties'] as { [k: string]: Json })['x'] = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } };
  }),
  // Wrong JSON types at fields of named Go types: the decoder's error prints the type's name.
  badCRD('scope of the wrong JSON type', 'numscopes', (crd) => void (specOf(crd)['scope'] = 5)),
  badCRD('conversion strategy of the wrong JSON type', 'numstrategies', (crd) => void (specOf(crd)['conversion'] = { strategy: 5 })),
  badCRD('$schema of the wrong JSON type', 'numschemas', (_, v) => void (schemaOf(v)['$schema'] = 5)),
  badCRD('x-kubernetes-validations not a list', 'strvalidations', (_, v) => void (schemaOf(v)['x-kubernetes-validations'] = 'x')),
  badCRD('validation reason of the wrong JSON type', 'numreasons', (_, v) => void (schemaOf(v)['x-kubernetes-validations'] = [{ rule: 'true', reason: 5 }])),
  badCRD('metadata.uid of the wrong JSON type', 'numuids', (crd) => void ((crd['metadata'] as { [k: string]: Json })['uid'] = 5)),
  badCRD('managedFields operation of the wrong JSON type', 'numops', (crd) => void ((crd['metadata'] as { [k: string]: Json })['managedFields'] = [{ operation: 5 }])),
  ...(
    [
      ['application/merge-patch+json', 'merge'],
      ['application/strategic-merge-patch+json', 'strategic'],
    ] as const
  ).map(([ct, what]): Case => ({ id: `crd-patch ${what} scope of the wrong JSON type`, method: 'PATCH', path: `${CRD_PATH}/widgets.${GROUP}`, ct, body: JSON.stringify({ spec: { scope: 5 } }) })),
  // Bodies of other kinds and versions to the typed CRD endpoint: what the scheme decodes.
  ...(
    [
      ['Status of v1', { apiVersion: 'v1', kind: 'Status' }],
      ['APIGroup of v1', { apiVersion: 'v1', kind: 'APIGroup' }],
      ['DeleteOptions of the group', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'DeleteOptions' }],
      ['WatchEvent of the group', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'WatchEvent' }],
      ['CRD of v1', { apiVersion: 'v1', kind: 'CustomResourceDefinition', metadata: { name: `x.${GROUP}` } }],
      ['CRD of v1beta1 (unserved, registered)', { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition', metadata: { name: `x.${GROUP}` } }],
      ['CRD of v2 (never registered)', { apiVersion: 'apiextensions.k8s.io/v2', kind: 'CustomResourceDefinition', metadata: { name: `x.${GROUP}` } }],
      ['unknown kind of the group', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'Foo' }],
    ] as const
  ).map(([what, body]): Case => ({ id: `crd-kind ${what}`, method: 'POST', path: CRD_PATH, body: JSON.stringify(body) })),
];
