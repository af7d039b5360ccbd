import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyType, type ApplyTypeRef, type ApplyTypeResolver, definitionShortName, propertyKey } from '../../generator/emit/applyconfig-types.js';
import { emitApplyConfigurations } from '../../generator/emit/applyconfigurations.js';
import type { JSONSchemaProps } from '../../generator/model/schema.js';
import type { ApiModel, GroupModel, KindModel } from '../../generator/model/types.js';
import { printFile } from '../../generator/print/index.js';

/** A resolver that names every definition `<Short>ApplyConfiguration` and records what was used. */
function recorder(): ApplyTypeResolver & { readonly used: string[] } {
  const used: string[] = [];
  return {
    used,
    named: (ref): ApplyTypeRef => ({ module: 'm', name: `${definitionShortName(ref)}ApplyConfiguration` }),
    use: (ref) => {
      used.push(ref.name);
      return ref.name;
    },
  };
}

describe('apply configuration types of schemas', () => {
  const cases: [string, JSONSchemaProps, string][] = [
    ['string', { type: 'string' }, 'string'],
    ['integer', { type: 'integer', format: 'int64' }, 'number'],
    ['boolean', { type: 'boolean' }, 'boolean'],
    ['enum as single-quoted literals', { type: 'string', enum: ['A', "it's"] }, "'A' | 'it\\'s'"],
    ['int-or-string', { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, 'number | string'],
    ['nullable', { type: 'string', nullable: true }, 'string | null'],
    ['list of named types', { type: 'array', items: { $ref: 'io.example.v1.Port' } }, 'PortApplyConfiguration[]'],
    ['list of unions', { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, "('a' | 'b')[]"],
    ['map', { type: 'object', additionalProperties: { type: 'string' } }, 'Record<string, string>'],
    ['a ref with siblings (allOf)', { allOf: [{ $ref: '#/components/schemas/io.example.v1.Spec' }], default: {} }, 'SpecApplyConfiguration'],
    ['preserve-unknown-fields object', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, 'Record<string, unknown>'],
    ['any JSON', { 'x-kubernetes-preserve-unknown-fields': true }, 'unknown'],
    ['inline object, every field optional', { type: 'object', properties: { a: { type: 'string' }, 'b-c': { type: 'integer' } }, required: ['a'] }, "{ a?: string; 'b-c'?: number; }"],
  ];
  for (const [name, schema, want] of cases) {
    test(name, () => assert.equal(applyType(schema, recorder()), want));
  }

  test('input keys such as __proto__ and constructor are quoted data, not lookups', () => {
    const properties = JSON.parse('{"__proto__": {"type": "string"}, "constructor": {"type": "integer"}}') as Record<string, JSONSchemaProps>;
    assert.equal(applyType({ type: 'object', properties }, recorder()), '{ __proto__?: string; constructor?: number; }');
    assert.equal(propertyKey('x-kubernetes-list-type'), "'x-kubernetes-list-type'");
    assert.equal(propertyKey('$ref'), '$ref');
  });
});

const kind = (overrides: Partial<KindModel>): KindModel =>
  ({
    kind: 'Widget',
    listKind: 'WidgetList',
    plural: 'widgets',
    singular: 'widget',
    shortNames: [],
    categories: [],
    scope: 'Namespaced',
    verbs: ['patch'],
    subresources: { status: false, scale: undefined },
    printerColumns: [],
    selectableFields: [],
    definition: 'io.example.v1.Widget',
    schema: { type: 'object' },
    description: '',
    typeRef: { module: 'apis/example/v1/types', name: 'Widget' },
    hooks: { conversion: undefined, defaults: undefined, strategy: undefined },
    source: undefined,
    ...overrides,
  }) as KindModel;

function model(definitions: Record<string, JSONSchemaProps>, k: KindModel = kind({})): ApiModel {
  const group: GroupModel = {
    name: 'example.io',
    dir: 'apis/example',
    clientName: 'example',
    origin: 'source',
    versions: [{ name: 'v1', dir: 'apis/example/v1', storage: true, hub: true, deprecation: undefined, openapiPackage: 'io.example.v1', kinds: [k], protobuf: [] }],
  };
  return { groups: [group], definitions };
}

describe('emitApplyConfigurations', () => {
  test('named types reached through the kind (recursively) go to types.ts; meta types come from the client package', () => {
    const files = emitApplyConfigurations(
      model({
        'io.example.v1.Widget': {
          type: 'object',
          properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }, spec: { $ref: 'io.example.v1.WidgetSpec' } },
        },
        'io.example.v1.WidgetSpec': { type: 'object', properties: { selector: { $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' }, tree: { $ref: 'io.example.v1.Node' } } },
        'io.example.v1.Node': { type: 'object', properties: { children: { type: 'array', items: { $ref: 'io.example.v1.Node' } } } },
        'io.example.v1.Unused': { type: 'object', properties: { a: { type: 'string' } } },
      }),
    );
    const text = new Map(files.map((f) => [f.path, printFile(f).text]));
    assert.deepEqual(
      [...text.keys()],
      ['generated/applyconfigurations/example/v1/widget.ts', 'generated/applyconfigurations/example/v1/types.ts', 'generated/applyconfigurations/example/v1/index.ts'],
    );
    const types = text.get('generated/applyconfigurations/example/v1/types.ts')!;
    assert.match(types, /import type \{ LabelSelectorApplyConfiguration \} from 'kube-ts-apiserver\/client';/);
    assert.match(types, /export interface NodeApplyConfiguration \{\n {2}children\?: NodeApplyConfiguration\[\];\n\}/);
    assert.match(types, /export interface WidgetSpecApplyConfiguration \{\n {2}selector\?: LabelSelectorApplyConfiguration;\n {2}tree\?: NodeApplyConfiguration;\n\}/);
    assert.doesNotMatch(types, /Unused/, 'only what a kind reaches');
    const widget = text.get('generated/applyconfigurations/example/v1/widget.ts')!;
    assert.match(widget, /apiVersion: 'example\.io\/v1';\n {2}kind: 'Widget';\n {2}metadata: RootObjectMetaApplyConfiguration;\n {2}spec\?: WidgetSpecApplyConfiguration;/);
    assert.match(widget, /export function extractWidget\(obj: Widget, fieldManager: string\): WidgetApplyConfiguration/);
    assert.doesNotMatch(widget, /extractWidgetStatus/, 'no status subresource, no extract of it');
  });

  test('a $ref the model does not define, or a meta type without an apply configuration, is an error', () => {
    const root = (ref: string): Record<string, JSONSchemaProps> => ({ 'io.example.v1.Widget': { type: 'object', properties: { spec: { $ref: ref } } } });
    assert.throws(() => emitApplyConfigurations(model(root('io.example.v1.Missing'))), /\$ref to io\.example\.v1\.Missing, which the model does not define/);
    assert.throws(
      () => emitApplyConfigurations(model(root('io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'))),
      /no meta\/v1 apply configuration for io\.k8s\.apimachinery\.pkg\.apis\.meta\.v1\.ManagedFieldsEntry/,
    );
    assert.throws(() => emitApplyConfigurations(model(root('io.other.v1.Thing'))), /no API version owns io\.other\.v1\.Thing/);
    const declared = kind({ source: { file: 'apis/example/v1/types.ts', line: 12, column: 3 } });
    assert.throws(() => emitApplyConfigurations(model(root('io.other.v1.Thing'), declared)), /^Error: apis\/example\/v1\/types\.ts:12:3: apply configurations: no API version owns/);
  });
});
