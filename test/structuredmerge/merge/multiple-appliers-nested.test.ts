// Ported from sigs.k8s.io/structured-merge-diff merge/multiple_appliers_test.go: TestMultipleAppliersNestedType.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, Update, runTable, managedFields, _NS, _P, _KBF, _V } from '../fixture/index.js';
const testMultipleAppliersNestedType: Record<string, TestCase> = {
  remove_one_keep_one_with_two_sub_items: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
						- name: b
						  value:
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						listOfLists:
						- name: b
						  value:
						  - d
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
					`,
        apiVersion: 'v3',
      }),
    ],
    object: `
				listOfLists:
				- name: a
				- name: b
				  value:
				  - d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false),
      'apply-two': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'b')), _P('listOfLists', _KBF('name', 'b'), 'name'), _P('listOfLists', _KBF('name', 'b'), 'value', _V('d'))), 'v2', false),
    }),
  },
  remove_one_keep_one_with_dangling_subitem: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
						- name: b
						  value:
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						listOfLists:
						- name: b
						  value:
						  - d
					`,
        apiVersion: 'v2',
      }),
      new Update({
        manager: 'controller',
        object: `
						listOfLists:
						- name: a
						- name: b
						  value:
						  - c
						  - d
						  - e
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
					`,
        apiVersion: 'v3',
      }),
    ],
    object: `
				listOfLists:
				- name: a
				- name: b
				  value:
				  - d
				  - e
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false),
      'apply-two': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'b')), _P('listOfLists', _KBF('name', 'b'), 'name'), _P('listOfLists', _KBF('name', 'b'), 'value', _V('d'))), 'v2', false),
      controller: new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'b'), 'value', _V('e'))), 'v2', false),
    }),
  },
  remove_one_with_dangling_subitem_keep_one: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
						- name: b
						  value:
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						listOfLists:
						- name: a
						  value:
						  - b
					`,
        apiVersion: 'v2',
      }),
      new Update({
        manager: 'controller',
        object: `
						listOfLists:
						- name: a
						  value:
						  - b
						- name: b
						  value:
						  - c
						  - d
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
					`,
        apiVersion: 'v3',
      }),
    ],
    object: `
				listOfLists:
				- name: a
				  value:
				  - b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false),
      'apply-two': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name'), _P('listOfLists', _KBF('name', 'a'), 'value', _V('b'))), 'v2', false),
    }),
  },
  remove_one_with_managed_subitem_keep_one: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
						- name: b
						  value:
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						listOfLists:
						- name: a
						  value:
						  - b
					`,
        apiVersion: 'v2',
      }),
      new Update({
        manager: 'controller',
        object: `
						listOfLists:
						- name: a
						  value:
						  - b
						- name: b
						  value:
						  - c
						  - d
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
					`,
        apiVersion: 'v3',
      }),
    ],
    object: `
				listOfLists:
				- name: a
				  value:
				  - b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false),
      'apply-two': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name'), _P('listOfLists', _KBF('name', 'a'), 'value', _V('b'))), 'v2', false),
    }),
  },
  remove_one_keep_one_with_sub_item: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
						- name: b
						  value:
						  - c
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						listOfLists:
						- name: b
						  value:
						  - d
					`,
        apiVersion: 'v2',
      }),
      new Apply({
        manager: 'apply-one',
        object: `
						listOfLists:
						- name: a
					`,
        apiVersion: 'v3',
      }),
    ],
    object: `
				listOfLists:
				- name: a
				- name: b
				  value:
				  - d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'a')), _P('listOfLists', _KBF('name', 'a'), 'name')), 'v3', false),
      'apply-two': new VersionedSet(_NS(_P('listOfLists', _KBF('name', 'b')), _P('listOfLists', _KBF('name', 'b'), 'name'), _P('listOfLists', _KBF('name', 'b'), 'value', _V('d'))), 'v2', false),
    }),
  },
  multiple_appliers_recursive_map: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						  c:
						    d:
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'apply-two',
        object: `
						mapOfMapsRecursive:
						  a:
						  c:
						    d:
					`,
        apiVersion: 'v2',
      }),
      new Update({
        manager: 'controller-one',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						      c:
						  c:
						    d:
						      e:
					`,
        apiVersion: 'v3',
      }),
      new Update({
        manager: 'controller-two',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						      c:
						        d:
						  c:
						    d:
						      e:
						        f:
					`,
        apiVersion: 'v2',
      }),
      new Update({
        manager: 'controller-one',
        object: `
						mapOfMapsRecursive:
						  a:
						    b:
						      c:
						        d:
						          e:
						  c:
						    d:
						      e:
						        f:
						          g:
					`,
        apiVersion: 'v3',
      }),
      new Apply({
        manager: 'apply-one',
        object: `
						mapOfMapsRecursive:
					`,
        apiVersion: 'v4',
      }),
    ],
    object: `
				mapOfMapsRecursive:
				  a:
				  c:
				    d:
				      e:
				        f:
				          g:
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('mapOfMapsRecursive')), 'v4', false),
      'apply-two': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'a'), _P('mapOfMapsRecursive', 'c'), _P('mapOfMapsRecursive', 'c', 'd')), 'v2', false),
      'controller-one': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'c', 'd', 'e'), _P('mapOfMapsRecursive', 'c', 'd', 'e', 'f', 'g')), 'v3', false),
      'controller-two': new VersionedSet(_NS(_P('mapOfMapsRecursive', 'c', 'd', 'e', 'f')), 'v2', false),
    }),
  },
};
import { nestedTypeParser } from './parsers.js';

describe('TestMultipleAppliersNestedType', () => runTable(testMultipleAppliersNestedType, nestedTypeParser));
