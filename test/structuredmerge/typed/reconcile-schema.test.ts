// Port of structured-merge-diff typed/reconcile_schema_test.go: field sets recorded before a schema change.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser, reconcileFieldSetWithSchema } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { _KBF, _NS, _P, _V } from '../fixture/index.js';

interface ReconcileTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly oldSchema: string;
  readonly newSchema: string;
  readonly liveObject: string;
  readonly oldFields: Set;
  // undefined: no change.
  readonly fixedFields: Set | undefined;
}

/** SMD's granularSchema and atomicSchema: the same types, with struct, list, objectList and stringMap atomic in the second. */
function testSchema(version: string, atomic: boolean): string {
  return `types:
- name: ${version}
  map:
    fields:
      - name: struct
        type:
          namedType: struct
      - name: list
        type:
          namedType: list
      - name: objectList
        type:
          namedType: objectList
      - name: stringMap
        type:
          namedType: stringMap
      - name: unchanged
        type:
          namedType: unchanged
- name: struct
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
${atomic ? '    elementRelationship: atomic\n' : ''}- name: list
  list:
    elementType:
      scalar: string
    elementRelationship: ${atomic ? 'atomic' : 'associative'}
- name: objectList
  list:
    elementType:
      namedType: listItem
${atomic ? '    elementRelationship: atomic\n' : '    elementRelationship: associative\n    keys:\n      - keyA\n      - keyB\n'}- name: listItem
  map:
    fields:
    - name: keyA
      type:
        scalar: string
    - name: keyB
      type:
        scalar: string
    - name: value
      type:
        scalar: string
- name: stringMap
  map:
    elementType:
      scalar: string
${atomic ? '    elementRelationship: atomic\n' : ''}- name: unchanged
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
- name: empty
  map:
    elementType:
      scalar: untyped
      list:
        elementType:
          namedType: __untyped_atomic_
        elementRelationship: atomic
      map:
        elementType:
          namedType: __untyped_deduced_
        elementRelationship: separable
- name: emptyWithPreserveUnknown
  map:
    fields:
    - name: preserveField
      type:
        map:
          elementType:
            scalar: untyped
            list:
              elementType:
                namedType: __untyped_atomic_
              elementRelationship: atomic
            map:
              elementType:
                namedType: __untyped_deduced_
              elementRelationship: separable
- name: populatedWithPreserveUnknown
  map:
    fields:
    - name: preserveField
      type:
        map:
          fields:
          - name: list
            type:
              namedType: list
          elementType:
            namedType: __untyped_deduced_
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
`;
}

const granularSchema = (version: string): string => testSchema(version, false);
const atomicSchema = (version: string): string => testSchema(version, true);

const basicLiveObject = `
struct:
  numeric: 1
  string: "two"
list:
  - one
  - two
objectList:
  - keyA: a1
    keyB: b1
    value: v1
  - keyA: a2
    keyB: b2
    value: v2
stringMap:
  key1: value1
unchanged:
  numeric: 10
`;

const reconcileCases: ReconcileTestCase[] = [
  {
    name: 'granular-to-atomic',
    rootTypeName: 'v1',
    oldSchema: granularSchema('v1'),
    newSchema: atomicSchema('v1'),
    liveObject: basicLiveObject,
    oldFields: _NS(_P('struct', 'numeric'), _P('list', _V('one')), _P('stringMap', 'key1'), _P('objectList', _KBF('keyA', 'a1', 'keyB', 'b1'), 'value'), _P('unchanged', 'numeric')),
    fixedFields: _NS(_P('struct'), _P('list'), _P('objectList'), _P('stringMap'), _P('unchanged', 'numeric')),
  },
  {
    name: 'no-change-granular',
    rootTypeName: 'v1',
    oldSchema: granularSchema('v1'),
    newSchema: granularSchema('v1'),
    liveObject: basicLiveObject,
    oldFields: _NS(_P('struct', 'numeric'), _P('list', _V('one')), _P('objectList', _KBF('keyA', 'a1', 'keyB', 'b1'), 'value'), _P('stringMap', 'key1'), _P('unchanged', 'numeric')),
    fixedFields: undefined,
  },
  {
    name: 'no-change-atomic',
    rootTypeName: 'v1',
    oldSchema: atomicSchema('v1'),
    newSchema: atomicSchema('v1'),
    liveObject: basicLiveObject,
    oldFields: _NS(_P('struct'), _P('list'), _P('objectList'), _P('unchanged', 'numeric')),
    fixedFields: undefined,
  },
  {
    name: 'no-change-empty-granular',
    rootTypeName: 'v1',
    oldSchema: granularSchema('v1'),
    newSchema: granularSchema('v1'),
    liveObject: `
struct: {}
list: []
objectList:
  - keyA: a1
    keyB: b1
stringMap: {}
unchanged: {}
`,
    oldFields: _NS(_P('struct'), _P('list'), _P('objectList'), _P('objectList', _KBF('keyA', 'a1', 'keyB', 'b1')), _P('objectList', _KBF('keyA', 'a1', 'keyB', 'b1'), 'value'), _P('unchanged')),
    fixedFields: undefined,
  },
  {
    name: 'deduced',
    rootTypeName: 'empty',
    oldSchema: atomicSchema('v1'),
    newSchema: granularSchema('v1'),
    liveObject: basicLiveObject,
    oldFields: _NS(_P('struct'), _P('list'), _P('objectList'), _P('unchanged', 'numeric')),
    fixedFields: undefined,
  },
  {
    name: 'empty-preserve-unknown',
    rootTypeName: 'emptyWithPreserveUnknown',
    oldSchema: atomicSchema('v1'),
    newSchema: granularSchema('v1'),
    liveObject: `
preserveField:
  arbitrary: abc
`,
    oldFields: _NS(_P('preserveField'), _P('preserveField', 'arbitrary')),
    fixedFields: undefined,
  },
  {
    name: 'populated-preserve-unknown',
    rootTypeName: 'populatedWithPreserveUnknown',
    oldSchema: granularSchema('v1'),
    newSchema: atomicSchema('v1'),
    liveObject: `
preserveField:
  arbitrary: abc
  list:
  - one
`,
    oldFields: _NS(_P('preserveField'), _P('preserveField', 'arbitrary'), _P('preserveField', 'list'), _P('preserveField', 'list', _V('one'))),
    fixedFields: _NS(_P('preserveField'), _P('preserveField', 'arbitrary'), _P('preserveField', 'list')),
  },
];

describe('TestReconcileFieldSetWithSchema', () => {
  for (const tt of reconcileCases) {
    test(tt.name, () => {
      const liveObject = Parser.fromYAML(tt.newSchema).type(tt.rootTypeName).fromYAML(tt.liveObject);
      const fixed = reconcileFieldSetWithSchema(tt.oldFields, liveObject);
      if (tt.fixedFields === undefined) {
        assert.equal(fixed, undefined, `expected no change but got\n${fixed?.toString() ?? ''}`);
        return;
      }
      assert.ok(fixed !== undefined, `expected fieldset to be\n${tt.fixedFields.toString()}\nbut got none`);
      assert.ok(fixed.equals(tt.fixedFields), `expected fieldset:\n${tt.fixedFields.toString()}\nbut got\n${fixed.toString()}`);
    });
  }
});
