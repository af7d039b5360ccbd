import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { protobufPackage } from '../../generator/emit/protobuf.js';
import type { ApiModel, GroupModel, VersionModel } from '../../generator/model/types.js';
import { scratchProject } from './harness.js';
import { scratchParser } from './scratch-parse.js';

// Named lists (`export type ExtraValue = string[]`, Go's `type ExtraValue []string`): the parser
// makes them messages `{ repeated <element> items = 1; }` of the declaring version, as
// go-to-protobuf does, while the JSON schema stays the plain array (kube's OpenAPI for `extra` is
// `additionalProperties: {type: array, items: {type: string}}`, with no ExtraValue definition).

const project = scratchProject({ withApis: false });
after(() => project.dispose());
const GROUP = 'apis/t';
const TYPES = `${GROUP}/v1/types.ts`;
const DOC = '/**\n * @groupName t.example.com\n */\nexport {};\n';
const { parse, errorsOf } = scratchParser(project, GROUP);

/** A kind Review whose spec is ReviewSpec with `specBody`; `extra` declarations before it. */
function review(specBody: string, extra: string): string {
  return `import type { ObjectMeta, TypeMeta } from '../../meta/v1/types.js';
${extra}
export interface ReviewSpec {
${specBody}
}

/**
 * A review.
 *
 * @genclient
 */
export interface Review extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /** @protobuf 2 */
  spec?: ReviewSpec;
}
`;
}

const EXTRA_VALUE = '/**\n * ExtraValue masks the value so protobuf can generate.\n */\nexport type ExtraValue = string[];\n';

function groupOf(model: ApiModel): { group: GroupModel; version: VersionModel } {
  const group = model.groups.find((g) => g.name === 't.example.com');
  assert.ok(group);
  return { group, version: group.versions[0]! };
}

describe('named lists in the protobuf model', () => {
  test('a named list is a message of one repeated field, usable as a map value, a list element and a field', () => {
    const source = review(
      ['  /** @protobuf 1 */\n  extra?: Record<string, ExtraValue>;', '  /** @protobuf 2 */\n  lists?: ExtraValue[];', '  /** @protobuf 3 */\n  one?: ExtraValue;'].join('\n'),
      EXTRA_VALUE,
    );
    const model = parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source });
    const { group, version } = groupOf(model);
    const pkg = protobufPackage(group, version);
    const listName = `${version.openapiPackage}.ExtraValue`;
    assert.deepEqual(
      pkg.messages.find((m) => m.name === listName),
      { name: listName, namedList: true, fields: [{ name: 'items', number: 1, type: 'string', cardinality: 'repeated' }] },
    );
    const spec = pkg.messages.find((m) => m.name.endsWith('.ReviewSpec'));
    assert.deepEqual(spec?.fields, [
      { name: 'extra', number: 1, type: 'message', message: listName, cardinality: 'map', omitEmpty: true },
      { name: 'lists', number: 2, type: 'message', message: listName, cardinality: 'repeated', omitEmpty: true },
      { name: 'one', number: 3, type: 'message', message: listName, omitEmpty: true },
    ]);
  });

  test('the JSON schema of a named list is its array, inlined without a definition of its own', () => {
    const model = parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: review('  /** @protobuf 1 */\n  extra?: Record<string, ExtraValue>;', EXTRA_VALUE) });
    assert.deepEqual(
      Object.keys(model.definitions).filter((d) => d.endsWith('.ExtraValue')),
      [],
    );
    const spec = Object.entries(model.definitions).find(([name]) => name.endsWith('.ReviewSpec'))?.[1];
    assert.deepEqual(spec?.properties?.['extra']?.additionalProperties, { type: 'array', items: { type: 'string' } });
  });

  test('a named list of messages and a list of named lists', () => {
    const parts = 'export interface Part {\n  /** @protobuf 1 */\n  name?: string;\n}\nexport type Parts = Part[];\nexport type Table = ReadonlyArray<Parts>;\n';
    const model = parse({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: review('  /** @protobuf 1 */\n  table?: Table;', parts) });
    const { group, version } = groupOf(model);
    const byName = new Map(protobufPackage(group, version).messages.map((m) => [m.name.slice(m.name.lastIndexOf('.') + 1), m]));
    assert.deepEqual(byName.get('Parts')?.fields, [{ name: 'items', number: 1, type: 'message', message: byName.get('Part')!.name, cardinality: 'repeated' }]);
    assert.deepEqual(byName.get('Table')?.fields, [{ name: 'items', number: 1, type: 'message', message: byName.get('Parts')!.name, cardinality: 'repeated' }]);
  });
});

describe('named lists without a protobuf form', () => {
  const rows: readonly { name: string; extra: string; field: string; message: RegExp }[] = [
    {
      name: 'a list of lists',
      extra: 'export type Grid = string[][];\n',
      field: 'grid?: Grid',
      message: /^apis\/t\/v1\/types\.ts:\d+: marker @protobuf: field grid: Grid: nested lists and maps have no protobuf form: name the inner list/m,
    },
    {
      name: 'a list of plain numbers',
      extra: 'export type Sizes = number[];\n',
      field: 'sizes?: Record<string, Sizes>',
      message: /^apis\/t\/v1\/types\.ts:\d+: marker @protobuf: field sizes: Sizes: a plain number has no protobuf type: use int32 or int64 from apis\/meta\/v1$/m,
    },
    {
      name: 'a map of lists written inline',
      extra: '',
      field: 'extra?: Record<string, string[]>',
      message: /^apis\/t\/v1\/types\.ts:\d+: marker @protobuf: field extra: nested lists and maps have no protobuf form/m,
    },
  ];
  for (const row of rows) {
    test(`error: ${row.name}`, () => {
      const source = review(`  /** @protobuf 1 */\n  ${row.field};`, row.extra);
      const err = errorsOf({ [`${GROUP}/v1/doc.ts`]: DOC, [TYPES]: source });
      assert.match(err.message, row.message);
      const line = source.split('\n').findIndex((l) => l.includes(row.field.split('?')[0]!)) + 1;
      assert.match(err.message, new RegExp(`types\\.ts:${line - 1}: |types\\.ts:${line}: `));
    });
  }
});
