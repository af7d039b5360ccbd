import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { CodegenError } from '../../generator/model/diagnostics.js';
import type { JSONSchemaProps } from '../../generator/model/schema.js';
import type { ApiModel, KindModel, VersionModel } from '../../generator/model/types.js';
import { VOCABULARY } from '../../generator/parse/vocabulary.js';
import { scratchProject } from './harness.js';
import { scratchParser } from './scratch-parse.js';

// Every marker of the vocabulary, parsed by parseApis on one scratch project
// whose apis/t/ group is rewritten per case.
const project = scratchProject({ withApis: false });
after(() => project.dispose());

const GROUP = 'apis/t';
const TYPES = `${GROUP}/v1/types.ts`;
const IMPORT = "import type { ObjectMeta, TypeMeta, int32 } from '../../meta/v1/types.js';\n";
const DOC = '/**\n * @groupName t.example.com\n */\nexport {};\n';

/** Markers seen by the tests, checked against VOCABULARY at the end. */
const covered = new Set<string>();
const cover = (...names: string[]): void => names.forEach((n) => covered.add(n));

const { parse, errorsOf: parseErrors } = scratchParser(project, GROUP);

/** A namespaced kind Widget whose spec is WidgetSpec with `specBody`; extra declarations after it. */
function widget(specBody: string, options: { kindMarkers?: string; extra?: string; status?: string } = {}): string {
  return `${IMPORT}
export interface WidgetSpec {
${specBody}
}

/**
 * A widget.
 *
 * @genclient
${(options.kindMarkers ?? '')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => ` * ${l}`)
  .join('\n')}
 */
export interface Widget extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
  status?: ${options.status ?? '{ replicas?: int32; selector?: string; phase?: string }'};
}
${options.extra ?? ''}`;
}

function kindOf(model: ApiModel, group = 't.example.com', version = 'v1', kind = 'Widget'): KindModel {
  const k = versionOf(model, group, version).kinds.find((x) => x.kind === kind);
  assert.ok(k, `kind ${kind} in ${group}/${version}`);
  return k;
}

function versionOf(model: ApiModel, group = 't.example.com', version = 'v1'): VersionModel {
  const g = model.groups.find((x) => x.name === group);
  assert.ok(g, `group ${group}`);
  const v = g.versions.find((x) => x.name === version);
  assert.ok(v, `version ${version}`);
  return v;
}

function specSchema(model: ApiModel): JSONSchemaProps {
  return kindOf(model).schema.properties!['spec']!;
}

/** Parses a WidgetSpec with one property `f` carrying `markers`, returns the spec schema. */
function fieldCase(markers: string, decl: string, extra = ''): JSONSchemaProps {
  const comment = markers
    .split('\n')
    .map((l) => `   * ${l}`)
    .join('\n');
  return specSchema(parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget(`  /**\n${comment}\n   */\n  ${decl};`, { extra }) }));
}

/** Asserts that every key of `expected` is deep-equal in `actual`. */
function assertIncludes(actual: unknown, expected: Record<string, unknown>, label: string): void {
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual((actual as Record<string, unknown>)[key], value, `${label}: ${key} in ${JSON.stringify(actual)}`);
  }
}

describe('schema markers on a field', () => {
  interface Row {
    readonly name: string;
    readonly markers: readonly string[];
    readonly source: string;
    readonly decl: string;
    /** Expected keys of the field's schema. */
    readonly field?: Record<string, unknown>;
    /** Expected keys of the field's items schema. */
    readonly items?: Record<string, unknown>;
    readonly extra?: string;
  }
  const rows: readonly Row[] = [
    { name: '@minimum', markers: ['minimum'], source: '@minimum 1', decl: 'f?: int32', field: { type: 'integer', minimum: 1 } },
    { name: '@maximum', markers: ['maximum'], source: '@maximum 10.5', decl: 'f?: number', field: { type: 'number', maximum: 10.5 } },
    { name: '@exclusiveMinimum with @minimum', markers: ['exclusiveMinimum'], source: '@minimum 0\n@exclusiveMinimum', decl: 'f?: number', field: { minimum: 0, exclusiveMinimum: true } },
    { name: '@exclusiveMaximum with @maximum', markers: ['exclusiveMaximum'], source: '@maximum 100\n@exclusiveMaximum', decl: 'f?: int32', field: { maximum: 100, exclusiveMaximum: true } },
    { name: '@multipleOf', markers: ['multipleOf'], source: '@multipleOf 5', decl: 'f?: int32', field: { multipleOf: 5 } },
    { name: '@minLength', markers: ['minLength'], source: '@minLength 1', decl: 'f?: string', field: { type: 'string', minLength: 1 } },
    { name: '@maxLength', markers: ['maxLength'], source: '@maxLength 63', decl: 'f?: string', field: { maxLength: 63 } },
    { name: '@pattern', markers: ['pattern'], source: '@pattern ^[a-z]+$', decl: 'f?: string', field: { pattern: '^[a-z]+$' } },
    {
      name: '@pattern on string[] applies to the items',
      markers: ['pattern'],
      source: '@pattern ^[a-z]+$',
      decl: 'f?: string[]',
      field: { type: 'array' },
      items: { type: 'string', pattern: '^[a-z]+$' },
    },
    { name: '@maxLength on string[] applies to the items', markers: ['maxLength'], source: '@maxLength 3', decl: 'f?: string[]', items: { maxLength: 3 } },
    { name: '@format', markers: ['format'], source: '@format date-time', decl: 'f?: string', field: { format: 'date-time' } },
    { name: '@minItems', markers: ['minItems'], source: '@minItems 1', decl: 'f?: string[]', field: { type: 'array', minItems: 1 } },
    { name: '@maxItems', markers: ['maxItems'], source: '@maxItems 4', decl: 'f?: string[]', field: { maxItems: 4 } },
    { name: '@uniqueItems', markers: ['uniqueItems'], source: '@uniqueItems', decl: 'f?: int32[]', field: { uniqueItems: true } },
    { name: '@minProperties', markers: ['minProperties'], source: '@minProperties 1', decl: 'f?: Record<string, string>', field: { type: 'object', minProperties: 1 } },
    { name: '@maxProperties', markers: ['maxProperties'], source: '@maxProperties 8', decl: 'f?: Record<string, string>', field: { maxProperties: 8 } },
    { name: '@enum', markers: ['enum'], source: '@enum Always;Never;IfNotPresent', decl: 'f?: string', field: { enum: ['Always', 'Never', 'IfNotPresent'] } },
    { name: '@enum on a numeric type gives numbers', markers: ['enum'], source: '@enum 1,2,3', decl: 'f?: int32', field: { enum: [1, 2, 3] } },
    { name: 'a string-literal union is an enum', markers: [], source: 'A policy.', decl: "f?: 'Allow' | 'Deny'", field: { type: 'string', enum: ['Allow', 'Deny'] } },
    { name: '@nullable', markers: ['nullable'], source: '@nullable', decl: 'f?: string', field: { nullable: true } },
    { name: '@default with a JSON object', markers: ['default'], source: '@default {"a":1}', decl: 'f?: Record<string, int32>', field: { default: { a: 1 } } },
    { name: '@default with a bare word is a string', markers: ['default'], source: '@default Always', decl: 'f?: string', field: { default: 'Always' } },
    { name: '@default with a number', markers: ['default'], source: '@default 3', decl: 'f?: int32', field: { default: 3 } },
    { name: '@example', markers: ['example'], source: '@example ["a","b"]', decl: 'f?: string[]', field: { example: ['a', 'b'] } },
    { name: '@title', markers: ['title'], source: '@title Widget size', decl: 'f?: string', field: { title: 'Widget size' } },
    { name: '@listType set', markers: ['listType'], source: '@listType set', decl: 'f?: string[]', field: { 'x-kubernetes-list-type': 'set' } },
    { name: '@listType atomic', markers: ['listType'], source: '@listType atomic', decl: 'f?: string[]', field: { 'x-kubernetes-list-type': 'atomic' } },
    {
      name: '@listType map with @listMapKey',
      markers: ['listType', 'listMapKey'],
      source: '@listType map\n@listMapKey name\n@listMapKey protocol',
      decl: 'f?: Port[]',
      extra: 'export interface Port {\n  name: string;\n  /** @default TCP */\n  protocol?: string;\n  port?: int32;\n}\n',
      field: { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'protocol'] },
    },
    { name: '@mapType', markers: ['mapType'], source: '@mapType atomic', decl: 'f?: Record<string, string>', field: { 'x-kubernetes-map-type': 'atomic' } },
    { name: '@structType', markers: ['structType'], source: '@structType atomic', decl: 'f?: { a?: string; b?: string }', field: { type: 'object', 'x-kubernetes-map-type': 'atomic' } },
    { name: '@intOrString', markers: ['intOrString'], source: '@intOrString', decl: 'f?: number | string', field: { 'x-kubernetes-int-or-string': true } },
    {
      name: '@embeddedResource',
      markers: ['embeddedResource'],
      source: '@embeddedResource\n@preserveUnknownFields',
      decl: 'f?: Record<string, unknown>',
      field: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    },
    {
      name: '@preserveUnknownFields',
      markers: ['preserveUnknownFields'],
      source: '@preserveUnknownFields',
      decl: 'f?: { known?: string }',
      field: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
    { name: '@type', markers: ['type'], source: '@type integer', decl: 'f?: number', field: { type: 'integer' } },
    {
      name: '@validation with every key',
      markers: ['validation'],
      source: '@validation rule="self.size() > 1" message="too short" fieldPath=".f" reason=FieldValueInvalid',
      decl: 'f?: string',
      field: { 'x-kubernetes-validations': [{ rule: 'self.size() > 1', message: 'too short', fieldPath: '.f', reason: 'FieldValueInvalid' }] },
    },
    {
      name: '@validation is repeatable and takes messageExpression',
      markers: ['validation'],
      source: '@validation rule="self >= 0"\n@validation rule="self < 100" messageExpression="string(self) + \' is too big\'"',
      decl: 'f?: int32',
      field: { 'x-kubernetes-validations': [{ rule: 'self >= 0' }, { rule: 'self < 100', messageExpression: "string(self) + ' is too big'" }] },
    },
    {
      name: '@validatedByStrategy publishes what the strategy checks',
      markers: ['validatedByStrategy'],
      source: '@enum A;B\n@validatedByStrategy',
      decl: 'f?: string',
      field: { type: 'string', enum: undefined },
    },
    { name: '@immutable', markers: ['immutable'], source: '@immutable', decl: 'f?: string', field: { 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'Value is immutable' }] } },
    {
      name: '@patchStrategy and @patchMergeKey',
      markers: ['patchStrategy', 'patchMergeKey'],
      source: '@patchStrategy merge\n@patchMergeKey name',
      decl: 'f?: Port[]',
      extra: 'export interface Port {\n  name: string;\n  port?: int32;\n}\n',
      field: { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
    },
  ];
  for (const row of rows) {
    test(`${row.name}: ${row.source.replaceAll('\n', ' ')}`, () => {
      cover(...row.markers);
      const spec = fieldCase(row.source, row.decl, row.extra);
      const f = spec.properties!['f']!;
      if (row.field !== undefined) assertIncludes(f, row.field, row.name);
      if (row.items !== undefined) assertIncludes(f.items, row.items, `${row.name} items`);
    });
  }

  test('@schemaless drops the type of a field', () => {
    cover('schemaless');
    const f = fieldCase('@schemaless\n@preserveUnknownFields', 'f?: { a?: string }').properties!['f']!;
    assert.equal(f.type, undefined, JSON.stringify(f));
    assert.equal(f.properties, undefined, JSON.stringify(f));
  });

  test('schema markers apply on a type declaration too', () => {
    cover('minLength', 'maxLength');
    const spec = fieldCase('A name.', 'f?: Name', '/**\n * @minLength 1\n * @maxLength 5\n */\nexport type Name = string;\n');
    assertIncludes(spec.properties!['f'], { minLength: 1, maxLength: 5 }, 'alias');
  });
});

describe('presence markers', () => {
  test('`?` is optional, a plain property is required, @required and @optional override', () => {
    cover('required', 'optional');
    const spec = specSchema(
      parse({
        [`${GROUP}/v1/doc.ts`]: DOC,
        [TYPES]: widget('  plain: string;\n  question?: string;\n  /** @required */\n  forced?: string;\n  /** @optional */\n  relaxed: string;'),
      }),
    );
    assert.deepEqual([...(spec.required ?? [])].sort(), ['forced', 'plain']);
  });

  test('@required together with @optional is an error', () => {
    const err = parseErrors({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  /**\n   * @required\n   * @optional\n   */\n  x?: string;') });
    assert.match(err.message, /apis\/t\/v1\/types\.ts:\d+:\d+: marker @required: property x cannot be both @required and @optional/);
  });
});

describe('package markers', () => {
  const twoVersions = (v1Doc: string, v1beta1Doc: string): Record<string, string> => ({
    [`${GROUP}/v1/doc.ts`]: v1Doc,
    [TYPES]: widget('  size?: int32;'),
    [`${GROUP}/v1beta1/doc.ts`]: v1beta1Doc,
    [`${GROUP}/v1beta1/types.ts`]: widget('  size?: int32;'),
  });

  test('@groupName names the group; a single version is storage and hub', () => {
    cover('groupName');
    const model = parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  size?: int32;') });
    const v = versionOf(model);
    assert.equal(v.storage, true);
    assert.equal(v.hub, true);
    assert.equal(v.deprecation, undefined);
    assert.equal(model.groups.find((g) => g.name === 't.example.com')?.dir, GROUP);
  });

  test('@storageVersion, @hub and @deprecatedVersion across two versions', () => {
    cover('storageVersion', 'hub', 'deprecatedVersion');
    const model = parse(
      twoVersions(
        '/**\n * @groupName t.example.com\n * @hub\n */\nexport {};\n',
        '/**\n * @groupName t.example.com\n * @storageVersion\n * @deprecatedVersion warning="t.example.com/v1beta1 is deprecated; use v1"\n */\nexport {};\n',
      ),
    );
    const v1 = versionOf(model, 't.example.com', 'v1');
    const beta = versionOf(model, 't.example.com', 'v1beta1');
    assert.deepEqual([v1.storage, v1.hub, v1.deprecation], [false, true, undefined]);
    assert.deepEqual([beta.storage, beta.hub, beta.deprecation], [true, false, { warning: 't.example.com/v1beta1 is deprecated; use v1' }]);
  });

  test('@deprecatedVersion without a warning', () => {
    cover('deprecatedVersion');
    const model = parse(twoVersions('/**\n * @groupName t.example.com\n * @hub\n * @storageVersion\n */\nexport {};\n', '/**\n * @groupName t.example.com\n * @deprecatedVersion\n */\nexport {};\n'));
    assert.deepEqual(versionOf(model, 't.example.com', 'v1beta1').deprecation, { warning: undefined });
  });

  test('two versions without @storageVersion is an error', () => {
    const err = parseErrors(twoVersions('/**\n * @groupName t.example.com\n * @hub\n */\nexport {};\n', DOC));
    assert.match(err.message, /needs exactly one version marked @storageVersion, found 0/);
  });

  test('@openapiModelPackage sets the OpenAPI definition prefix', () => {
    cover('openapiModelPackage');
    const model = parse({
      [`${GROUP}/v1/doc.ts`]: '/**\n * @groupName t.example.com\n * @openapiModelPackage io.example.t.v1\n */\nexport {};\n',
      [TYPES]: widget('  size?: int32;'),
    });
    assert.equal(versionOf(model).openapiPackage, 'io.example.t.v1');
    assert.equal(kindOf(model).definition, 'io.example.t.v1.Widget');
  });
});

describe('kind markers', () => {
  const kindCase = (kindMarkers: string, status?: string): KindModel =>
    kindOf(parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  replicas?: int32;\n  selector?: string;', { kindMarkers, ...(status === undefined ? {} : { status }) }) }));

  test('@genclient alone: namespaced, all verbs, derived names', () => {
    cover('genclient');
    const k = kindCase('');
    assert.equal(k.scope, 'Namespaced');
    assert.deepEqual(k.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.equal(k.plural, 'widgets');
    assert.equal(k.singular, 'widget');
    assert.equal(k.listKind, 'WidgetList');
    assert.deepEqual(k.subresources, { status: false, scale: undefined });
  });

  test('@nonNamespaced', () => {
    cover('nonNamespaced');
    assert.equal(kindCase('@nonNamespaced').scope, 'Cluster');
  });

  test('@onlyVerbs', () => {
    cover('onlyVerbs');
    assert.deepEqual(kindCase('@onlyVerbs get,list,create').verbs, ['create', 'get', 'list']);
  });

  test('@skipVerbs', () => {
    cover('skipVerbs');
    assert.deepEqual(kindCase('@skipVerbs delete;deletecollection').verbs, ['create', 'get', 'list', 'patch', 'update', 'watch']);
  });

  test('@readonly', () => {
    cover('readonly');
    assert.deepEqual(kindCase('@readonly').verbs, ['get', 'list', 'watch']);
  });

  test('@resource path, singular, shortName, categories, scope', () => {
    cover('resource');
    const k = kindCase('@resource path=gadgets singular=gadget shortName=wg;gd categories=all,things scope=Cluster');
    assert.equal(k.plural, 'gadgets');
    assert.equal(k.singular, 'gadget');
    assert.deepEqual(k.shortNames, ['gd', 'wg']);
    assert.deepEqual(k.categories, ['all', 'things']);
    assert.equal(k.scope, 'Cluster');
  });

  test('@subresource status and scale', () => {
    cover('subresource');
    const k = kindCase('@subresource status\n@subresource scale specpath=.spec.replicas statuspath=.status.replicas selectorpath=.status.selector');
    assert.deepEqual(k.subresources, {
      status: true,
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
    });
  });

  test('@printcolumn', () => {
    cover('printcolumn');
    const k = kindCase(
      '@printcolumn name=Replicas type=integer jsonPath=.spec.replicas\n@printcolumn name=Phase type=string jsonPath=.status.phase description="The phase" priority=1\n@printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp format=date-time',
    );
    assert.deepEqual(k.printerColumns, [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', description: undefined, format: undefined, priority: 0 },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'The phase', format: undefined, priority: 1 },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: undefined, format: 'date-time', priority: 0 },
    ]);
  });

  test('@selectableField', () => {
    cover('selectableField');
    assert.deepEqual(kindCase('@selectableField jsonPath=.spec.selector\n@selectableField jsonPath=.status.phase').selectableFields, ['.spec.selector', '.status.phase']);
  });

  test('schema markers on a kind apply to the whole object', () => {
    cover('validation');
    const k = kindCase('@validation rule="!has(self.spec) || !has(self.spec.replicas) || self.spec.replicas >= 0" message="replicas must not be negative"');
    assert.deepEqual(k.schema['x-kubernetes-validations'], [{ rule: '!has(self.spec) || !has(self.spec.replicas) || self.spec.replicas >= 0', message: 'replicas must not be negative' }]);
  });
});

describe('@protobuf (wire format)', () => {
  const header = "import type { int32, int64, IntOrString, ObjectMeta, Time, TypeMeta } from '../../meta/v1/types.js';\n";
  const gadget = (spec: string, extra = '', kindFields = '  /** @protobuf 1 */\n  metadata?: ObjectMeta;\n  /** @protobuf 2 */\n  spec?: GadgetSpec;'): string => `${header}
export interface GadgetSpec {
${spec}
}
${extra}
/**
 * A gadget.
 *
 * @genclient
 */
export interface Gadget extends TypeMeta {
${kindFields}
}
`;
  const pb = (n: string, decl: string): string => `  /** @protobuf ${n} */\n  ${decl};`;
  const errorsOf = (source: string): string => parseErrors({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source }).message;

  test('numbered types are the messages of their version; the one inlining TypeMeta names its kind', () => {
    cover('protobuf');
    const source = gadget(
      [
        pb('1', 'replicas?: int32'),
        pb('2 pointer', 'paused?: boolean'),
        pb('3', 'tags?: string[]'),
        pb('4', 'labels?: Record<string, string>'),
        pb('5 omitzero', 'since?: Time | null'),
        pb('6', 'port: IntOrString'),
        pb('7', "phase?: 'Ready' | 'Failed'"),
        pb('9', 'parts?: Part[]'),
        pb('8', 'big?: int64'),
      ].join('\n'),
      `export interface Part {\n${pb('1', 'name: string')}\n}\n`,
    );
    const v = versionOf(parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source }));
    assert.deepEqual(
      v.protobuf.map((m) => [m.name, m.kind]),
      [
        ['com.example.t.v1.Gadget', 'Gadget'],
        ['com.example.t.v1.GadgetSpec', undefined],
        ['com.example.t.v1.Part', undefined],
      ],
    );
    const field = (name: string, number: number, type: object, more: object = {}): object => ({ name, number, cardinality: 'single', type, pointer: false, omitEmpty: true, omitZero: false, ...more });
    const scalar = (s: string): object => ({ kind: 'scalar', scalar: s });
    assert.deepEqual(v.protobuf[1]!.fields, [
      field('replicas', 1, scalar('int32')),
      field('paused', 2, scalar('bool'), { pointer: true }),
      field('tags', 3, scalar('string'), { cardinality: 'repeated' }),
      field('labels', 4, scalar('string'), { cardinality: 'map' }),
      field('since', 5, { kind: 'wellKnown', name: 'Time' }, { omitZero: true }),
      field('port', 6, { kind: 'wellKnown', name: 'IntOrString' }, { omitEmpty: false }),
      field('phase', 7, scalar('string')),
      field('big', 8, scalar('int64')),
      field('parts', 9, { kind: 'message', name: 'com.example.t.v1.Part' }, { cardinality: 'repeated' }),
    ]);
    assert.deepEqual(
      v.protobuf[0]!.fields.map((f) => [f.name, f.type]),
      [
        ['metadata', { kind: 'message', name: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }],
        ['spec', { kind: 'message', name: 'com.example.t.v1.GadgetSpec' }],
      ],
    );
  });

  test('types without numbers are not messages', () => {
    const v = versionOf(parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  replicas?: int32;') }));
    assert.deepEqual(v.protobuf, []);
  });

  const errorRows: readonly { name: string; source: string; message: RegExp }[] = [
    {
      name: 'a kind numbered in part',
      source: gadget(pb('1', 'replicas?: int32'), '', '  /** @protobuf 1 */\n  metadata?: ObjectMeta;\n  spec?: GadgetSpec;'),
      message: /^apis\/t\/v1\/types\.ts:\d+: marker @protobuf: Gadget numbers some fields but not spec: number every field \(as Go's generated\.proto does\) or none$/m,
    },
    { name: 'a number used twice', source: gadget(`${pb('1', 'a?: string')}\n${pb('1', 'b?: string')}`), message: /marker @protobuf: field number 1 of GadgetSpec is used by both a and b$/m },
    {
      name: 'a reference to a type without numbers',
      source: gadget(pb('1', 'part?: Part'), 'export interface Part {\n  name: string;\n}\n'),
      message: /marker @protobuf: field part of GadgetSpec refers to Part, which has no @protobuf field numbers$/m,
    },
    { name: 'a number protobuf reserves', source: gadget(pb('19000', 'a?: string')), message: /marker @protobuf: field number 19000 is in the range 19000-19999 that protobuf reserves$/m },
    { name: 'an unknown flag', source: gadget(pb('1 optional', 'a?: string')), message: /marker @protobuf: unknown flag "optional" \(known: pointer, omitzero\)$/m },
    { name: 'a plain number', source: gadget(pb('1', 'a?: number')), message: /marker @protobuf: field a: a plain number has no protobuf type: use int32 or int64 from apis\/meta\/v1$/m },
    { name: 'pointer on a list', source: gadget(pb('1 pointer', 'a?: string[]')), message: /marker @protobuf: field a: pointer applies to a single value, not to a list$/m },
    { name: 'omitzero on a string', source: gadget(pb('1 omitzero', 'a?: string')), message: /marker @protobuf: field a: omitzero is supported on Time and MicroTime fields only$/m },
    { name: 'an inline object', source: gadget(pb('1', 'a?: { b?: string }')), message: /marker @protobuf: field a: an inline object type has no protobuf message: declare it as a named interface$/m },
  ];
  for (const row of errorRows) {
    test(`error: ${row.name}`, () => {
      assert.match(errorsOf(row.source), row.message);
    });
  }
});

/** Column (1-based) of `needle` in the first line of `text` that contains it. */
function columnOf(text: string, needle: string): number {
  const l = text.split('\n').find((x) => x.includes(needle));
  assert.ok(l !== undefined, `${needle} in source`);
  return l.indexOf(needle) + 1;
}

/** Line (1-based) of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `${needle} in source`);
  return i + 1;
}

describe('errors', () => {
  const fails = (specBody: string, options: Parameters<typeof widget>[1] = {}): { err: CodegenError; source: string } => {
    const source = widget(specBody, options);
    return { err: parseErrors({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source }), source };
  };

  test('an unknown marker names file, line and the nearest marker', () => {
    const { err, source } = fails('  name?: string;\n  /**\n   * Size.\n   *\n   * @minimun 1\n   */\n  size?: int32;');
    const line = lineOf(source, '@minimun');
    const column = columnOf(source, '@minimun');
    assert.equal(err.message, `${TYPES}:${line}:${column}: marker @minimun: unknown marker (did you mean @minimum?)`);
    assert.deepEqual(
      err.diagnostics.map((d) => ({ file: d.location?.file, line: d.location?.line, column: d.location?.column })),
      [{ file: TYPES, line, column }],
    );
  });

  test('an unknown marker in doc.ts names doc.ts', () => {
    const doc = '/**\n * Docs.\n *\n * @groupName t.example.com\n * @storageVersoin\n */\nexport {};\n';
    const err = parseErrors({ [`${GROUP}/v1/doc.ts`]: doc, [TYPES]: widget('  size?: int32;') });
    assert.match(err.message, new RegExp(`^${GROUP}/v1/doc\\.ts:5:4: marker @storageVersoin: unknown marker \\(did you mean @storageVersion\\?\\)`, 'm'));
  });

  const malformed: readonly { name: string; body?: string; kindMarkers?: string; needle: string; marker: string }[] = [
    { name: '@minimum abc', body: '  /** @minimum abc */\n  size?: int32;', needle: '@minimum abc', marker: 'minimum' },
    { name: '@maxLength 1.5', body: '  /** @maxLength 1.5 */\n  name?: string;', needle: '@maxLength', marker: 'maxLength' },
    { name: '@listType bogus', body: '  /** @listType bogus */\n  names?: string[];', needle: '@listType', marker: 'listType' },
    { name: '@default {not json', body: '  /** @default {"a": */\n  m?: Record<string, string>;', needle: '@default', marker: 'default' },
    { name: '@minimum on a string', body: '  /** @minimum 1 */\n  name?: string;', needle: '@minimum', marker: 'minimum' },
    { name: '@pattern that is not RE2', body: '  /** @pattern (?<=a)b */\n  name?: string;', needle: '@pattern', marker: 'pattern' },
    { name: '@exclusiveMinimum without @minimum', body: '  /** @exclusiveMinimum */\n  size?: int32;', needle: '@exclusiveMinimum', marker: 'exclusiveMinimum' },
    { name: '@listMapKey without @listType map', body: '  /** @listMapKey name */\n  items?: { name: string }[];', needle: '@listMapKey', marker: 'listMapKey' },
    { name: '@printcolumn missing type', kindMarkers: '@printcolumn name=X jsonPath=.spec.size', needle: '@printcolumn', marker: 'printcolumn' },
    { name: '@printcolumn with an unknown type', kindMarkers: '@printcolumn name=X type=str jsonPath=.spec.size', needle: '@printcolumn', marker: 'printcolumn' },
    { name: '@resource with an unknown key', kindMarkers: '@resource plural=widgets', needle: '@resource', marker: 'resource' },
    { name: '@subresource bogus', kindMarkers: '@subresource bogus', needle: '@subresource', marker: 'subresource' },
    { name: '@onlyVerbs with an unknown verb', kindMarkers: '@onlyVerbs get,fetch', needle: '@onlyVerbs', marker: 'onlyVerbs' },
    { name: '@validation without rule', kindMarkers: '@validation message="x"', needle: '@validation', marker: 'validation' },
    { name: '@validation with an unknown reason', kindMarkers: '@validation rule="true" reason=Nope', needle: '@validation', marker: 'validation' },
    { name: '@nonNamespaced given twice', kindMarkers: '@nonNamespaced\n@nonNamespaced', needle: '@nonNamespaced', marker: 'nonNamespaced' },
  ];
  for (const row of malformed) {
    test(`a malformed marker is reported at its line: ${row.name}`, () => {
      const { err, source } = fails(row.body ?? '  size?: int32;', row.kindMarkers === undefined ? {} : { kindMarkers: row.kindMarkers });
      const lines = source
        .split('\n')
        .map((l, i) => (l.includes(row.needle) ? i + 1 : 0))
        .filter((n) => n > 0);
      assert.ok(err.diagnostics.length >= 1, err.message);
      const d = err.diagnostics[0]!;
      assert.equal(d.location?.file, TYPES, err.message);
      assert.ok(lines.includes(d.location?.line ?? -1), `line ${d.location?.line} should be one of ${lines.join(', ')}: ${err.message}`);
      assert.match(d.message, new RegExp(`marker @${row.marker}\\b`), err.message);
      const column = columnOf(source.split('\n')[d.location!.line - 1]!, `@${row.marker}`);
      assert.equal(d.location?.column, column, err.message);
      assert.match(err.message, new RegExp(`^${TYPES.replaceAll('.', '\\.')}:${d.location?.line}:${column}: marker @${row.marker}`, 'm'));
    });
  }

  const cel: readonly { name: string; rule: string }[] = [
    { name: 'a field the type does not have', rule: 'self.nope > 0' },
    { name: 'a syntax error', rule: 'self.size >' },
    { name: 'a type error', rule: "self.size + 'a' == 1" },
  ];
  for (const row of cel) {
    test(`a CEL rule with ${row.name} does not compile, reported at its @validation marker`, () => {
      const spec = `  /** @validation rule="${row.rule}" */\n  inner?: Inner;`;
      const src = widget(spec, { extra: 'export interface Inner {\n  size: int32;\n}\n' });
      const e = parseErrors({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: src });
      const line = lineOf(src, '@validation');
      const column = columnOf(src, '@validation');
      const d = e.diagnostics.find((x) => x.message.includes('does not compile'));
      assert.ok(d, e.message);
      assert.deepEqual(d.location, { file: TYPES, line, column }, e.message);
      assert.match(e.message, new RegExp(`^${TYPES.replaceAll('.', '\\.')}:${line}:${column}: marker @validation: CEL rule `, 'm'));
      assert.match(e.message, /\(on property inner\) does not compile: ERROR: <input>:1:\d+: /);
      assert.ok(e.message.includes(row.rule), e.message);
    });
  }

  const wrongSite: readonly { name: string; files: () => Record<string, string>; needle: string; file: string; marker: string }[] = [
    {
      name: '@genclient on a field',
      files: () => ({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  /** @genclient */\n  size?: int32;') }),
      needle: '@genclient */',
      file: TYPES,
      marker: 'genclient',
    },
    {
      name: '@groupName on a field',
      files: () => ({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  /** @groupName x.io */\n  size?: int32;') }),
      needle: '@groupName',
      file: TYPES,
      marker: 'groupName',
    },
    {
      name: '@required on a kind',
      files: () => ({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  size?: int32;', { kindMarkers: '@required' }) }),
      needle: '@required',
      file: TYPES,
      marker: 'required',
    },
    {
      name: '@patchStrategy on a type',
      files: () => ({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  size?: int32;', { extra: '/** @patchStrategy merge */\nexport interface Other {\n  a?: string;\n}\n' }) }),
      needle: '@patchStrategy',
      file: TYPES,
      marker: 'patchStrategy',
    },
    {
      name: '@goType on a field',
      files: () => ({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget('  /** @goType types.UID */\n  owner?: string;') }),
      needle: '@goType',
      file: TYPES,
      marker: 'goType',
    },
    {
      name: '@minimum in doc.ts',
      files: () => ({ [`${GROUP}/v1/doc.ts`]: '/**\n * @groupName t.example.com\n * @minimum 1\n */\nexport {};\n', [TYPES]: widget('  size?: int32;') }),
      needle: '@minimum',
      file: `${GROUP}/v1/doc.ts`,
      marker: 'minimum',
    },
  ];
  for (const row of wrongSite) {
    test(`a marker at the wrong site fails: ${row.name}`, () => {
      const files = row.files();
      const err = parseErrors(files);
      const line = lineOf(files[row.file]!, row.needle);
      const column = columnOf(files[row.file]!, row.needle);
      assert.match(err.message, new RegExp(`^${row.file.replaceAll('.', '\\.')}:${line}:${column}: marker @${row.marker}: not allowed on a `, 'm'));
    });
  }
});

test('@goType names the Go type of an alias declared in another Go package (test/codegen/go-type-names.test.ts has the rest)', () => {
  cover('goType');
  const source = widget('  owner?: Owner;', { extra: '/** @goType types.UID */\nexport type Owner = string;\n' });
  const model = parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source });
  assert.deepEqual(model.goTypes?.['com.example.t.v1.WidgetSpec'], { owner: { name: 'types.UID' } });
  assert.deepEqual(specSchema(model).properties?.['owner'], { type: 'string' });
});

test('every marker of the vocabulary is covered', () => {
  const missing = Object.keys(VOCABULARY).filter((m) => !covered.has(m));
  assert.deepEqual(missing, []);
});
