import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { CodegenError, Diagnostic } from '../../generator/model/diagnostics.js';
import type { JSONSchemaProps } from '../../generator/model/schema.js';
import type { ApiModel, SourceLocation } from '../../generator/model/types.js';
import { codegenErrors, scratchProject } from './harness.js';
import { scratchParser } from './scratch-parse.js';

// "Codegen never loses meaning silently": every type with no structural schema, every bad
// default, every CEL rule that does not compile and every incomplete conversion is an error at
// `file:line:col` of its declaration or marker; what kube can represent is generated faithfully.
const project = scratchProject({ withApis: false });
after(() => project.dispose());

const GROUP = 'apis/f';
const TYPES = `${GROUP}/v1/types.ts`;
const DOC = '/**\n * @groupName f.example.com\n */\nexport {};\n';
const IMPORT = "import type { IntOrString, ObjectMeta, TypeMeta, int32 } from '../../meta/v1/types.js';\n";

/** A kind Widget whose spec is `interface WidgetSpec { <body> }`, then `extra`. */
function widget(body: string, extra = ''): string {
  return `${IMPORT}
export interface WidgetSpec {
${body}
}

/** @genclient */
export interface Widget extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
${extra}`;
}

const { parse, errorsOf } = scratchParser(project, GROUP);

/** Where `needle` first occurs in `text` (1-based line and column), as a diagnostic location. */
function at(text: string, needle: string, file = TYPES): SourceLocation {
  const lines = text.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `${needle} in source`);
  return { file, line: i + 1, column: lines[i]!.indexOf(needle) + 1 };
}

/** The one diagnostic at `location`; its formatted form starts with `file:line:col: `. */
function diagnosticAt(err: CodegenError, location: SourceLocation): Diagnostic {
  const found = err.diagnostics.filter((d) => d.location?.file === location.file && d.location.line === location.line && d.location.column === location.column);
  assert.equal(found.length, 1, `one diagnostic at ${JSON.stringify(location)} in:\n${err.message}`);
  assert.match(err.message, new RegExp(`^${location.file.replaceAll('.', '\\.')}:${location.line}:${location.column}: `, 'm'));
  return found[0]!;
}

function specOf(model: ApiModel): JSONSchemaProps {
  const kind = model.groups.find((g) => g.name === 'f.example.com')!.versions[0]!.kinds[0]!;
  return kind.schema.properties!['spec']!;
}

describe('types with no structural schema are errors naming the field', () => {
  const body = [
    '  objects?: A | B;',
    '  mixed?: string | boolean;',
    '  required: string | undefined;',
    '  anything?: unknown;',
    '  someObject?: object;',
    '  numOrStr?: number | string;',
    '  anyItems?: unknown[];',
    '  values?: Record<string, A | B>;',
  ].join('\n');
  const recursive = [
    'export interface Tree {\n  name?: string;\n  children?: Tree[];\n}',
    '/** @genclient */\nexport interface Forest extends TypeMeta {\n  metadata?: ObjectMeta;\n  tree?: Tree;\n}',
  ].join('\n');
  const extra = ['export interface A {\n  a?: string;\n}', 'export interface B {\n  b?: int32;\n}', '/** Either. */\nexport type AOrB = A | B;', recursive].join('\n');
  const source = widget(body, extra);
  let err: CodegenError;
  const errors = (): CodegenError => (err ??= errorsOf({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source }));

  const rows: readonly { name: string; needle: string; message: RegExp }[] = [
    {
      name: 'a union of object types',
      needle: 'objects?:',
      message: /property objects: "A \| B" has no structural schema: a union of object types .*declare one object with an optional field per alternative.*@preserveUnknownFields.*@schemaless/,
    },
    { name: 'string | boolean', needle: 'mixed?:', message: /property mixed: "string \| boolean" has no structural schema: a field of a structural schema has exactly one type/ },
    { name: 'T | undefined where a value is required', needle: 'required:', message: /property required: "string \| undefined" allows undefined where a value is required .*name\?: T.*T \| null/ },
    { name: 'unknown', needle: 'anything?:', message: /property anything: type "unknown" has no schema.*@preserveUnknownFields.*@schemaless/ },
    { name: 'object', needle: 'someObject?:', message: /property someObject: type "object" has no schema.*RawExtension/ },
    { name: 'number | string without @intOrString', needle: 'numOrStr?:', message: /property numOrStr: "number \| string" is an int-or-string only for integers: use IntOrString .*@intOrString/ },
    { name: 'unknown items', needle: 'anyItems?:', message: /property anyItems: type "unknown" has no schema/ },
    { name: 'a union in map values', needle: 'values?:', message: /property values: "A \| B" has no structural schema/ },
    { name: 'a union in a type alias', needle: 'export type AOrB', message: /type AOrB: "A \| B" has no structural schema/ },
  ];
  for (const row of rows) {
    test(`${row.name} fails at the declaration`, () => {
      assert.match(diagnosticAt(errors(), at(source, row.needle)).message, row.message);
    });
  }

  test('every bad declaration is reported in one run', () => {
    assert.equal(errors().diagnostics.length, rows.length, errors().message);
  });

  // Recursion shows when a kind's schema is inlined, after the declarations are all valid.
  test('a recursive type reached by a kind fails at the property that refers back', () => {
    const src = widget('  name?: string;', recursive);
    const e = errorsOf({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: src });
    const message = /property children: type Tree refers to itself \(kind Forest at tree\.children\[\]\), and a structural schema cannot be recursive: .*@preserveUnknownFields/;
    assert.match(diagnosticAt(e, at(src, 'children?:')).message, message);
    assert.equal(e.diagnostics.length, 1, e.message);
  });
});

describe('what kube can represent is generated faithfully', () => {
  const body = [
    "  policy?: 'Allow' | 'Deny';",
    '  maybe?: string | null;',
    '  optional?: string | undefined;',
    '  port?: IntOrString;',
    '  /** @intOrString */\n  marked?: number | string;',
    '  labels?: Record<string, string>;',
    '  /** @preserveUnknownFields */\n  objects?: A | B;',
    '  /** @preserveUnknownFields */\n  anything?: unknown;',
    '  /** @schemaless */\n  raw?: A;',
    '  /** @preserveUnknownFields */\n  someObject?: object;',
    '  /** @preserveUnknownFields */\n  anyItems?: unknown[];',
    '  tree?: Tree;',
    '  either?: AOrB;',
  ].join('\n');
  const extra = [
    'export interface A {\n  a?: string;\n}',
    'export interface B {\n  b?: int32;\n}',
    '/**\n * Either.\n *\n * @preserveUnknownFields\n */\nexport type AOrB = A | B;',
    'export interface Tree {\n  name?: string;\n  /** @preserveUnknownFields */\n  children?: Tree[];\n}',
  ].join('\n');
  let spec: JSONSchemaProps;
  const field = (name: string): JSONSchemaProps => {
    spec ??= specOf(parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget(body, extra) }));
    const f = spec.properties![name];
    assert.ok(f, `spec.${name} in ${JSON.stringify(spec)}`);
    return f;
  };
  const preserve = { 'x-kubernetes-preserve-unknown-fields': true };

  test('a string-literal union is an enum', () => assert.deepEqual(field('policy'), { type: 'string', enum: ['Allow', 'Deny'] }));
  test('T | null is nullable', () => assert.deepEqual(field('maybe'), { type: 'string', nullable: true }));
  test('T | undefined on an optional property is the optional T', () => assert.deepEqual(field('optional'), { type: 'string' }));
  test('IntOrString and @intOrString are x-kubernetes-int-or-string', () => {
    assert.equal(field('port')['x-kubernetes-int-or-string'], true);
    assert.deepEqual(field('marked'), { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
  });
  test('Record<string, T> is additionalProperties', () => assert.deepEqual(field('labels'), { type: 'object', additionalProperties: { type: 'string' } }));
  test('@preserveUnknownFields on a union of objects keeps any value', () => assert.deepEqual(field('objects'), preserve));
  test('@preserveUnknownFields on unknown keeps any value', () => assert.deepEqual(field('anything'), preserve));
  test('@schemaless emits no schema for the field', () => assert.deepEqual(field('raw'), preserve));
  test('@preserveUnknownFields on object is an object keeping its fields', () => assert.deepEqual(field('someObject'), { type: 'object', ...preserve }));
  test('@preserveUnknownFields on a list applies to its items', () => assert.deepEqual(field('anyItems'), { type: 'array', items: preserve }));
  test('@preserveUnknownFields on an alias opts in where it is used', () => assert.deepEqual(field('either'), { ...preserve, description: 'Either.' }));
  test('a recursive field opted in stops the structural schema there, keeping any value', () => {
    const children = field('tree').properties!['children']!;
    assert.deepEqual(children, { type: 'array', items: { type: 'object', ...preserve } });
  });
});

describe('@default is validated against its field, as kube validates CRD defaults', () => {
  const bad = [
    '  /** @default "x" */\n  count?: int32;',
    '  /**\n   * @enum A;B\n   * @default C\n   */\n  mode?: string;',
    "  /** @default Maybe */\n  policy?: 'Allow' | 'Deny';",
    '  /**\n   * @pattern ^[a-z]+$\n   * @default ABC\n   */\n  name?: string;',
    '  /**\n   * @minimum 1\n   * @maximum 10\n   * @default 11\n   */\n  size?: int32;',
    '  /**\n   * @format date-time\n   * @default yesterday\n   */\n  when?: string;',
    '  /**\n   * @validation rule="self.startsWith(\'a\')" message="must start with a"\n   * @default b\n   */\n  prefixed?: string;',
    '  /** @default {"a":"x","extra":1} */\n  inner?: A;',
    '  /** @default {} */\n  needs?: R;',
    '  /** @default "AB" */\n  code?: Code;',
  ].join('\n');
  const extra = ['export interface A {\n  a?: string;\n}', 'export interface R {\n  r: string;\n}', '/**\n * @minLength 3\n * @default ab\n */\nexport type Code = string;'].join('\n');
  const source = widget(bad, extra);
  let err: CodegenError;
  const errors = (): CodegenError => (err ??= errorsOf({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source }));
  const rows: readonly { name: string; needle: string; message: RegExp }[] = [
    { name: 'of the wrong type', needle: '@default "x"', message: /^marker @default: "x" is not a valid value of property count: default: Invalid value: .*must be of type integer/ },
    { name: 'outside @enum', needle: '@default C', message: /^marker @default: "C" is not a valid value of property mode: default: Unsupported value: "C": supported values: "A", "B"/ },
    { name: 'outside a literal union', needle: '@default Maybe', message: /^marker @default: "Maybe" is not a valid value of property policy: default: Unsupported value: "Maybe"/ },
    { name: 'failing @pattern', needle: '@default ABC', message: /^marker @default: "ABC" is not a valid value of property name: default: Invalid value: "ABC": .*should match '\^\[a-z\]\+\$'/ },
    { name: 'above @maximum', needle: '@default 11', message: /^marker @default: 11 is not a valid value of property size: default: Invalid value: 11: .*less than or equal to 10/ },
    { name: 'failing @format', needle: '@default yesterday', message: /^marker @default: "yesterday" is not a valid value of property when: default: Invalid value: "yesterday": .*date-time/ },
    { name: 'failing its CEL rule', needle: '@default b', message: /^marker @default: "b" is not a valid value of property prefixed: default: Invalid value: "string": must start with a/ },
    {
      name: 'with unknown fields',
      needle: '@default {"a"',
      message: /^marker @default: \{"a":"x","extra":1\} is not a valid value of property inner: default: Invalid value: .*must not have unknown fields/,
    },
    { name: 'missing a required field', needle: '@default {}', message: /^marker @default: \{\} is not a valid value of property needs: default\.r: Required value/ },
    {
      name: 'failing the constraints of its type',
      needle: '@default "AB"',
      message: /^marker @default: "AB" is not a valid value of property code: default: Invalid value: "AB": .*at least 3 chars long/,
    },
    { name: 'on a type alias, failing its own constraints', needle: '@default ab', message: /^marker @default: "ab" is not a valid value of type Code: default: Invalid value: "ab"/ },
  ];
  for (const row of rows) {
    test(`a default ${row.name} fails at its marker`, () => {
      assert.match(diagnosticAt(errors(), at(source, row.needle)).message, row.message);
    });
  }
  test('nothing else is reported', () => assert.equal(errors().diagnostics.length, rows.length, errors().message));

  test('valid defaults pass and are published', () => {
    const good = [
      '  /** @default 3 */\n  count?: int32;',
      '  /**\n   * @enum A;B\n   * @default B\n   */\n  mode?: string;',
      '  /**\n   * @pattern ^[a-z]+$\n   * @validation rule="self.startsWith(\'a\')"\n   * @default abc\n   */\n  name?: string;',
      '  /** @default {"a":"x"} */\n  inner?: A;',
      '  /** @default {"r":"y"} */\n  needs?: R;',
    ].join('\n');
    const spec = specOf(parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget(good, 'export interface A {\n  a?: string;\n}\nexport interface R {\n  r: string;\n}\n') }));
    assert.deepEqual(
      ['count', 'mode', 'name', 'inner', 'needs'].map((f) => spec.properties![f]!.default),
      [3, 'B', 'abc', { a: 'x' }, { r: 'y' }],
    );
  });
});

describe('CEL rules compile where they are written, on every declared type', () => {
  const source = `${IMPORT}
export interface Inner {
  size?: int32;
}

export interface WidgetSpec {
  /** @validation rule="self.size > 0" */
  inner?: Inner;
}

/**
 * @genclient
 * @validation rule="self.metadata.name.startsWith('w')"
 * @validation rule="self.spec.nope == 1"
 */
export interface Widget extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}

/** A type no kind uses. */
export interface Orphan {
  /** @validation rule="self.missing > 0" */
  inner?: Inner;
  /** @validation rule="true" messageExpression="1" */
  other?: string;
}

/** @validation rule="self.size() > 'a'" */
export type Name = string;
`;
  let err: CodegenError;
  const errors = (): CodegenError => (err ??= errorsOf({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source }));
  const rows: readonly { name: string; needle: string; message: RegExp }[] = [
    {
      name: 'on a kind, at the kind marker',
      needle: '@validation rule="self.spec.nope',
      message: /^marker @validation: CEL rule "self\.spec\.nope == 1" \(on kind Widget\) does not compile: ERROR: <input>:1:10: undefined field 'nope'\n \| self\.spec\.nope == 1\n \| \.{9}\^$/,
    },
    {
      name: 'on a type no kind references',
      needle: '@validation rule="self.missing',
      message: /^marker @validation: CEL rule "self\.missing > 0" \(on property inner\) does not compile: ERROR: <input>:1:5: undefined field 'missing'\n/,
    },
    {
      name: 'a messageExpression that is not a string',
      needle: 'messageExpression="1"',
      message: /^marker @validation: CEL messageExpression "1" \(on property other\) does not compile: must evaluate to string/,
    },
    {
      name: 'on a type alias',
      needle: '@validation rule="self.size() > \'a\'"',
      message: /^marker @validation: CEL rule "self\.size\(\) > 'a'" \(on type Name\) does not compile: ERROR: <input>:1:13: found no matching overload for '_>_' applied to '\(int, string\)'\n/,
    },
  ];
  for (const row of rows) {
    test(`a rule that does not compile ${row.name} fails at its marker`, () => {
      const loc = at(source, row.needle);
      assert.match(diagnosticAt(errors(), { ...loc, column: source.split('\n')[loc.line - 1]!.indexOf('@validation') + 1 }).message, row.message);
    });
  }
  test('rules that compile (on a referenced type, on the resource root) are not reported', () => {
    assert.equal(errors().diagnostics.length, rows.length, errors().message);
  });
});

describe('a conversion must have toHub and fromHub', () => {
  const versions = (conversion: string): Record<string, string> => ({
    [`${GROUP}/v1/doc.ts`]: '/**\n * @groupName f.example.com\n * @storageVersion\n */\nexport {};\n',
    [TYPES]: widget('  size?: int32;'),
    [`${GROUP}/v1/conversion.ts`]: conversion,
    [`${GROUP}/v2/doc.ts`]: '/**\n * @groupName f.example.com\n * @hub\n */\nexport {};\n',
    [`${GROUP}/v2/types.ts`]: widget('  replicas?: int32;'),
  });
  const CONVERSION = `${GROUP}/v1/conversion.ts`;

  test('a conversion without fromHub fails at its declaration', () => {
    const text =
      "import type * as hub from '../v2/types.js';\nimport type { Widget } from './types.js';\n\nexport const WidgetConversion = {\n  toHub(from: Widget): hub.Widget {\n    return { ...from, apiVersion: 'f.example.com/v2' };\n  },\n};\n";
    const e = errorsOf(versions(text));
    assert.match(diagnosticAt(e, at(text, 'WidgetConversion', CONVERSION)).message, /^WidgetConversion has no fromHub: a conversion needs toHub .* and fromHub/);
    assert.equal(e.diagnostics.length, 1, e.message);
  });

  test('a conversion without either fails naming both', () => {
    const text = 'export const WidgetConversion = {};\n';
    assert.match(diagnosticAt(errorsOf(versions(text)), at(text, 'WidgetConversion', CONVERSION)).message, /^WidgetConversion has no toHub and no fromHub/);
  });

  test('a conversion that is not an object fails', () => {
    const text = 'export function WidgetConversion(): void {}\n';
    assert.match(diagnosticAt(errorsOf(versions(text)), at(text, 'export function', CONVERSION)).message, /^WidgetConversion must be an object \{ toHub\(from\), fromHub\(hub\) \}/);
  });

  test('a complete conversion (methods, satisfies) passes', () => {
    const text =
      "import type * as hub from '../v2/types.js';\nimport type { Widget } from './types.js';\n\nexport const WidgetConversion = {\n  toHub(from: Widget): hub.Widget {\n    return { ...from, apiVersion: 'f.example.com/v2' };\n  },\n  fromHub: (from: hub.Widget): Widget => ({ ...from, apiVersion: 'f.example.com/v1' }),\n} satisfies object;\n";
    const model = parse(versions(text));
    const v1 = model.groups.find((g) => g.name === 'f.example.com')!.versions.find((v) => v.name === 'v1')!;
    assert.deepEqual(v1.kinds[0]!.hooks.conversion, { module: CONVERSION.replace(/\.ts$/, ''), name: 'WidgetConversion' });
  });

  test('the command line prints file:line:col: message and generates nothing', () => {
    const text = 'export const WidgetConversion = { toHub: (x: unknown) => x };\n';
    for (const [path, content] of Object.entries(versions(text))) project.write(path, content);
    const loc = at(text, 'WidgetConversion', CONVERSION);
    assert.match(codegenErrors(project), new RegExp(`^${CONVERSION.replaceAll('.', '\\.')}:${loc.line}:${loc.column}: WidgetConversion has no fromHub`, 'm'));
  });
});

describe('@validatedByStrategy: constraints published in the OpenAPI, enforced by the strategy', () => {
  test("the definition keeps them, the kind's validation schema leaves them out", () => {
    const body = [
      '  /**\n   * @listType map\n   * @listMapKey port\n   * @listMapKey protocol\n   * @validatedByStrategy\n   */\n  ports?: Port[];',
      '  /**\n   * @listType map\n   * @listMapKey port\n   */\n  checked?: Port[];',
    ].join('\n');
    const extra = 'export interface Port {\n  port: int32;\n  /**\n   * @default TCP\n   * @enum SCTP;TCP;UDP\n   * @validatedByStrategy\n   */\n  protocol?: string;\n}\n';
    const model = parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: widget(body, extra) });
    const published = model.definitions['com.example.f.v1.WidgetSpec']!.properties!;
    assert.deepEqual([published['ports']!['x-kubernetes-list-type'], published['ports']!['x-kubernetes-list-map-keys']], ['map', ['port', 'protocol']]);
    assert.deepEqual(model.definitions['com.example.f.v1.Port']!.properties!['protocol']!.enum, ['SCTP', 'TCP', 'UDP']);
    const spec = specOf(model).properties!;
    assert.equal(spec['ports']!['x-kubernetes-list-type'], undefined, JSON.stringify(spec['ports']));
    assert.equal(spec['ports']!['x-kubernetes-list-map-keys'], undefined);
    const items = spec['ports']!.items as JSONSchemaProps;
    assert.deepEqual(items.properties!['protocol'], { type: 'string', default: 'TCP' });
    assert.equal(spec['checked']!['x-kubernetes-list-type'], 'map', 'without the marker the schema validates');
  });
});
