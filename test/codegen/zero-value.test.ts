import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ZeroValues } from '../../generator/emit/zero-value.js';
import type { ProtoField, ProtoMessage } from '../../generator/model/protobuf.js';
import type { JSONSchemaProps } from '../../generator/model/schema.js';
import type { ApiModel, KindModel } from '../../generator/model/types.js';
import { parseApis } from '../../generator/parse/index.js';

// The zero value of each kind (scope.Creater.New as encoding/json writes it): the kinds of apis/
// against what kube's Go types serialize to, then the rules on hand-built models.

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const ZERO_META = { creationTimestamp: null };

describe('zero values of the kinds of apis/', () => {
  const model = parseApis({ root: process.cwd() });
  const zeros = new ZeroValues(model);
  const kinds = new Map<string, KindModel>();
  for (const g of model.groups) for (const v of g.versions) for (const k of v.kinds) kinds.set(`${g.name}/${v.name}/${k.kind}`, k);

  // What Go's json.Marshal writes for the zero value of kube's type (kube 1.32 json tags).
  const rows: readonly { kind: string; zero: unknown }[] = [
    { kind: '/v1/Service', zero: { metadata: ZERO_META, spec: {}, status: { loadBalancer: {} } } },
    { kind: '/v1/Namespace', zero: { metadata: ZERO_META, spec: {}, status: {} } },
    { kind: '/v1/ConfigMap', zero: { metadata: ZERO_META } },
    { kind: '/v1/ServiceAccount', zero: { metadata: ZERO_META } },
    { kind: '/v1/Endpoints', zero: { metadata: ZERO_META } },
    { kind: 'rbac.authorization.k8s.io/v1/RoleBinding', zero: { metadata: ZERO_META, roleRef: { apiGroup: '', kind: '', name: '' } } },
    { kind: 'rbac.authorization.k8s.io/v1/ClusterRoleBinding', zero: { metadata: ZERO_META, roleRef: { apiGroup: '', kind: '', name: '' } } },
    // Go's `rules` has no omitempty (null in kube); our model declares it optional, so it is left out.
    { kind: 'rbac.authorization.k8s.io/v1/Role', zero: { metadata: ZERO_META } },
    { kind: 'rbac.authorization.k8s.io/v1/ClusterRole', zero: { metadata: ZERO_META } },
    { kind: 'apiregistration.k8s.io/v1/APIService', zero: { metadata: ZERO_META, spec: { groupPriorityMinimum: 0, versionPriority: 0 }, status: {} } },
    {
      kind: 'apiextensions.k8s.io/v1/CustomResourceDefinition',
      zero: { metadata: ZERO_META, spec: { group: '', names: { plural: '', kind: '' }, scope: '', versions: null }, status: {} },
    },
    { kind: 'wardle.example.com/v1alpha1/Flunder', zero: { metadata: ZERO_META, spec: {}, status: {} } },
    { kind: 'wardle.example.com/v1beta1/Flunder', zero: { metadata: ZERO_META, spec: {}, status: {} } },
    { kind: 'wardle.example.com/v1alpha1/Fischer', zero: { metadata: ZERO_META } },
    { kind: 'authentication.k8s.io/v1/TokenReview', zero: { metadata: ZERO_META, spec: {}, status: { user: {} } } },
    { kind: 'authorization.k8s.io/v1/SubjectAccessReview', zero: { metadata: ZERO_META, spec: {}, status: { allowed: false } } },
    {
      kind: 'authorization.k8s.io/v1/SelfSubjectRulesReview',
      zero: { metadata: ZERO_META, spec: {}, status: { resourceRules: null, nonResourceRules: null, incomplete: false } },
    },
  ];
  for (const row of rows) {
    test(row.kind, () => {
      const kind = kinds.get(row.kind);
      assert.ok(kind !== undefined, `no kind ${row.kind} in apis/`);
      assert.deepStrictEqual(zeros.of(kind), row.zero);
    });
  }
});

// A one-kind model: `io.x.v1.Thing` with the given definitions and protobuf messages.
function modelOf(definitions: Record<string, JSONSchemaProps>, protobuf: readonly ProtoMessage[] = []): { model: ApiModel; kind: KindModel } {
  const kind = { kind: 'Thing', definition: 'io.x.v1.Thing' } as KindModel;
  const model: ApiModel = {
    definitions: { [META]: { type: 'object' }, ...definitions },
    groups: [
      {
        name: 'x.io',
        dir: 'apis/x',
        clientName: 'x',
        origin: 'source',
        versions: [{ name: 'v1', dir: 'apis/x/v1', storage: true, hub: true, deprecation: undefined, openapiPackage: 'io.x.v1', kinds: [kind], protobuf }],
      },
    ],
  };
  return { model, kind };
}

const field = (name: string, number: number, rest: Partial<ProtoField>): ProtoField => ({
  name,
  number,
  cardinality: 'single',
  type: { kind: 'scalar', scalar: 'string' },
  pointer: false,
  omitEmpty: true,
  omitZero: false,
  ...rest,
});

describe('zero value rules', () => {
  test('protobuf markers: pointers and omitzero are left out, non-pointer structs and fields without omitempty written', () => {
    const { model, kind } = modelOf(
      {
        'io.x.v1.Thing': {
          type: 'object',
          properties: {
            metadata: { $ref: META },
            spec: { $ref: 'io.x.v1.Part' },
            extra: { $ref: 'io.x.v1.Part' },
            when: { type: 'string', format: 'date-time' },
            since: { type: 'string', format: 'date-time' },
            count: { type: 'integer' },
            flag: { type: 'boolean' },
            name: { type: 'string' },
            data: { type: 'string', format: 'byte' },
            items: { type: 'array', items: { type: 'string' } },
            labels: { type: 'object', additionalProperties: { type: 'string' } },
            port: { 'x-kubernetes-int-or-string': true },
            size: { 'x-kubernetes-int-or-string': true },
            optional: { type: 'string' },
          },
        },
        // JSON.parse: a `__proto__` key in an object literal would set the prototype, not a property.
        'io.x.v1.Part': { type: 'object', properties: JSON.parse('{"__proto__":{"type":"string"},"constructor":{"type":"boolean"}}') as Record<string, JSONSchemaProps> },
      },
      [
        {
          name: 'io.x.v1.Thing',
          kind: 'Thing',
          fields: [
            field('metadata', 1, { type: { kind: 'message', name: META } }),
            field('spec', 2, { type: { kind: 'message', name: 'io.x.v1.Part' } }),
            field('extra', 3, { type: { kind: 'message', name: 'io.x.v1.Part' }, pointer: true }),
            field('when', 4, { type: { kind: 'wellKnown', name: 'Time' } }),
            field('since', 5, { type: { kind: 'wellKnown', name: 'Time' }, omitZero: true }),
            field('count', 6, { type: { kind: 'scalar', scalar: 'int32' }, omitEmpty: false }),
            field('flag', 7, { type: { kind: 'scalar', scalar: 'bool' }, omitEmpty: false }),
            field('name', 8, { omitEmpty: false }),
            field('data', 9, { type: { kind: 'scalar', scalar: 'bytes' }, omitEmpty: false }),
            field('items', 10, { cardinality: 'repeated', omitEmpty: false }),
            field('labels', 11, { cardinality: 'map', omitEmpty: false }),
            field('port', 12, { type: { kind: 'wellKnown', name: 'IntOrString' } }),
            field('size', 13, { type: { kind: 'wellKnown', name: 'Quantity' } }),
            field('optional', 14, {}),
          ],
        },
        { name: 'io.x.v1.Part', kind: undefined, fields: [field('__proto__', 1, { omitEmpty: false }), field('constructor', 2, { type: { kind: 'scalar', scalar: 'bool' }, omitEmpty: false })] },
      ],
    );
    const zero = new ZeroValues(model).of(kind);
    const spec = zero['spec'] as object;
    assert.deepStrictEqual(zero, {
      metadata: ZERO_META,
      spec: JSON.parse('{"__proto__":"","constructor":false}'),
      when: null,
      count: 0,
      flag: false,
      name: '',
      data: null,
      items: null,
      labels: null,
      port: 0,
      size: '0',
    });
    assert.equal(Object.getPrototypeOf(spec), Object.prototype, '__proto__ is a field, not the prototype');
    assert.ok(Object.hasOwn(spec, '__proto__'));
  });

  test('no markers: spec and status of the kind and required structs are written, optional structs are pointers', () => {
    const { model, kind } = modelOf({
      'io.x.v1.Thing': {
        type: 'object',
        required: ['ref', 'name', 'when', 'list', 'flag', 'inline'],
        properties: {
          apiVersion: { type: 'string' },
          metadata: { $ref: META },
          spec: { $ref: 'io.x.v1.Spec' },
          status: { $ref: 'io.x.v1.Spec' },
          ref: { $ref: 'io.x.v1.Spec' },
          other: { $ref: 'io.x.v1.Spec' },
          name: { type: 'string' },
          when: { type: 'string', format: 'date-time' },
          list: { type: 'array', items: { type: 'string' } },
          flag: { type: 'boolean' },
          inline: { type: 'object', required: ['n'], properties: { n: { type: 'integer' }, m: { type: 'integer' } } },
        },
      },
      'io.x.v1.Spec': { type: 'object', required: ['n'], properties: { n: { type: 'number' }, nested: { $ref: 'io.x.v1.Spec' } } },
    });
    assert.deepStrictEqual(new ZeroValues(model).of(kind), {
      metadata: ZERO_META,
      spec: { n: 0 },
      status: { n: 0 },
      ref: { n: 0 },
      name: '',
      when: null,
      list: null,
      flag: false,
      inline: { n: 0 },
    });
  });

  test('a struct that contains itself by value is refused', () => {
    const { model, kind } = modelOf({
      'io.x.v1.Thing': { type: 'object', required: ['loop'], properties: { loop: { $ref: 'io.x.v1.Loop' } } },
      'io.x.v1.Loop': { type: 'object', required: ['again'], properties: { again: { $ref: 'io.x.v1.Loop' } } },
    });
    assert.throws(() => new ZeroValues(model).of(kind), { message: 'zero value: io.x.v1.Thing → io.x.v1.Loop → io.x.v1.Loop: a struct cannot contain itself by value' });
  });
});
