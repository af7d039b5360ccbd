// Ported from sigs.k8s.io/structured-merge-diff merge/multiple_appliers_test.go: TestMultipleAppliersSet, TestMultipleAppliersDeducedType, TestMultipleApplierAtomicMaps.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, ForceApply, Update, deducedParser, runTable, managedFields, _NS, _P, _KBF } from '../fixture/index.js';
const testMultipleAppliersSet: Record<string, TestCase> = {
  remove_one: {
    ops: [
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v1',
        object: `
						list:
						- name: a
						- name: b
					`,
      }),
      new Apply({
        manager: 'apply-two',
        apiVersion: 'v2',
        object: `
						list:
						- name: c
					`,
      }),
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v3',
        object: `
						list:
						- name: a
					`,
      }),
    ],
    object: `
				list:
				- name: a
				- name: c
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name')), 'v3', false),
      'apply-two': new VersionedSet(_NS(_P('list', _KBF('name', 'c')), _P('list', _KBF('name', 'c'), 'name')), 'v2', false),
    }),
  },
  same_value_no_conflict: {
    ops: [
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v1',
        object: `
						list:
						- name: a
						  value: 0
					`,
      }),
      new Apply({
        manager: 'apply-two',
        apiVersion: 'v2',
        object: `
						list:
						- name: a
						  value: 0
					`,
      }),
    ],
    object: `
				list:
				- name: a
				  value: 0
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value')), 'v1', false),
      'apply-two': new VersionedSet(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value')), 'v2', false),
    }),
  },
  change_value_yes_conflict: {
    ops: [
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v1',
        object: `
						list:
						- name: a
						  value: 0
					`,
      }),
      new Apply({
        manager: 'apply-two',
        apiVersion: 'v2',
        object: `
						list:
						- name: a
						  value: 1
					`,
        conflicts: [new Conflict('apply-one', _P('list', _KBF('name', 'a'), 'value'))],
      }),
    ],
    object: `
				list:
				- name: a
				  value: 0
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name'), _P('list', _KBF('name', 'a'), 'value')), 'v1', false),
    }),
  },
  remove_one_keep_one: {
    ops: [
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v1',
        object: `
						list:
						- name: a
						- name: b
						- name: c
					`,
      }),
      new Apply({
        manager: 'apply-two',
        apiVersion: 'v2',
        object: `
						list:
						- name: c
						- name: d
					`,
      }),
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v3',
        object: `
						list:
						- name: a
					`,
      }),
    ],
    object: `
				list:
				- name: a
				- name: c
				- name: d
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-one': new VersionedSet(_NS(_P('list', _KBF('name', 'a')), _P('list', _KBF('name', 'a'), 'name')), 'v3', false),
      'apply-two': new VersionedSet(_NS(_P('list', _KBF('name', 'c')), _P('list', _KBF('name', 'd')), _P('list', _KBF('name', 'c'), 'name'), _P('list', _KBF('name', 'd'), 'name')), 'v2', false),
    }),
  },
};
import { associativeListParser } from './parsers.js';

describe('TestMultipleAppliersSet', () => runTable(testMultipleAppliersSet, associativeListParser));

const testMultipleAppliersDeducedType: Record<string, TestCase> = {
  multiple_appliers_recursive_map_deduced: {
    ops: [
      new Apply({
        manager: 'apply-one',
        object: `
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
						a:
						c:
						  d:
					`,
        apiVersion: 'v2',
      }),
      new Update({
        manager: 'controller-one',
        object: `
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
        object: ``,
        apiVersion: 'v4',
      }),
    ],
    object: `
				a:
				c:
				  d:
				    e:
				      f:
				        g:
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-two': new VersionedSet(_NS(_P('a'), _P('c'), _P('c', 'd')), 'v2', false),
      'controller-one': new VersionedSet(_NS(_P('c', 'd', 'e'), _P('c', 'd', 'e', 'f', 'g')), 'v3', false),
      'controller-two': new VersionedSet(_NS(_P('c', 'd', 'e', 'f')), 'v2', false),
    }),
  },
};

describe('TestMultipleAppliersDeducedType', () => runTable(testMultipleAppliersDeducedType, deducedParser));

const atomicMapParser = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: atomicMap
        type:
          namedType: atomicMap
- name: atomicMap
  map:
    fields:
      - name: field1
        type:
          scalar: string
      - name: field2
        type:
          scalar: string
    elementRelationship: atomic
`);

const testMultipleApplierAtomicMaps: Record<string, TestCase> = {
  force: {
    ops: [
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v1',
        object: `
						atomicMap:
						  field1: a
					`,
      }),
      new Apply({
        manager: 'apply-two',
        apiVersion: 'v1',
        object: `
						atomicMap:
						  field2: b
					`,
        conflicts: [new Conflict('apply-one', _P('atomicMap'))],
      }),
      new ForceApply({
        manager: 'apply-two',
        apiVersion: 'v1',
        object: `
						atomicMap:
						  field2: b
					`,
      }),
    ],
    object: `
				atomicMap:
				  field2: b
			`,
    apiVersion: 'v1',
    managed: managedFields({
      'apply-two': new VersionedSet(_NS(_P('atomicMap')), 'v1', false),
    }),
  },
};

describe('TestMultipleApplierAtomicMaps', () => runTable(testMultipleApplierAtomicMaps, atomicMapParser));
