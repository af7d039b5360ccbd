// Ported from sigs.k8s.io/structured-merge-diff merge/schema_change_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, ChangeParser, ForceApply, runTable, managedFields, _NS, _P, _KBF } from '../fixture/index.js';

const structParser = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: struct
        type:
          namedType: struct
- name: struct
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string`);

const structWithAtomicParser = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: struct
        type:
          namedType: struct
- name: struct
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
    elementRelationship: atomic`);

const testGranularToAtomicSchemaChanges: Record<string, TestCase> = {
  'to-atomic': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						struct:
						  numeric: 1
					`,
        apiVersion: 'v1',
      }),
      new ChangeParser({ parser: structWithAtomicParser }),
      new Apply({
        manager: 'two',
        object: `
						struct:
						  string: "string"
					`,
        apiVersion: 'v1',
        conflicts: [new Conflict('one', _P('struct'))],
      }),
      new ForceApply({
        manager: 'two',
        object: `
						struct:
						  string: "string"
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
				  string: "string"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      two: new VersionedSet(_NS(_P('struct')), 'v1', true),
    }),
  },
  'to-atomic-owner-with-no-child-fields': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						struct:
						  numeric: 1
					`,
        apiVersion: 'v1',
      }),
      new ForceApply({
        // take the only child field from manager "one"
        manager: 'two',
        object: `
						struct:
						  numeric: 2
					`,
        apiVersion: 'v1',
      }),
      new ChangeParser({ parser: structWithAtomicParser }),
      new Apply({
        manager: 'three',
        object: `
						struct:
						  string: "string"
					`,
        apiVersion: 'v1',
        conflicts: [
          // We expect no conflict with "one" because we do not allow a manager
          // to own a map without owning any of the children.
          new Conflict('two', _P('struct')),
        ],
      }),
      new ForceApply({
        manager: 'two',
        object: `
						struct:
						  string: "string"
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
				  string: "string"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      two: new VersionedSet(_NS(_P('struct')), 'v1', true),
    }),
  },
};

describe('TestGranularToAtomicSchemaChanges', () => runTable(testGranularToAtomicSchemaChanges, structParser));

const testAtomicToGranularSchemaChanges: Record<string, TestCase> = {
  'to-granular': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						struct:
						  numeric: 1
						  string: "a"
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'two',
        object: `
						struct:
						  string: "b"
					`,
        apiVersion: 'v1',
        conflicts: [new Conflict('one', _P('struct'))],
      }),
      new ChangeParser({ parser: structParser }),
      // No conflict after changing struct to a granular schema
      new Apply({
        manager: 'two',
        object: `
						struct:
						  string: "b"
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
				  numeric: 1
				  string: "b"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      // Note that manager one previously owned
      // the top level _P("struct")
      // which included all of its subfields
      // when the struct field was atomic.
      //
      // Upon changing the schema of struct from
      // atomic to granular, manager one continues
      // to own the same fieldset as before,
      // but does not retain ownership of any of the subfields.
      //
      // This is a known limitation due to the inability
      // to accurately determine whether an empty field
      // was previously atomic or not.
      one: new VersionedSet(_NS(_P('struct')), 'v1', true),
      two: new VersionedSet(_NS(_P('struct', 'string')), 'v1', true),
    }),
  },
};

describe('TestAtomicToGranularSchemaChanges', () => runTable(testAtomicToGranularSchemaChanges, structWithAtomicParser));

const associativeListParserOld = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: value
      type:
        scalar: numeric
`);

const associativeListParserNewOptionalKey = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
    - id
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: id
      type:
        scalar: numeric
    - name: value
      type:
        scalar: numeric
`);

const associativeListParserNewKeyWithDefault = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
    - id
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: id
      type:
        scalar: numeric
      default: 1
    - name: value
      type:
        scalar: numeric
`);

const testAssociativeListSchemaChanges: Record<string, TestCase> = {
  'new required key with default': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  value: 1
						- name: b
						  value: 1
						- name: c
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new ChangeParser({ parser: associativeListParserNewKeyWithDefault }),
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  value: 2
						- name: b
						  id: 1
						  value: 2
						- name: c
						  value: 1
						- name: c
						  id: 2
						  value: 2
						- name: c
						  id: 3
						  value: 3
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- name: a
				  value: 2
				- name: b
				  id: 1
				  value: 2
				- name: c
				  value: 1
				- name: c
				  id: 2
				  value: 2
				- name: c
				  id: 3
				  value: 3
			`,
    apiVersion: 'v1',
    managed: managedFields({
      one: new VersionedSet(
        _NS(
          _P('list', _KBF('name', 'a', 'id', 1)),
          _P('list', _KBF('name', 'a', 'id', 1), 'name'),
          _P('list', _KBF('name', 'a', 'id', 1), 'value'),
          _P('list', _KBF('name', 'b', 'id', 1)),
          _P('list', _KBF('name', 'b', 'id', 1), 'name'),
          _P('list', _KBF('name', 'b', 'id', 1), 'id'),
          _P('list', _KBF('name', 'b', 'id', 1), 'value'),
          _P('list', _KBF('name', 'c', 'id', 1)),
          _P('list', _KBF('name', 'c', 'id', 1), 'name'),
          _P('list', _KBF('name', 'c', 'id', 1), 'value'),
          _P('list', _KBF('name', 'c', 'id', 2)),
          _P('list', _KBF('name', 'c', 'id', 2), 'name'),
          _P('list', _KBF('name', 'c', 'id', 2), 'id'),
          _P('list', _KBF('name', 'c', 'id', 2), 'value'),
          _P('list', _KBF('name', 'c', 'id', 3)),
          _P('list', _KBF('name', 'c', 'id', 3), 'name'),
          _P('list', _KBF('name', 'c', 'id', 3), 'id'),
          _P('list', _KBF('name', 'c', 'id', 3), 'value'),
        ),
        'v1',
        true,
      ),
    }),
  },
  'new optional key': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new ChangeParser({ parser: associativeListParserNewOptionalKey }),
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  value: 2
						- name: a
						  id: 1
						  value: 1
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- name: a
				  value: 2
				- name: a
				  id: 1
				  value: 1
			`,
    apiVersion: 'v1',
    managed: managedFields({
      one: new VersionedSet(
        _NS(
          _P('list', _KBF('name', 'a')),
          _P('list', _KBF('name', 'a'), 'name'),
          _P('list', _KBF('name', 'a'), 'value'),
          _P('list', _KBF('name', 'a', 'id', 1)),
          _P('list', _KBF('name', 'a', 'id', 1), 'name'),
          _P('list', _KBF('name', 'a', 'id', 1), 'id'),
          _P('list', _KBF('name', 'a', 'id', 1), 'value'),
        ),
        'v1',
        true,
      ),
    }),
  },
};

describe('TestAssociativeListSchemaChanges', () => runTable(testAssociativeListSchemaChanges, associativeListParserOld));

const associativeListParserPromoteKeyBefore = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: id
      type:
        scalar: numeric
    - name: value
      type:
        scalar: numeric
`);

const associativeListParserPromoteKeyAfter = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: list
        type:
          namedType: associativeList
- name: associativeList
  list:
    elementType:
      namedType: myElement
    elementRelationship: associative
    keys:
    - name
    - id
- name: myElement
  map:
    fields:
    - name: name
      type:
        scalar: string
    - name: id
      type:
        scalar: numeric
    - name: value
      type:
        scalar: numeric
`);

const testPromoteFieldToAssociativeListKey: Record<string, TestCase> = {
  'identical item merges': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  id: 1
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new ChangeParser({ parser: associativeListParserPromoteKeyAfter }),
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  id: 1
						  value: 2
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- name: a
				  id: 1
				  value: 2
			`,
    apiVersion: 'v1',
    managed: managedFields({
      one: new VersionedSet(
        _NS(_P('list', _KBF('name', 'a', 'id', 1)), _P('list', _KBF('name', 'a', 'id', 1), 'name'), _P('list', _KBF('name', 'a', 'id', 1), 'id'), _P('list', _KBF('name', 'a', 'id', 1), 'value')),
        'v1',
        true,
      ),
    }),
  },
  'distinct item added': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  id: 1
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new ChangeParser({ parser: associativeListParserPromoteKeyAfter }),
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  id: 1
						  value: 1
						- name: a
						  id: 2
						  value: 2
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- name: a
				  id: 1
				  value: 1
				- name: a
				  id: 2
				  value: 2
			`,
    apiVersion: 'v1',
    managed: managedFields({
      one: new VersionedSet(
        _NS(
          _P('list', _KBF('name', 'a', 'id', 1)),
          _P('list', _KBF('name', 'a', 'id', 1), 'name'),
          _P('list', _KBF('name', 'a', 'id', 1), 'id'),
          _P('list', _KBF('name', 'a', 'id', 1), 'value'),
          _P('list', _KBF('name', 'a', 'id', 2)),
          _P('list', _KBF('name', 'a', 'id', 2), 'name'),
          _P('list', _KBF('name', 'a', 'id', 2), 'id'),
          _P('list', _KBF('name', 'a', 'id', 2), 'value'),
        ),
        'v1',
        true,
      ),
    }),
  },
  'item missing new key field is distinct': {
    ops: [
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new ChangeParser({ parser: associativeListParserPromoteKeyAfter }),
      new Apply({
        manager: 'one',
        object: `
						list:
						- name: a
						  value: 1
						- name: a
						  id: 2
						  value: 2
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				list:
				- name: a
				  value: 1
				- name: a
				  id: 2
				  value: 2
			`,
    apiVersion: 'v1',
    managed: managedFields({
      one: new VersionedSet(
        _NS(
          _P('list', _KBF('name', 'a')),
          _P('list', _KBF('name', 'a'), 'name'),
          _P('list', _KBF('name', 'a'), 'value'),
          _P('list', _KBF('name', 'a', 'id', 2)),
          _P('list', _KBF('name', 'a', 'id', 2), 'name'),
          _P('list', _KBF('name', 'a', 'id', 2), 'id'),
          _P('list', _KBF('name', 'a', 'id', 2), 'value'),
        ),
        'v1',
        true,
      ),
    }),
  },
};

describe('TestPromoteFieldToAssociativeListKey', () => runTable(testPromoteFieldToAssociativeListKey, associativeListParserPromoteKeyBefore));
