// Ported from sigs.k8s.io/structured-merge-diff merge/nested_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { TestCase } from '../fixture/index.js';
import { nestedTypeParser } from './parsers.js';
import { Apply, Update, runTable, managedFields, _NS, _P, _KBF, _V } from '../fixture/index.js';

const testUpdateNestedType: Record<string, TestCase> = {
  listOfLists_change_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						listOfLists:
						- name: a
						  value:
						  - b
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						listOfLists:
						- name: a
						  value:
						  - a
						  - c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				listOfLists:
				- name: a
				  value:
				  - a
				  - c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(
        _NS(
          _P('listOfLists', _KBF('name', 'a')),
          _P('listOfLists', _KBF('name', 'a'), 'name'),
          _P('listOfLists', _KBF('name', 'a'), 'value', _V('a')),
          _P('listOfLists', _KBF('name', 'a'), 'value', _V('c')),
        ),
        'v1',
        false,
      ),
    }),
  },
  listOfLists_change_key_and_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						listOfLists:
						- name: a
						  value:
						  - b
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						listOfLists:
						- name: b
						  value:
						  - a
						  - c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				listOfLists:
				- name: b
				  value:
				  - a
				  - c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(
        _NS(
          _P('listOfLists', _KBF('name', 'b')),
          _P('listOfLists', _KBF('name', 'b'), 'name'),
          _P('listOfLists', _KBF('name', 'b'), 'value', _V('a')),
          _P('listOfLists', _KBF('name', 'b'), 'value', _V('c')),
        ),
        'v1',
        false,
      ),
    }),
  },
  listOfMaps_change_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						listOfMaps:
						- name: a
						  value:
						    b: "x"
						    c: "y"
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						listOfMaps:
						- name: a
						  value:
						    a: "x"
						    c: "z"
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				listOfMaps:
				- name: a
				  value:
				    a: "x"
				    c: "z"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(
        _NS(_P('listOfMaps', _KBF('name', 'a')), _P('listOfMaps', _KBF('name', 'a'), 'name'), _P('listOfMaps', _KBF('name', 'a'), 'value', 'a'), _P('listOfMaps', _KBF('name', 'a'), 'value', 'c')),
        'v1',
        true,
      ),
    }),
  },
  listOfMaps_change_key_and_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						listOfMaps:
						- name: a
						  value:
						    b: "x"
						    c: "y"
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						listOfMaps:
						- name: b
						  value:
						    a: "x"
						    c: "z"
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				listOfMaps:
				- name: b
				  value:
				    a: "x"
				    c: "z"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(
        _NS(_P('listOfMaps', _KBF('name', 'b')), _P('listOfMaps', _KBF('name', 'b'), 'name'), _P('listOfMaps', _KBF('name', 'b'), 'value', 'a'), _P('listOfMaps', _KBF('name', 'b'), 'value', 'c')),
        'v1',
        false,
      ),
    }),
  },
  mapOfLists_change_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						mapOfLists:
						  a:
						  - b
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						mapOfLists:
						  a:
						  - a
						  - c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				mapOfLists:
				  a:
				  - a
				  - c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('mapOfLists', 'a'), _P('mapOfLists', 'a', _V('a')), _P('mapOfLists', 'a', _V('c'))), 'v1', true),
    }),
  },
  mapOfLists_change_key_and_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						mapOfLists:
						  a:
						  - b
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						mapOfLists:
						  b:
						  - a
						  - c
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				mapOfLists:
				  b:
				  - a
				  - c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('mapOfLists', 'b'), _P('mapOfLists', 'b', _V('a')), _P('mapOfLists', 'b', _V('c'))), 'v1', false),
    }),
  },
  mapOfMaps_change_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						mapOfMaps:
						  a:
						    b: "x"
						    c: "y"
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						mapOfMaps:
						  a:
						    a: "x"
						    c: "z"
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				mapOfMaps:
				  a:
				    a: "x"
				    c: "z"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('mapOfMaps', 'a'), _P('mapOfMaps', 'a', 'a'), _P('mapOfMaps', 'a', 'c')), 'v1', false),
    }),
  },
  mapOfMaps_change_key_and_value: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						mapOfMaps:
						  a:
						    b: "x"
						    c: "y"
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						mapOfMaps:
						  b:
						    a: "x"
						    c: "z"
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				mapOfMaps:
				  b:
				    a: "x"
				    c: "z"
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('mapOfMaps', 'b'), _P('mapOfMaps', 'b', 'a'), _P('mapOfMaps', 'b', 'c')), 'v1', false),
    }),
  },
  mapOfMapsRecursive_change_middle_key: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						      c:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						mapOfMapsRecursive:
						  a:
						    d:
						      c:
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				mapOfMapsRecursive:
				  a:
				    d:
				      c:
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'a', 'd'), _P('mapOfMapsRecursive', 'a', 'd', 'c')), 'v1', false),
    }),
  },
  struct_apply_remove_all: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						struct:
						  name: a
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
			`,
    apiVersion: 'v1',
    managed: managedFields({}),
  },
  struct_apply_remove_dangling: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						struct:
						  name: a
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						struct:
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('struct')), 'v1', true),
    }),
  },
  struct_apply_update_remove_all: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						struct:
						  name: a
					`,
        apiVersion: 'v1',
      }),
      new Update({
        manager: 'controller',
        object: `
						struct:
						  name: a
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
				  value: 1
			`,
    apiVersion: 'v1',
  },
  struct_apply_update_dict_dangling: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						struct:
						  name: a
					`,
        apiVersion: 'v1',
      }),
      new Update({
        manager: 'controller',
        object: `
						struct:
						  name: a
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						struct: {}
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
				  value: 1
			`,
    apiVersion: 'v1',
  },
  struct_apply_update_dict_null: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						struct:
						  name: a
					`,
        apiVersion: 'v1',
      }),
      new Update({
        manager: 'controller',
        object: `
						struct:
						  name: a
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						struct:
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
				  value: 1
			`,
    apiVersion: 'v1',
  },
  struct_apply_update_took_over: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						struct:
						  name: a
					`,
        apiVersion: 'v1',
      }),
      new Update({
        manager: 'controller',
        object: `
						struct:
						  name: b
						  value: 1
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						struct:
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				struct:
				  name: b
				  value: 1
			`,
    apiVersion: 'v1',
  },
};

describe('TestUpdateNestedType', () => runTable(testUpdateNestedType, nestedTypeParser));
